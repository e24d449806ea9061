/// Factory states and the card's own view of its NDEF data (NFC Forum T3T 1.0 §7: attribute information block in
/// block 0, the message from block 1 on).
extension FeliCaLiteSTag {
    /// Why a Lite-S could not be built.
    public struct FactoryError: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// The attribute information block of an empty, NDEF-formatted Lite-S (T3T 1.0 §7.1): version 1.0, Nbr 4, Nbw 1,
    /// Nmaxb 13, read/write, Ln 0, checksum `00 23`.
    public static func attributeBlock(length: Int, readOnly: Bool = false) -> [UInt8] {
        var a: [UInt8] = [0x10, 0x04, 0x01, 0x00, 0x0D, 0, 0, 0, 0, 0x00, readOnly ? 0x00 : 0x01]
        a += [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        let sum = a.reduce(0) { $0 + Int($1) }
        return a + [UInt8(sum >> 8 & 0xFF), UInt8(sum & 0xFF)]
    }

    /// The most NDEF bytes a formatted Lite-S holds: Nmaxb 13 blocks of 16.
    public static let ndefCapacity = 13 * 16

    /// A factory-fresh Lite-S: system code `88 B4`, card key and CKV zero, write counter 0, MC `FF FF FF 01 07 …`
    /// (every block writable, system blocks open, SYS_OP NDEF on: the NFC Forum tag stock), block 0 the empty
    /// attribute block. With `ndefFormatted` false, MC byte 3 is 00 and block 0 is zero (a blank card, native
    /// system code only).
    public static func factory(idm: [UInt8], ndefFormatted: Bool = true) throws(FactoryError) -> FeliCaLiteSTag {
        guard idm.count == 8 else { throw FactoryError("a FeliCa IDm has 8 bytes, not \(idm.count)") }
        var user = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: 15)
        var mc: [UInt8] = [0xFF, 0xFF, 0xFF, 0x01, 0x07] + [UInt8](repeating: 0, count: 11)
        if ndefFormatted {
            user[0] = attributeBlock(length: 0)
        } else {
            mc[3] = 0x00
        }
        let zeros = [UInt8](repeating: 0, count: 16)
        return FeliCaLiteSTag(
            idm: idm, pmm: factoryPMm, user: user, idData: [UInt8](repeating: 0, count: 8),
            serC: [0x0B, 0x00] + [UInt8](repeating: 0, count: 14),
            sysC: [0x88, 0xB4] + [UInt8](repeating: 0, count: 14),
            ckv: zeros, ck: zeros, mc: mc, writeCount: 0)
    }

    /// A factory-fresh, formatted Lite-S holding `message` in blocks 1…, its length in the attribute block.
    public static func factory(idm: [UInt8], holding message: [UInt8]) throws(FactoryError) -> FeliCaLiteSTag {
        guard message.count <= ndefCapacity else {
            throw FactoryError(
                "the \(message.count)-byte message does not fit a FeliCa Lite-S: at most \(ndefCapacity) bytes")
        }
        let tag = try factory(idm: idm, ndefFormatted: true)
        tag.user[0] = attributeBlock(length: message.count)
        for (i, byte) in message.enumerated() { tag.user[1 + i / 16][i % 16] = byte }
        return tag
    }

    /// The attribute block's fields when it is valid (version major 1, checksum right).
    public var attributeInformation: (nbr: Int, nbw: Int, nmaxb: Int, writeF: UInt8, rw: UInt8, ln: Int)? {
        let a = user[0]
        let sum = a[0..<14].reduce(0) { $0 + Int($1) }
        guard a[0] >> 4 == 1, Int(a[14]) << 8 | Int(a[15]) == sum & 0xFFFF else { return nil }
        return (
            Int(a[1]), Int(a[2]), Int(a[3]) << 8 | Int(a[4]), a[9], a[10],
            Int(a[11]) << 16 | Int(a[12]) << 8 | Int(a[13])
        )
    }

    /// The message as a reader would take it: valid attribute block, no write in progress, SYS_OP NDEF on, Ln ≥ 1.
    public var ndefMessage: [UInt8]? {
        guard mc[3] & 0x01 != 0, let info = attributeInformation, info.writeF == 0, info.ln > 0,
            info.ln <= 14 * 16 - 16
        else { return nil }
        let bytes = user[1..<15].flatMap { $0 }
        return Array(bytes.prefix(info.ln))
    }
}
