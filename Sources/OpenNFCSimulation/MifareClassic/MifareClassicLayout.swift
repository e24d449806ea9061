/// The memory organisation of MIFARE Classic Mini, 1K and 4K (NXP MF1S50yyX §8.6, MF1S70yyX §8.6; the Mini is
/// the 1K's first 5 sectors, MF1ICS20 §8.6): sectors of 4 blocks (4K: sectors 32–39 of 16 blocks), 16 bytes a
/// block, the last block of each sector its trailer.
package enum MifareClassicModel: String, Sendable, Hashable, CaseIterable {
    case mini = "mifare-classic-mini"
    case classic1K = "mifare-classic-1k"
    case classic4K = "mifare-classic-4k"

    /// 5, 16 or 40 sectors.
    package var sectorCount: Int {
        switch self {
        case .mini: return 5
        case .classic1K: return 16
        case .classic4K: return 40
        }
    }

    /// 20, 64 or 256 blocks.
    package var blockCount: Int { self == .classic4K ? 256 : sectorCount * 4 }

    /// SAK (MF1S50yyX §9.4 Table 7 `08`, MF1S70yyX `18`, MF1ICS20 `09`).
    package var sak: UInt8 {
        switch self {
        case .mini: return 0x09
        case .classic1K: return 0x08
        case .classic4K: return 0x18
        }
    }

    /// ATQA as a 16-bit SENS_RES (`0004` 4-byte UID; the 4K answers `0002`).
    package var atqa: UInt16 { self == .classic4K ? 0x0002 : 0x0004 }

    /// The short name used in dump files (`MINI`, `1K`, `4K`).
    package var shortName: String {
        switch self {
        case .mini: return "MINI"
        case .classic1K: return "1K"
        case .classic4K: return "4K"
        }
    }

    /// The sector a block belongs to.
    package static func sector(ofBlock block: Int) -> Int { block < 128 ? block / 4 : 32 + (block - 128) / 16 }
    /// The first block of a sector.
    package static func firstBlock(ofSector sector: Int) -> Int { sector < 32 ? sector * 4 : 128 + (sector - 32) * 16 }
    /// 4 blocks, or 16 in sectors 32–39.
    package static func blockCount(inSector sector: Int) -> Int { sector < 32 ? 4 : 16 }
    /// The sector trailer's block.
    package static func trailerBlock(ofSector sector: Int) -> Int {
        firstBlock(ofSector: sector) + blockCount(inSector: sector) - 1
    }
    /// Whether a block is a sector trailer.
    package static func isTrailer(_ block: Int) -> Bool { trailerBlock(ofSector: sector(ofBlock: block)) == block }

    /// The access-condition group (0–2 data, 3 trailer) of a block: one block each in 4-block sectors, five blocks
    /// each in 16-block sectors (MF1S70yyX §8.7.1).
    package static func accessGroup(ofBlock block: Int) -> Int {
        let sector = sector(ofBlock: block)
        let index = block - firstBlock(ofSector: sector)
        if isTrailer(block) { return 3 }
        return sector < 32 ? index : index / 5
    }
}
