/// Which MIFARE Plus a virtual chip is: generation (EV1 MF1P(H)x1y1, EV2 MF1P(H)x2y1), memory size and UID type.
/// NXP sells the UID types as separate part numbers (7-byte UID or 4-byte NUID), so each is its own chip name:
/// `mifare-plus-ev1-2k` (7-byte UID) and `mifare-plus-ev1-2k-4b` (4-byte NUID).
package struct MIFAREPlusModel: Sendable, Hashable, CaseIterable {
    package enum Generation: String, Sendable, Hashable, CaseIterable {
        case ev1, ev2
        /// GetVersion's major version byte (`11` EV1, `22` EV2).
        var majorVersion: UInt8 { self == .ev1 ? 0x11 : 0x22 }
    }

    package var generation: Generation
    /// 2 KB (32 sectors of 4 blocks) or 4 KB (32 of 4 and 8 of 16, as MIFARE Classic 4K).
    package var is4K: Bool
    /// 7 (double-size UID) or 4 (NUID).
    package var uidLength: Int

    package init(generation: Generation, is4K: Bool, uidLength: Int) {
        self.generation = generation
        self.is4K = is4K
        self.uidLength = uidLength
    }

    package static let allCases: [MIFAREPlusModel] = Generation.allCases.flatMap { g in
        [false, true].flatMap { big in [7, 4].map { MIFAREPlusModel(generation: g, is4K: big, uidLength: $0) } }
    }

    /// The chip name in tag files and `--chip`.
    package var chip: String {
        "mifare-plus-\(generation.rawValue)-\(is4K ? "4k" : "2k")\(uidLength == 4 ? "-4b" : "")"
    }

    /// "MIFARE Plus EV1 2K".
    package var displayName: String {
        "MIFARE Plus \(generation.rawValue.uppercased()) \(is4K ? "4K" : "2K")"
            + (uidLength == 4 ? " (4-byte NUID)" : "")
    }

    package var sectorCount: Int { is4K ? 40 : 32 }
    package var blockCount: Int { is4K ? 256 : 128 }

    /// SENS_RES (AN10833 §3: `0004`/`0002` single-size UID, `0044`/`0042` double-size; bit 6 = double size).
    package var atqa: UInt16 { (is4K ? 0x0002 : 0x0004) | (uidLength == 7 ? 0x0040 : 0) }

    /// SEL_RES in a security level (AN10833 Table 4: `20` in SL0 and SL3; `08` / `18` in SL1, as MIFARE Classic).
    package func sak(level: UInt8) -> UInt8 { level == 1 ? (is4K ? 0x18 : 0x08) : 0x20 }

    /// GetVersion storage size byte (`16` 2 KB, `18` 4 KB; the DESFire coding: 2^(n/2) bytes).
    var storageByte: UInt8 { is4K ? 0x18 : 0x16 }

    /// The AES key addresses this chip has (MIFARE Plus EV1 datasheet §8.6 memory map): Key A and Key B of each
    /// sector (`4000 + 2·s`, `4001 + 2·s`), the card master key `9000`, card configuration key `9001`, level 3
    /// switch key `9003`, SL1 card authentication key `9004`, the sector switch keys `9006`/`9007`, the virtual
    /// card keys `A000`, `A001`, `A080`, `A081`, and on EV2 the transaction MAC keys `C000`, `C001`.
    package var keyAddresses: [UInt16] {
        (0..<UInt16(sectorCount * 2)).map { 0x4000 + $0 } + [0x9000, 0x9001, 0x9003, 0x9004, 0x9006, 0x9007]
            + [0xA000, 0xA001, 0xA080, 0xA081] + (generation == .ev2 ? [0xC000, 0xC001] : [])
    }

    /// The configuration blocks `B000`–`B003` (MFP configuration, VC installation identifier, ATS, field
    /// configuration).
    package static let configurationAddresses: [UInt16] = [0xB000, 0xB001, 0xB002, 0xB003]

    /// The sector a data block belongs to (the MIFARE Classic layout, MF1S70yyX §8.6).
    static func sector(ofBlock block: Int) -> Int { MifareClassicModel.sector(ofBlock: block) }
}
