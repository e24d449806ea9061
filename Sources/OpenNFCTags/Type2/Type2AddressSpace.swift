/// Type 2 specifics of the shared TLV area (`NDEF/TLVArea.swift`).
extension TLVAddressSpace {
    /// First byte of a Type 2 tag's data area (page 4).
    static let type2DataStart = 16
}

extension TLVLockArea {
    /// The NFC Forum default when no Lock Control TLV is present: lock bytes right after the data area,
    /// ⌈(size − 48) ÷ 8⌉ bits, 8 bytes per bit (T2T §4.7.1). Nil for a 48-byte (static only) tag.
    static func type2DefaultArea(dataAreaSize: Int) -> TLVLockArea? {
        guard dataAreaSize > 48 else { return nil }
        return TLVLockArea(
            address: TLVAddressSpace.type2DataStart + dataAreaSize, bits: (dataAreaSize - 48 + 7) / 8, bytesPerBit: 8)
    }
}
