/// The card's own view of its NDEF data (T2T spec §2.3 TLV blocks), for tag files, `.ndef` export and `tag show`.
/// This is a plain walk over the memory image, not the reader procedure.
extension Type2Tag {
    /// One TLV block in the data area.
    package struct TLV: Sendable, Hashable {
        package var type: UInt8
        /// Byte offset of the T byte in memory.
        package var offset: Int
        /// The value (empty for NULL and Terminator).
        package var value: [UInt8]
    }

    /// Whether page 3 holds an NDEF capability container (CC0 = E1h).
    package var isNDEFFormatted: Bool { memory[12] == 0xE1 }

    /// Data-area size the CC declares (CC2 × 8), limited to the memory after page 4.
    package var declaredDataAreaSize: Int { min(Int(memory[14]) * 8, memory.count - 16) }

    /// The TLV blocks from byte 16 up to the Terminator or the end of the data area. A truncated TLV ends the walk.
    package var tlvs: [TLV] {
        guard isNDEFFormatted else { return [] }
        var out: [TLV] = []
        var i = 16
        let end = 16 + declaredDataAreaSize
        while i < end {
            let t = memory[i]
            if t == 0x00 || t == 0xFE {
                out.append(TLV(type: t, offset: i, value: []))
                if t == 0xFE { break }
                i += 1
                continue
            }
            guard i + 1 < end else { break }
            var length = Int(memory[i + 1])
            var start = i + 2
            if length == 0xFF {
                guard i + 3 < end else { break }
                length = Int(memory[i + 2]) << 8 | Int(memory[i + 3])
                start = i + 4
            }
            guard start + length <= end else { break }
            out.append(TLV(type: t, offset: i, value: Array(memory[start..<start + length])))
            i = start + length
        }
        return out
    }

    /// The message in the first NDEF TLV; nil when unformatted, without an NDEF TLV, or empty.
    package var ndefMessage: [UInt8]? {
        guard let tlv = tlvs.first(where: { $0.type == 0x03 }), !tlv.value.isEmpty else { return nil }
        return tlv.value
    }

    /// NDEF access as the CC states it and the lock bits enforce: read/write, or read-only.
    package var isNDEFReadOnly: Bool {
        memory[15] & 0x0F != 0 || isLocked(3) || isLocked(4)
    }
}
