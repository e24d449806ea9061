/// One ISO/IEC 15693 chip as its datasheet describes it: memory geometry, identification and which optional
/// commands it has. ``ISO15693Tag`` runs every profile on one engine.
///
/// | Chip | Datasheet | Blocks × size | UID prefix | IC reference | Extended (30–3C) | Write needs Option |
/// |---|---|---|---|---|---|---|
/// | `icode-slix` | NXP SL2S2002 (ICODE SLIX) | 28 × 4 | E0 04 01 | 01 | no | no |
/// | `icode-slix2` | NXP SL2S2602 (ICODE SLIX2) | 80 × 4 (block 79: counter) | E0 04 01 | 01 | no | no |
/// | `st25dv04k` | ST ST25DV04K | 128 × 4 | E0 02 24 | 24 | yes | no |
/// | `st25dv64k` | ST ST25DV64K | 2048 × 4 | E0 02 26 | 26 | yes (blocks past 255) | no |
/// | `tagit-hfi-plus` | TI Tag-it HF-I Plus (RI-I02-112A) | 64 × 4 | E0 07 80 | — | no | yes (§ "Write Single Block": Option flag must be 1) |
///
/// Mandatory and optional ISO/IEC 15693-3 commands on every chip: Inventory, Stay Quiet, Select, Reset to Ready,
/// Read/Write Single Block, Read/Write Multiple Blocks (Write Multiple only where the datasheet lists it), Lock
/// Block, Write/Lock AFI, Write/Lock DSFID, Get System Information, Get Multiple Block Security Status. Custom
/// commands (``ISO15693CustomCommands``): the NXP ICODE set on the SLIX and SLIX2 (each as its datasheet lists it,
/// `ISO15693Tag+NXP.swift`), the ST25DV set on both ST25DV chips (`ISO15693Tag+ST25DV.swift`); the Tag-it answers
/// every custom command with the "not supported" error `01`.
public struct ISO15693ChipProfile: Sendable, Hashable {
    /// Chip name in tag files and `--chip`.
    public var name: String
    public var displayName: String
    public var blockCount: Int
    public var blockSize: Int
    /// The first three UID bytes (`E0`, IC manufacturer code, product byte), MSB first.
    public var uidPrefix: [UInt8]
    /// The IC reference byte Get System Information reports, if the chip reports one.
    public var icReference: UInt8?
    /// Whether the chip has the extended commands (2-byte block numbers, `30`–`3C`).
    public var hasExtendedCommands: Bool
    /// Whether the chip has Write Multiple Blocks (`24`).
    public var hasWriteMultiple: Bool
    /// Whether writes and locks need the Option flag (the chip stays silent otherwise).
    public var writesNeedOption: Bool
    /// Most blocks one Read Multiple Blocks may ask for.
    public var maxReadMultiple: Int
    /// Blocks at the end of memory that are not user memory (the SLIX2 counter block).
    public var reservedTailBlocks: Int
    /// EEPROM programming time of one block.
    public var writeTimeMicroseconds: UInt64
    /// Which manufacturer's custom commands (`A0`–`DF`) the chip has.
    public var custom: ISO15693CustomCommands = .none

    /// User memory in bytes.
    public var userBytes: Int { (blockCount - reservedTailBlocks) * blockSize }

    public static let icodeSLIX = ISO15693ChipProfile(
        name: "icode-slix", displayName: "NXP ICODE SLIX", blockCount: 28, blockSize: 4, uidPrefix: [0xE0, 0x04, 0x01],
        icReference: 0x01, hasExtendedCommands: false, hasWriteMultiple: false, writesNeedOption: false,
        maxReadMultiple: 28, reservedTailBlocks: 0, writeTimeMicroseconds: 5_200, custom: .icodeSLIX)
    public static let icodeSLIX2 = ISO15693ChipProfile(
        name: "icode-slix2", displayName: "NXP ICODE SLIX2", blockCount: 80, blockSize: 4,
        uidPrefix: [0xE0, 0x04, 0x01], icReference: 0x01, hasExtendedCommands: false, hasWriteMultiple: false,
        writesNeedOption: false, maxReadMultiple: 80, reservedTailBlocks: 1, writeTimeMicroseconds: 5_200,
        custom: .icodeSLIX2)
    public static let st25dv04k = ISO15693ChipProfile(
        name: "st25dv04k", displayName: "ST ST25DV04K", blockCount: 128, blockSize: 4, uidPrefix: [0xE0, 0x02, 0x24],
        icReference: 0x24, hasExtendedCommands: true, hasWriteMultiple: true, writesNeedOption: false,
        maxReadMultiple: 256, reservedTailBlocks: 0, writeTimeMicroseconds: 5_000, custom: .st25dv)
    public static let st25dv64k = ISO15693ChipProfile(
        name: "st25dv64k", displayName: "ST ST25DV64K", blockCount: 2048, blockSize: 4,
        uidPrefix: [0xE0, 0x02, 0x26], icReference: 0x26, hasExtendedCommands: true, hasWriteMultiple: true,
        writesNeedOption: false, maxReadMultiple: 256, reservedTailBlocks: 0, writeTimeMicroseconds: 5_000,
        custom: .st25dv)
    public static let tagitHFIPlus = ISO15693ChipProfile(
        name: "tagit-hfi-plus", displayName: "TI Tag-it HF-I Plus", blockCount: 64, blockSize: 4,
        uidPrefix: [0xE0, 0x07, 0x80], icReference: nil, hasExtendedCommands: false, hasWriteMultiple: true,
        writesNeedOption: true, maxReadMultiple: 64, reservedTailBlocks: 0, writeTimeMicroseconds: 8_000)

    /// Every profile, in CLI order.
    public static let all: [ISO15693ChipProfile] = [icodeSLIX, icodeSLIX2, st25dv04k, st25dv64k, tagitHFIPlus]
}

/// The custom command set (ISO/IEC 15693-3 §10.5, codes `A0`–`DF` followed by the IC manufacturer code) a chip has.
public enum ISO15693CustomCommands: Sendable, Hashable {
    /// None: every custom command answers error `01`.
    case none
    /// NXP ICODE SLIX (SL2S2002 §9): inventory read, EAS, the EAS/AFI password.
    case icodeSLIX
    /// NXP ICODE SLIX2 (SL2S2602 §9): the SLIX set plus the read, write, privacy and destroy passwords, page
    /// protection, privacy, destroy, NXP system information and the originality signature.
    case icodeSLIX2
    /// ST ST25DV04K/16K/64K (datasheet §7.6): configuration and dynamic registers, the 64-bit passwords.
    case st25dv

    /// The IC manufacturer code custom requests carry after the command code.
    public var manufacturer: UInt8? {
        switch self {
        case .none: nil
        case .icodeSLIX, .icodeSLIX2: 0x04
        case .st25dv: 0x02
        }
    }
}
