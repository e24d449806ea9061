/// One position of a TLV area as every NFC Forum tag type and MIFARE Classic's NDEF mapping write it (NFC Forum
/// T1T 1.2 and T2T "TLV blocks", T5T §4.4, NXP AN1304 §5.3): a 1-byte tag; NULL `00` and Terminator `FE` alone; any
/// other tag followed by its length, 1 byte `00`–`FE` or `FF` and 2 bytes big-endian. The reader side's one reading of
/// that grammar: the Type 1/2 walk (``TLVWalk``), Type 5 and MIFARE Classic detection each call it and keep only their
/// own rules (reserved areas, lazy reads, what a cut or overlong TLV means).
enum TLVHeader: Equatable {
    /// A NULL TLV: the next TLV starts at the next address.
    case null
    /// A Terminator TLV: the area ends here.
    case terminator
    /// A TLV with a length: its tag, its value's length, whether the length took 3 bytes, and the address of its
    /// last length byte (the value starts at the address after it).
    case tlv(type: UInt8, length: Int, long: Bool, lastLengthByte: Int)
    /// The length field does not fit before `end` (`long`: the 3-byte form was announced by `FF`).
    case cut(type: UInt8, long: Bool)

    /// Reads the TLV at `a`. `next` gives the address after an address (Types 1 and 2 skip reserved bytes); `end` is
    /// one past the last address the length may use; `byte` reads (or fetches) one byte.
    static func read(
        at a: Int, end: Int, next: (Int) -> Int = { $0 + 1 }, byte: (Int) throws(TagError) -> UInt8
    ) throws(TagError) -> TLVHeader {
        let t = try byte(a)
        if t == 0x00 { return .null }
        if t == 0xFE { return .terminator }
        let l = next(a)
        guard l < end else { return .cut(type: t, long: false) }
        let first = try byte(l)
        guard first == 0xFF else { return .tlv(type: t, length: Int(first), long: false, lastLengthByte: l) }
        let hi = next(l)
        let lo = next(hi)
        guard lo < end else { return .cut(type: t, long: true) }
        return .tlv(type: t, length: Int(try byte(hi)) << 8 | Int(try byte(lo)), long: true, lastLengthByte: lo)
    }
}
