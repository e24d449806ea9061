internal import OpenNFCBytes
package import OpenNFCRF

/// Type 2 / NTAG commands and answers for `--trace` and `opennfc send` (NFC Forum T2T §5; NTAG213/215/216 datasheet
/// §10; MF0ULx1 §8; MIFARE Ultralight C authentication).
package enum Type2Trace: FrameDescriber {
    package static let frameModes: [RFFrameMode] = [.nfcA]

    package static func describe(command c: [UInt8]) -> String? {
        guard let first = c.first else { return nil }
        switch first {
        case 0x30 where c.count == 2: return "READ page \(c[1]) (pages \(c[1])–\(Int(c[1]) + 3))"
        case 0x3A where c.count == 3: return "FAST_READ pages \(c[1])–\(c[2])"
        case 0xA2 where c.count == 6: return "WRITE page \(c[1]): \(c[2...].hexString)"
        case 0xA0 where c.count == 2: return "COMPATIBILITY_WRITE page \(c[1])"
        case 0x60 where c.count == 1: return "GET_VERSION"
        case 0x3C where c.count == 2: return "READ_SIG"
        case 0x1B where c.count == 5: return "PWD_AUTH"
        case 0x39 where c.count == 2: return "READ_CNT counter \(c[1])"
        case 0xA5 where c.count == 6: return "INCR_CNT counter \(c[1])"
        case 0x3E where c.count == 2: return "CHECK_TEARING_EVENT counter \(c[1])"
        case 0x4B: return "VCSL"
        case 0x1A where c.count == 2: return "AUTHENTICATE (Ultralight C, 3DES) part 1"
        case 0xAF where c.count == 17: return "AUTHENTICATE (Ultralight C, 3DES) part 2"
        case 0xC2 where c.count == 2: return "SECTOR_SELECT part 1"
        case 0x50 where c.count == 2 && c[1] == 0: return "HLTA"
        default: return nil
        }
    }

    package static func describe(response r: RFResponse, to c: [UInt8]) -> String? {
        switch r {
        case .ack: return "ACK"
        case .nak(let n): return nakMeaning(n)
        case .frame(let b):
            if c == [0x60], b.count == 8 { return versionName(b) }
            if c.first == 0x1B, b.count == 2 { return "PACK \(b.hexString)" }
            if c.first == 0x39, b.count == 3 {
                return "counter \(Int(b[0]) | Int(b[1]) << 8 | Int(b[2]) << 16)"
            }
            if b == [0x0A] { return "ACK" }
            return nil
        }
    }

    /// NXP 4-bit NAK codes (NTAG213/215/216 §9.3, MF0ULx1 §8.3).
    package static func nakMeaning(_ n: UInt8) -> String {
        switch n {
        case 0: return "NAK: invalid argument or not allowed (page out of range, locked, or not authenticated)"
        case 1: return "NAK: parity or CRC error"
        case 4: return "NAK: counter overflow or authentication limit reached"
        case 5: return "NAK: EEPROM write error"
        default: return "NAK \(n)"
        }
    }

    /// The chip a GET_VERSION answer names (NTAG213/215/216 datasheet §10.1, MF0ULx1 datasheet §8.1 GET_VERSION).
    package static func versionName(_ v: [UInt8]) -> String? {
        guard v.count == 8, v[1] == 0x04 else { return nil }
        switch (v[2], v[6]) {
        case (0x04, 0x0F): return "NTAG213"
        case (0x04, 0x11): return "NTAG215"
        case (0x04, 0x13): return "NTAG216"
        case (0x04, 0x0B): return "NTAG210"
        case (0x04, 0x0E): return "NTAG212"
        case (0x03, 0x0B): return "MIFARE Ultralight EV1 (MF0UL11)"
        case (0x03, 0x0E): return "MIFARE Ultralight EV1 (MF0UL21)"
        default: return nil
        }
    }
}
