/// The card's own view of its NDEF data (T2T spec §2.3 TLV blocks), for tag files, `.ndef` export and `tag show`.
/// This is a plain walk over the memory image, not the reader procedure.
extension Type2Tag {
    /// One TLV block in the data area.
    /// A TLV block (the card side's one scan, ``CardTLV``).
    public typealias TLV = CardTLV

    /// Whether page 3 holds an NDEF capability container (CC0 = E1h).
    public var isNDEFFormatted: Bool { memory[12] == 0xE1 }

    /// Data-area size the CC declares (CC2 × 8), limited to the memory after page 4.
    public var declaredDataAreaSize: Int { min(Int(memory[14]) * 8, memory.count - 16) }

    /// The TLV blocks from byte 16 up to the Terminator or the end of the data area. A truncated TLV ends the walk.
    /// Bytes a Memory Control TLV reserves (T2T §2.3.2: byte address = page × 2^BytesPerPage + offset) are skipped
    /// from there on, as the factory skips them when it places a message (the NTAG I2C plus 2k's reserved area).
    public var tlvs: [TLV] {
        guard isNDEFFormatted else { return [] }
        return CardTLV.scan(memory, addresses: Array(16..<16 + declaredDataAreaSize)) { tlv in
            guard tlv.type == 0x02, tlv.value.count == 3 else { return nil }
            let v = tlv.value
            let at = Int(v[0] >> 4) * (1 << Int(v[2] & 0x0F)) + Int(v[0] & 0x0F)
            return at..<at + (v[1] == 0 ? 256 : Int(v[1]))
        }
    }

    /// The message in the first NDEF TLV; nil when unformatted, without an NDEF TLV, or empty.
    public var ndefMessage: [UInt8]? {
        guard let tlv = tlvs.first(where: { $0.type == 0x03 }), !tlv.value.isEmpty else { return nil }
        return tlv.value
    }

    /// NDEF access as the CC states it and the lock bits enforce: read/write, or read-only.
    public var isNDEFReadOnly: Bool {
        memory[15] & 0x0F != 0 || isLocked(3) || isLocked(4)
    }
}
