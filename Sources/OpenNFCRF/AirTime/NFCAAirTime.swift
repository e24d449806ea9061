internal import OpenNFCBytes

/// Air time of ISO/IEC 14443 Type A (NFC-A) frames and the delays between them.
///
/// | Quantity | Value | Source |
/// |---|---|---|
/// | Bit duration (etu) | 128/D fc, D = 1, 2, 4, 8 for 106, 212, 424, 848 kbit/s | ISO/IEC 14443-2 §8.1, §8.3 |
/// | Standard frame of n bytes | S + n × (8 data bits + odd parity) + E = 9n + 2 etu | ISO/IEC 14443-3 §6.2.3.2 |
/// | Short frame (REQA, WUPA) | S + 7 bits + E = 9 etu | ISO/IEC 14443-3 §6.2.3.1 |
/// | 4-bit answer (ACK/NAK) | S + 4 bits + E = 6 etu | ISO/IEC 14443-3 §6.2.3.1 (a 4-bit frame) |
/// | FDT reader → card | (n·128 + 84)/fc after a last bit 1, (n·128 + 20)/fc after a 0; n = 9 for REQA, WUPA, anticollision, SELECT, n ≥ 9 otherwise | ISO/IEC 14443-3 §6.2.1.1 |
/// | FDT card → reader | ≥ 1172/fc | ISO/IEC 14443-3 §6.2.1.2 |
/// | Request guard time | ≥ 7000/fc between two REQA/WUPA starts | ISO/IEC 14443-3 §6.2.2 |
///
/// The "last bit" of a standard frame is the parity bit of its last byte (odd parity: 1 when the byte has an even
/// number of ones); of a short frame, its seventh bit. The model counts the end of frame as one bit period in both
/// directions and uses n = 9, the least the standard allows, for every command: the rest is the card's own time.
/// Above 106 kbit/s the same frame structure and FDT formula are used (docs/TIMING.md, "NFC-A").
package enum NFCAAir {
    /// The NFC-A bit rates.
    package enum BitRate: Int, Sendable, Hashable, CaseIterable {
        case kbps106 = 1, kbps212 = 2, kbps424 = 4, kbps848 = 8

        /// One bit (elementary time unit) in carrier cycles: 128/D.
        package var etu: AirTime { AirTime(cycles: 128 / UInt64(rawValue)) }
    }

    /// A standard frame of `bytes` bytes on the air (CRC_A included when the frame has one): 9n + 2 etu.
    package static func standardFrame(bytes: Int, rate: BitRate = .kbps106) -> AirTime {
        rate.etu * (9 * bytes + 2)
    }

    /// The short frame of REQA and WUPA: 9 etu at 106 kbit/s.
    package static let shortFrame = BitRate.kbps106.etu * 9

    /// A 4-bit answer (ACK, NAK): 6 etu.
    package static func nibbleFrame(rate: BitRate = .kbps106) -> AirTime { rate.etu * 6 }

    /// A bit-oriented anticollision frame of `bits` data bits: S, the bits, a parity bit after each completed byte
    /// (counted from `firstBitInByte`, the split position), and E.
    package static func bitOrientedFrame(bits: Int, firstBitInByte: Int = 0, rate: BitRate = .kbps106) -> AirTime {
        let parities = (firstBitInByte + bits) / 8
        return rate.etu * (1 + bits + parities + 1)
    }

    /// The FDT from the end of a reader frame to the start of the card's answer: (n·128 + 84)/fc after a last bit
    /// 1, (n·128 + 20)/fc after a 0 (ISO/IEC 14443-3 §6.2.1.1).
    package static func readerToCardDelay(lastBit: UInt8, n: Int = 9) -> AirTime {
        AirTime(cycles: UInt64(n) * 128 + (lastBit & 1 == 1 ? 84 : 20))
    }

    /// The least delay from the end of a card frame to the next reader frame: 1172/fc (ISO/IEC 14443-3 §6.2.1.2).
    package static let cardToReaderDelay = AirTime(cycles: 1172)

    /// The least time between the starts of two REQA/WUPA: 7000/fc (ISO/IEC 14443-3 §6.2.2).
    package static let requestGuardTime = AirTime(cycles: 7000)

    /// The odd-parity bit sent after `byte` (ISO/IEC 14443-3 §6.2.3.2): 1 when the byte has an even number of ones.
    package static func parityBit(_ byte: UInt8) -> UInt8 { byte.nonzeroBitCount % 2 == 0 ? 1 : 0 }

    /// The last bit of a standard frame: the parity bit of its last byte.
    package static func lastBit(ofFrame bytes: [UInt8]) -> UInt8 { bytes.last.map(parityBit) ?? 0 }

    /// The last bit of a short frame: its seventh (most significant) data bit.
    package static func lastBit(ofShortFrame command: UInt8) -> UInt8 { command >> 6 & 1 }

    /// A reader frame (`bytes` as sent, CRC included) and the card's answer of `answerBytes` (nil: a 4-bit
    /// answer), with the FDT between them and the least card → reader delay before the command.
    package static func exchange(
        command bytes: [UInt8], answerBytes: Int?, answered: Bool = true, rate: BitRate = .kbps106,
        label: String = ""
    ) -> [AirFrame] {
        var frames = [
            AirFrame(
                .reader, gap: cardToReaderDelay, air: standardFrame(bytes: bytes.count, rate: rate),
                label: label)
        ]
        guard answered else { return frames }
        let answer = answerBytes.map { standardFrame(bytes: $0, rate: rate) } ?? nibbleFrame(rate: rate)
        frames.append(
            AirFrame(
                .tag, gap: readerToCardDelay(lastBit: lastBit(ofFrame: bytes)), air: answer,
                label: answerBytes == nil ? "4-bit answer" : "answer"))
        return frames
    }

    /// A frame without CRC as the procedures send it, with its CRC_A appended.
    package static func withCRC(_ frame: [UInt8]) -> [UInt8] { CRC.appendingCRCA(frame) }

    /// Detection, anticollision and SELECT of a tag with a `uidLength`-byte UID (4, 7 or 10), answering ATQA
    /// `atqa` (on-air order) and, at each cascade level, the SAK in `saks`: WUPA/ATQA, then per cascade level
    /// ANTICOLLISION (`93 20`) and its 5-byte UID CLn answer, SELECT (7 bytes + CRC_A) and SAK (1 + CRC_A)
    /// (ISO/IEC 14443-3 §6.4). Gaps: the FDT with n = 9 after each reader frame, 1172/fc after each answer.
    package static func selection(uid: [UInt8], sak: UInt8, wakeUp: Bool = true) -> [AirFrame] {
        let command: UInt8 = wakeUp ? 0x52 : 0x26
        var frames = [
            AirFrame(.reader, gap: .zero, air: shortFrame, label: wakeUp ? "WUPA" : "REQA"),
            AirFrame(
                .tag, gap: readerToCardDelay(lastBit: lastBit(ofShortFrame: command)),
                air: standardFrame(bytes: 2), label: "ATQA"),
        ]
        let levels: [[UInt8]]
        switch uid.count {
        case 7: levels = [[0x88] + Array(uid[0..<3]), Array(uid[3..<7])]
        case 10: levels = [[0x88] + Array(uid[0..<3]), [0x88] + Array(uid[3..<6]), Array(uid[6..<10])]
        default: levels = [Array(uid.prefix(4))]
        }
        let selects: [UInt8] = [0x93, 0x95, 0x97]
        for (level, part) in levels.enumerated() {
            let cln = part + [part.reduce(0, ^)]
            let anticollision = [selects[level], 0x20]
            frames.append(
                AirFrame(
                    .reader, gap: cardToReaderDelay, air: standardFrame(bytes: 2),
                    label: "ANTICOLLISION CL\(level + 1)"))
            frames.append(
                AirFrame(
                    .tag, gap: readerToCardDelay(lastBit: lastBit(ofFrame: anticollision)),
                    air: standardFrame(bytes: 5), label: "UID CL\(level + 1)"))
            let select = withCRC([selects[level], 0x70] + cln)
            let levelSAK: UInt8 = level == levels.count - 1 ? sak : 0x04
            frames.append(
                AirFrame(
                    .reader, gap: cardToReaderDelay, air: standardFrame(bytes: select.count),
                    label: "SELECT CL\(level + 1)"))
            frames.append(
                AirFrame(
                    .tag, gap: readerToCardDelay(lastBit: lastBit(ofFrame: select)),
                    air: standardFrame(bytes: withCRC([levelSAK]).count), label: "SAK"))
        }
        return frames
    }
}
