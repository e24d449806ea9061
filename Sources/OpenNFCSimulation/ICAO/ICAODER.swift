/// The DER values the issuer writes (ITU-T X.690 §8, §10), through the project's DER writer: the one place the
/// card side's certificates, SecurityInfos and SOD are encoded.
enum ICAODER {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { LDSTLV.encode(UInt16(tag), content) }
    static func sequence(_ items: [[UInt8]]) -> [UInt8] { tlv(0x30, items.flatMap { $0 }) }
    /// SET OF: the elements sorted by their encodings (X.690 §11.6).
    static func set(_ items: [[UInt8]]) -> [UInt8] {
        tlv(0x31, items.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }
    static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var v = value
        repeat {
            bytes.insert(UInt8(v & 0xFF), at: 0)
            v >>= 8
        } while v > 0
        return integer(unsigned: bytes)
    }
    /// A non-negative INTEGER from big-endian magnitude bytes (leading zeros dropped, a `00` added before a high
    /// bit: X.690 §8.3.2).
    static func integer(unsigned bytes: [UInt8]) -> [UInt8] {
        var b = Array(bytes.drop { $0 == 0 })
        if b.isEmpty || b[0] & 0x80 != 0 { b.insert(0, at: 0) }
        return tlv(0x02, b)
    }
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }
    static func bitString(_ bytes: [UInt8], unusedBits: UInt8 = 0) -> [UInt8] { tlv(0x03, [unusedBits] + bytes) }
    static let null: [UInt8] = [0x05, 0x00]
    static let `true`: [UInt8] = [0x01, 0x01, 0xFF]
    static func printableString(_ s: String) -> [UInt8] { tlv(0x13, Array(s.utf8)) }
    static func utf8String(_ s: String) -> [UInt8] { tlv(0x0C, Array(s.utf8)) }
    /// `[n]` constructed, explicit or implicit.
    static func context(_ n: UInt8, _ content: [UInt8]) -> [UInt8] { tlv(0xA0 | n, content) }
    /// OBJECT IDENTIFIER from dotted text (X.690 §8.19).
    static func oid(_ dotted: String) -> [UInt8] { tlv(0x06, oidContent(dotted)) }
    static func oidContent(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").compactMap { Int($0) }
        var out: [UInt8] = []
        for (i, arc) in ([arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2)).enumerated() {
            _ = i
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var v = arc >> 7
            while v > 0 {
                chunk.insert(UInt8(v & 0x7F) | 0x80, at: 0)
                v >>= 7
            }
            out += chunk
        }
        return out
    }
    /// UTCTime `YYMMDDHHMMSSZ` for years 1950–2049, else GeneralizedTime (RFC 5280 §4.1.2.5).
    static func time(_ day: EMRTDTestPKI.Day) -> [UInt8] {
        let digits = day.digits + "000000Z"
        if (1950...2049).contains(day.year) { return tlv(0x17, Array(digits.dropFirst(2).utf8)) }
        return tlv(0x18, Array(digits.utf8))
    }
}
