/// The card's own view of its NDEF data (T2T spec §2.3 TLV blocks), for tag files, `.ndef` export and `tag show`.
/// This is a plain walk over the memory image, not the reader procedure.
extension Type2Tag {
    /// One TLV block in the data area.
    public struct TLV: Sendable, Hashable {
        public var type: UInt8
        /// Byte offset of the T byte in memory.
        public var offset: Int
        /// The value (empty for NULL and Terminator).
        public var value: [UInt8]
    }

    /// Whether page 3 holds an NDEF capability container (CC0 = E1h).
    public var isNDEFFormatted: Bool { memory[12] == 0xE1 }

    /// Data-area size the CC declares (CC2 × 8), limited to the memory after page 4.
    public var declaredDataAreaSize: Int { min(Int(memory[14]) * 8, memory.count - 16) }

    /// The TLV blocks from byte 16 up to the Terminator or the end of the data area. A truncated TLV ends the walk.
    /// Bytes a Memory Control TLV reserves (T2T §2.3.2: byte address = page × 2^BytesPerPage + offset) are skipped
    /// from there on, as the factory skips them when it places a message (the NTAG I2C plus 2k's reserved area).
    public var tlvs: [TLV] {
        guard isNDEFFormatted else { return [] }
        var out: [TLV] = []
        var addresses = Array(16..<16 + declaredDataAreaSize)
        var k = 0
        while k < addresses.count {
            let i = addresses[k]
            let t = memory[i]
            if t == 0x00 || t == 0xFE {
                out.append(TLV(type: t, offset: i, value: []))
                if t == 0xFE { break }
                k += 1
                continue
            }
            guard k + 1 < addresses.count else { break }
            var length = Int(memory[addresses[k + 1]])
            var start = k + 2
            if length == 0xFF {
                guard k + 3 < addresses.count else { break }
                length = Int(memory[addresses[k + 2]]) << 8 | Int(memory[addresses[k + 3]])
                start = k + 4
            }
            guard start + length <= addresses.count else { break }
            let value = addresses[start..<start + length].map { memory[$0] }
            out.append(TLV(type: t, offset: i, value: value))
            k = start + length
            if t == 0x02 && length == 3 {
                let at = Int(value[0] >> 4) * (1 << Int(value[2] & 0x0F)) + Int(value[0] & 0x0F)
                let reserved = at..<at + (value[1] == 0 ? 256 : Int(value[1]))
                addresses = Array(addresses[..<k]) + addresses[k...].filter { !reserved.contains($0) }
            }
        }
        return out
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
