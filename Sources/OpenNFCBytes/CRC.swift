/// The CRCs of the NFC air interfaces. Readers (Core NFC, PC/SC) add and strip them, so the stack above the RF
/// frontend rarely needs them; they serve frame-level transcripts, ACR122U pass-through, and the Type 3/5 roadmap.
///
/// Parameters from ISO/IEC 14443-3 (CRC_A, CRC_B), ISO/IEC 15693-3 (CRC_B/X-25) and JIS X 6319-4 (FeliCa).
package enum CRC {
    /// ISO 14443-3 Type A CRC: reflected polynomial 0x8408, initial value 0x6363, no final XOR.
    /// Appended least significant byte first.
    package static func crcA<C: Collection>(_ data: C) -> UInt16 where C.Element == UInt8 {
        reflected(data, initial: 0x6363, finalXOR: 0)
    }

    /// ISO 14443-3 Type B / ISO 15693 CRC: reflected 0x8408, initial 0xFFFF, final XOR 0xFFFF.
    /// Appended least significant byte first.
    package static func crcB<C: Collection>(_ data: C) -> UInt16 where C.Element == UInt8 {
        reflected(data, initial: 0xFFFF, finalXOR: 0xFFFF)
    }

    /// FeliCa CRC (CRC-16/XMODEM): polynomial 0x1021, not reflected, initial 0. Appended most significant byte first.
    package static func felica<C: Collection>(_ data: C) -> UInt16 where C.Element == UInt8 {
        var crc: UInt16 = 0
        for b in data {
            crc ^= UInt16(b) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }

    /// The CRC_A register after one more byte: `crcA(data + [byte]) == crcAUpdate(crcA(data), byte)`, and
    /// `crcA([]) == crcAInitial` (ISO/IEC 14443-3 Annex B). For a CRC over bytes that are not in one array.
    @inlinable package static func crcAUpdate(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        (crc >> 8) ^ reflectedTable[Int(UInt8(truncatingIfNeeded: crc) ^ byte)]
    }

    /// The reflected polynomial 0x8408 applied to each byte value with a zero register: eight shifts at once, for
    /// ``crcAUpdate(_:_:)``.
    package static let reflectedTable: [UInt16] = (0...255).map { (i: Int) -> UInt16 in
        var crc = UInt16(i)
        for _ in 0..<8 {
            crc = crc & 1 != 0 ? (crc >> 1) ^ 0x8408 : crc >> 1
        }
        return crc
    }

    /// The CRC_A register before any byte (ISO/IEC 14443-3 Annex B).
    package static let crcAInitial: UInt16 = 0x6363

    /// `data` followed by its CRC_A, LSB first, as it travels on the air.
    package static func appendingCRCA(_ data: [UInt8]) -> [UInt8] {
        let c = crcA(data)
        return data + [UInt8(c & 0xFF), UInt8(c >> 8)]
    }

    private static func reflected<C: Collection>(_ data: C, initial: UInt16, finalXOR: UInt16) -> UInt16
    where C.Element == UInt8 {
        var crc = initial
        for b in data {
            crc ^= UInt16(b)
            for _ in 0..<8 {
                crc = crc & 1 != 0 ? (crc >> 1) ^ 0x8408 : crc >> 1
            }
        }
        return crc ^ finalXOR
    }
}
