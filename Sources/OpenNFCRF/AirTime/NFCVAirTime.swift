/// Air time of ISO/IEC 15693 (NFC-V) frames and the delays between them.
///
/// | Quantity | Value | Source |
/// |---|---|---|
/// | Reader 1-of-4 | 2 bits per 1024/fc symbol (26.48 kbit/s): a byte is 4096/fc | ISO/IEC 15693-2 §7.3.2 |
/// | Reader 1-of-256 | 8 bits per 65536/fc symbol (1.65 kbit/s) | ISO/IEC 15693-2 §7.3.1 |
/// | Reader SOF / EOF | 1024/fc (75.52 µs) / 512/fc (37.76 µs) | ISO/IEC 15693-2 §7.4 |
/// | Card, one subcarrier, high rate | a bit is 512/fc (26.48 kbit/s); SOF and EOF 2048/fc each (151.04 µs) | ISO/IEC 15693-2 §8.2, §8.3 |
/// | Card, low rate | four times as long: bit 2048/fc, SOF and EOF 8192/fc | ISO/IEC 15693-2 §8.2 |
/// | t1 (reader EOF → card SOF) | 4352/fc nominal (4320…4384) | ISO/IEC 15693-3 §9.1 |
/// | t2 (card EOF → next reader SOF) | ≥ 4192/fc | ISO/IEC 15693-3 §9.2 |
/// | Write-alike with Option_flag 1 | the reader sends a lone EOF ≥ 20 ms after the request; the card answers t1 after it | ISO/IEC 15693-3 §10.4.2 |
///
/// The data rate of the answer is the request's own choice (Data_rate_flag, bit 2 of the flags byte); the model
/// covers one subcarrier (Sub-carrier_flag 0), which every request here uses.
package enum NFCVAir {
    /// The reader's pulse-position coding.
    package enum Coding: String, Sendable, Hashable, CaseIterable {
        case oneOf4, oneOf256
    }

    package static let readerSOF = AirTime(cycles: 1024)
    package static let readerEOF = AirTime(cycles: 512)
    /// t1, nominal.
    package static let t1 = AirTime(cycles: 4352)
    /// t2, least.
    package static let t2 = AirTime(cycles: 4192)
    /// The least wait before the lone EOF of a write-alike request with Option_flag 1: 20 ms.
    package static let optionWriteWait = AirTime(cycles: 271_200)

    /// A reader frame of `bytes` bytes (CRC included): SOF, data symbols, EOF.
    package static func readerFrame(bytes: Int, coding: Coding = .oneOf4) -> AirTime {
        let perByte = coding == .oneOf4 ? AirTime(cycles: 4 * 1024) : AirTime(cycles: 65_536)
        return readerSOF + perByte * bytes + readerEOF
    }

    /// A card frame of `bytes` bytes (CRC included) on one subcarrier: SOF, 8 bits a byte, EOF.
    package static func cardFrame(bytes: Int, highRate: Bool = true) -> AirTime {
        let scale = highRate ? 1 : 4
        return AirTime(cycles: 2048) * scale + AirTime(cycles: 512) * (8 * bytes * scale) + AirTime(cycles: 2048)
            * scale
    }

    /// Commands the card answers only after programming its memory (ISO/IEC 15693-3 §10.4.2): Write single block,
    /// Lock block, Write multiple blocks, Write AFI, Lock AFI, Write DSFID, Lock DSFID.
    package static let writeAlikeCommands: Set<UInt8> = [0x21, 0x22, 0x24, 0x27, 0x28, 0x29, 0x2A]

    /// A request `flags command …` (without CRC; 2 CRC bytes are added) and its answer of `answerBytes` (without
    /// CRC): t1 before the answer, t2 before the request; a write-alike request with Option_flag set adds the
    /// 20 ms wait and the lone EOF.
    package static func exchange(
        request: [UInt8], answerBytes: Int?, coding: Coding = .oneOf4, label: String = ""
    ) -> [AirFrame] {
        let flags = request.first ?? 0
        let highRate = flags & 0x02 != 0
        var frames = [
            AirFrame(.reader, gap: t2, air: readerFrame(bytes: request.count + 2, coding: coding), label: label)
        ]
        if request.count >= 2, writeAlikeCommands.contains(request[1]), flags & 0x40 != 0 {
            frames.append(AirFrame(.reader, gap: optionWriteWait, air: readerEOF, label: "EOF"))
        }
        if let answerBytes {
            frames.append(
                AirFrame(
                    .tag, gap: t1, air: cardFrame(bytes: answerBytes + 2, highRate: highRate), label: "answer")
            )
        }
        return frames
    }

    /// Detection: an Inventory of one slot (`26 01 00` + CRC) and its answer (flags, DSFID, UID + CRC: 12 bytes).
    package static func activation(coding: Coding = .oneOf4) -> [AirFrame] {
        var frames = exchange(request: [0x26, 0x01, 0x00], answerBytes: 10, coding: coding, label: "Inventory")
        frames[0].gap = .zero
        return frames
    }
}
