/// One NFC Forum TLV block as a virtual chip stores it (T1T 1.2 §2.3, T2T §2.3, T5T §4.3, MIFARE Classic NDEF (NXP
/// AN1304 §4): `T L V`, L one byte or `FF` and two bytes big-endian; NULL (`00`) and Terminator (`FE`) have no L).
/// The card side's one TLV scan, shared by the virtual chips' reports, tag files and factory checks; written from
/// those specifications apart from the reader's (`OpenNFCTags/NDEF/TLVArea.swift`), as the independence rule asks.
public struct CardTLV: Sendable, Hashable {
    public var type: UInt8
    /// Byte address of the T byte.
    public var offset: Int
    /// The value (empty for NULL and Terminator).
    public var value: [UInt8]

    package init(type: UInt8, offset: Int, value: [UInt8]) {
        self.type = type
        self.offset = offset
        self.value = value
    }

    /// The TLV blocks over `addresses` (the data area's byte addresses in order) of `memory`, up to the Terminator
    /// or the end of the area; a truncated TLV ends the walk. `reserving` is asked after each TLV for bytes it
    /// reserves (a Type 2 Memory Control TLV): those addresses are skipped from there on.
    package static func scan(
        _ memory: [UInt8], addresses: [Int], reserving: (CardTLV) -> Range<Int>? = { _ in nil }
    ) -> [CardTLV] {
        var addresses = addresses
        var out: [CardTLV] = []
        var k = 0
        while k < addresses.count {
            let i = addresses[k]
            let t = memory[i]
            if t == 0x00 || t == 0xFE {
                out.append(CardTLV(type: t, offset: i, value: []))
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
            let tlv = CardTLV(type: t, offset: i, value: addresses[start..<start + length].map { memory[$0] })
            out.append(tlv)
            k = start + length
            if let reserved = reserving(tlv) {
                addresses = Array(addresses[..<k]) + addresses[k...].filter { !reserved.contains($0) }
            }
        }
        return out
    }

    /// The value of the first NDEF Message TLV (`03`) in `memory[range]`, nil when the Terminator, a truncated TLV or
    /// the end comes first.
    package static func firstNDEF(_ memory: [UInt8], in range: Range<Int>) -> [UInt8]? {
        scan(memory, addresses: Array(range)).first { $0.type == 0x03 }?.value
    }
}
