internal import OpenNFCBytes

/// Air time of ISO/IEC 14443 Type B (NFC-B) frames at 106 kbit/s and the delays between them.
///
/// | Quantity | Value (etu = 128/fc) | Source |
/// |---|---|---|
/// | Character | start bit 0, 8 data bits LSB first, stop bit 1: 10 etu, no parity | ISO/IEC 14443-3 §7.1.1 |
/// | EGT between characters | 0 etu at least (reader up to 57 µs, card up to 19 µs) | ISO/IEC 14443-3 §7.1.2 |
/// | SOF | 10 etu low, then 2 etu high: 12 etu at least | ISO/IEC 14443-3 §7.1.4 |
/// | EOF | 10 etu low at least | ISO/IEC 14443-3 §7.1.5 |
/// | TR0 (reader EOF → card subcarrier) | ≥ 64/fs = 1024/fc | ISO/IEC 14443-2 §9.2.5 |
/// | TR1 (unmodulated subcarrier before the card's SOF) | ≥ 80/fs = 1280/fc | ISO/IEC 14443-2 §9.2.5 |
/// | TR2 (card EOF → next reader SOF) | ≥ 14 etu = 1792/fc by default | ISO/IEC 14443-3 §7.1.6 (Amd. 1) |
///
/// The model uses the least value of each: a frame of n bytes (CRC_B included) is 12 + 10n + 10 etu; the card's
/// answer starts TR0 + TR1 after the reader's EOF.
package enum NFCBAir {
    /// One elementary time unit at 106 kbit/s.
    package static let etu = AirTime(cycles: 128)

    /// A frame of `bytes` characters (CRC_B included): SOF (12 etu) + 10 etu per character + EOF (10 etu).
    package static func frame(bytes: Int) -> AirTime { etu * (12 + 10 * bytes + 10) }

    /// TR0 + TR1 at their least: 1024/fc + 1280/fc before the card's SOF.
    package static let readerToCardDelay = AirTime(cycles: 1024 + 1280)

    /// TR2 at its default least: 14 etu.
    package static let cardToReaderDelay = etu * 14

    /// A frame without CRC with its CRC_B appended (LSB first).
    package static func withCRC(_ frame: [UInt8]) -> [UInt8] {
        let c = CRC.crcB(frame)
        return frame + [UInt8(c & 0xFF), UInt8(c >> 8)]
    }

    /// A reader frame of `commandBytes` (CRC included) and the card's answer of `answerBytes` (CRC included).
    package static func exchange(commandBytes: Int, answerBytes: Int?, label: String = "") -> [AirFrame] {
        var frames = [AirFrame(.reader, gap: cardToReaderDelay, air: frame(bytes: commandBytes), label: label)]
        if let answerBytes {
            frames.append(
                AirFrame(.tag, gap: readerToCardDelay, air: frame(bytes: answerBytes), label: "answer"))
        }
        return frames
    }

    /// Detection and ISO-DEP activation: WUPB (`05 00 08` + CRC_B) and its ATQB (12 or 13 bytes + CRC_B), then
    /// ATTRIB (9 bytes + CRC_B) and its answer (1 byte + CRC_B) when `attrib` is true (ISO/IEC 14443-3 §7.7–§7.11).
    package static func activation(atqbLength: Int = 12, attrib: Bool) -> [AirFrame] {
        var frames = [
            AirFrame(.reader, gap: .zero, air: frame(bytes: 5), label: "WUPB"),
            AirFrame(.tag, gap: readerToCardDelay, air: frame(bytes: atqbLength + 2), label: "ATQB"),
        ]
        if attrib {
            frames += exchange(commandBytes: 11, answerBytes: 3, label: "ATTRIB")
        }
        return frames
    }
}
