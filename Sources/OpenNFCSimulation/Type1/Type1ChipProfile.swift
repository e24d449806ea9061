/// What distinguishes the Innovision/Broadcom Topaz chips (Topaz datasheet TPZ-201 §6 "Topaz IC Identification" and
/// §7 "Physical Memory Map"; NFC Forum Type 1 Tag Operation Specification 1.2, "Memory Structure").
///
/// | Chip | HR0 HR1 | Memory | Blocks | Dynamic commands | Dynamic lock bytes | Reserved |
/// |---|---|---|---|---|---|---|
/// | Topaz 96 (TPZ-201) | `11 48` | 120 bytes | 0–E (8 bytes each) | no (RSEG, READ8, WRITE-E8/NE8 unanswered) | none | block 0 byte 7, block D |
/// | Topaz 512 | `12 4C` | 512 bytes | 0–3F | yes | bytes 122–127 (48 bits, block 10h + bit) | block 0 byte 7, block D, bytes 120–121 |
public struct Type1ChipProfile: Sendable, Hashable, CustomStringConvertible {
    /// Chip name in tag files and `--chip` (`topaz96`, `topaz512`).
    public let name: String
    /// Product name for people.
    public let displayName: String
    /// Header ROM byte 0: high nibble `1` = NDEF-capable Type 1, low nibble `1` static memory, `2` dynamic memory.
    public let hr0: UInt8
    /// Header ROM byte 1.
    public let hr1: UInt8
    /// Total memory in bytes (blocks × 8).
    public let memorySize: Int
    /// Address of the first dynamic lock byte and the number of lock bits (each bit locks one 8-byte block from
    /// block 10h on), or nil for a static chip.
    public let dynamicLock: (address: Int, bits: Int)?
    /// Byte ranges that are neither data nor lock bytes: writes leave them unchanged.
    public let reservedRanges: [Range<Int>]
    /// The capability container NDEF-formatted chips ship with (bytes 8–11).
    public let ndefCC: [UInt8]
    /// The TLVs after the CC on an NDEF-formatted chip (from byte 12).
    public let ndefTLVs: [UInt8]

    public var description: String { name }

    /// RSEG, READ8, WRITE-E8 and WRITE-NE8 exist on every Type 1 chip except a static one (HR0 `11`) with HR1 below
    /// `49`: the Topaz 96 answers none of them.
    public var hasDynamicCommands: Bool { hr0 != 0x11 || hr1 >= 0x49 }

    /// Number of 8-byte blocks.
    public var blockCount: Int { memorySize / 8 }

    public static func == (a: Type1ChipProfile, b: Type1ChipProfile) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }

    /// Topaz 96: 96 bytes of data in blocks 1–C (CC included), static memory only.
    public static let topaz96 = Type1ChipProfile(
        name: "topaz96", displayName: "Topaz 96 (TPZ-201)", hr0: 0x11, hr1: 0x48, memorySize: 120, dynamicLock: nil,
        reservedRanges: [7..<8, 104..<112], ndefCC: [0xE1, 0x10, 0x0E, 0x00], ndefTLVs: [0x03, 0x00])

    /// Topaz 512: blocks 1–C and 10h–3Fh hold data; the Lock Control and Memory Control TLVs of its factory format
    /// declare the dynamic lock bytes (122–127) and the reserved bytes (120–121) of block F.
    public static let topaz512 = Type1ChipProfile(
        name: "topaz512", displayName: "Topaz 512", hr0: 0x12, hr1: 0x4C, memorySize: 512,
        dynamicLock: (address: 122, bits: 48), reservedRanges: [7..<8, 104..<112, 120..<122],
        ndefCC: [0xE1, 0x10, 0x3F, 0x00],
        ndefTLVs: [0x01, 0x03, 0xF2, 0x30, 0x33, 0x02, 0x03, 0xF0, 0x02, 0x03, 0x03, 0x00])

    /// Every Type 1 profile, in CLI order.
    public static let all: [Type1ChipProfile] = [.topaz512, .topaz96]
}
