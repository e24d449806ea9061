/// The Type 5 Tag capability container (NFC Forum T5T 1.0 §4.3): 4 bytes `E1|E2 VER/ACCESS MLEN FEATURES`, or 8
/// bytes with MLEN `00` and the T5T area size in bytes 6–7.
struct Type5CapabilityContainer: Sendable, Hashable {
    /// `E1` (1-byte block numbers) or `E2` (2-byte block numbers: the extended commands).
    var magic: UInt8
    /// Major version (bits 7–6 of byte 1); readers accept 1.
    var majorVersion: UInt8
    /// Read access (bits 3–2), 0 = always.
    var readAccess: UInt8
    /// Write access (bits 1–0): 0 always, 1 RFU, 2 proprietary, 3 never.
    var writeAccess: UInt8
    /// MLEN × 8: the size of the T5T area in bytes.
    var areaBytes: Int
    /// Byte 3: b0 Read Multiple Blocks, b3 Lock Block, b4 special frame (Option flag for writes).
    var features: UInt8
    /// 4 or 8.
    var length: Int

    var usesExtendedCommands: Bool { magic == 0xE2 }
    var supportsReadMultiple: Bool { features & 0x01 != 0 }
    var needsSpecialFrame: Bool { features & 0x10 != 0 }

    /// Parses the CC from the first bytes of memory (at least 4; 8 when MLEN is `00`); nil when the magic is not
    /// `E1`/`E2` (not NDEF formatted). `moreNeeded` is set when MLEN is 0 and only 4 bytes were given.
    init?(_ b: [UInt8]) {
        guard b.count >= 4, b[0] == 0xE1 || b[0] == 0xE2 else { return nil }
        magic = b[0]
        majorVersion = b[1] >> 6
        readAccess = (b[1] >> 2) & 0x03
        writeAccess = b[1] & 0x03
        features = b[3]
        if b[2] != 0 {
            areaBytes = Int(b[2]) * 8
            length = 4
        } else {
            guard b.count >= 8 else { return nil }
            areaBytes = (Int(b[6]) << 8 | Int(b[7])) * 8
            length = 8
        }
    }

    /// The 8-byte form is announced by MLEN `00` in the first block.
    static func needsEightBytes(_ first: [UInt8]) -> Bool { first.count >= 3 && first[2] == 0 }

    var bytes: [UInt8] {
        let b1 = majorVersion << 6 | readAccess << 2 | writeAccess
        if length == 8 {
            let mlen = areaBytes / 8
            return [magic, b1, 0x00, features, 0x00, 0x00, UInt8(mlen >> 8), UInt8(mlen & 0xFF)]
        }
        return [magic, b1, UInt8(areaBytes / 8), features]
    }
}
