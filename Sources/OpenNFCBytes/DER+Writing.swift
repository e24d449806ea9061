// DER writing (ITU-T X.690 §10).

/// DER encoders (ITU-T X.690 §10): each returns a whole TLV.
package enum DER {
    /// The length octets: short form below 128, else the shortest long form.
    package static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        var bytes: [UInt8] = []
        var v = n
        while v > 0 {
            bytes.insert(UInt8(v & 0xFF), at: 0)
            v >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// A TLV with the tag given as its packed encoded bytes (`0x30`, `0x5F1F`, `0x7F61`).
    package static func tlv(_ tag: UInt32, _ value: [UInt8]) -> [UInt8] {
        var t: [UInt8] = []
        var x = tag
        repeat {
            t.insert(UInt8(x & 0xFF), at: 0)
            x >>= 8
        } while x != 0
        return t + length(value.count) + value
    }

    package static func sequence(_ parts: [[UInt8]]) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    /// A SET OF, its elements sorted by their encodings as DER requires (X.690 §11.6).
    package static func set(_ parts: [[UInt8]]) -> [UInt8] {
        tlv(0x31, parts.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }

    /// An INTEGER from unsigned big-endian magnitude bytes (a `00` is added when the top bit is set).
    package static func integer(unsigned bytes: [UInt8]) -> [UInt8] {
        var v = Array(bytes.drop { $0 == 0 })
        if v.isEmpty || v[0] & 0x80 != 0 { v.insert(0, at: 0) }
        return tlv(0x02, v)
    }

    /// An INTEGER.
    package static func integer(_ n: Int) -> [UInt8] {
        var v: [UInt8] = []
        var x = n
        repeat {
            v.insert(UInt8(truncatingIfNeeded: x), at: 0)
            x >>= 8
        } while !(x == 0 && v[0] & 0x80 == 0) && !(x == -1 && v[0] & 0x80 != 0)
        return tlv(0x02, v)
    }

    /// An OBJECT IDENTIFIER from dotted form; throws on a malformed one (offset: the character index).
    package static func oid(_ dotted: String) throws(DERError) -> [UInt8] {
        tlv(0x06, try oidContent(dotted))
    }

    /// The content octets of an OBJECT IDENTIFIER (what PACE's MSE:Set AT carries in `80`).
    package static func oidContent(_ dotted: String) throws(DERError) -> [UInt8] {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        var arcs: [UInt64] = []
        for (k, p) in parts.enumerated() {
            guard let a = UInt64(p) else { throw DERError("OID \(dotted): arc \(k + 1) is not a number", at: k) }
            arcs.append(a)
        }
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else {
            throw DERError("OID \(dotted) needs two arcs, the first 0–2 and the second below 40 under 0 and 1", at: 0)
        }
        var out: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
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

    package static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }
    /// A BIT STRING of whole bytes (no unused bits).
    package static func bitString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x03, [0] + bytes) }
    /// A BIT STRING of named bits (bit 0 = the most significant bit of the first byte), trailing zero bits removed.
    package static func namedBits(_ bits: Set<Int>) -> [UInt8] {
        guard let top = bits.max() else { return tlv(0x03, [0]) }
        var bytes = [UInt8](repeating: 0, count: top / 8 + 1)
        for b in bits { bytes[b / 8] |= 0x80 >> UInt8(b % 8) }
        return tlv(0x03, [UInt8(7 - top % 8)] + bytes)
    }
    package static func null() -> [UInt8] { [0x05, 0x00] }
    package static func boolean(_ b: Bool) -> [UInt8] { [0x01, 0x01, b ? 0xFF : 0x00] }
    package static func utf8String(_ s: String) -> [UInt8] { tlv(0x0C, Array(s.utf8)) }
    package static func printableString(_ s: String) -> [UInt8] { tlv(0x13, Array(s.utf8)) }
    /// A context-specific tag `[n]` (n < 31), constructed or primitive.
    package static func context(_ n: Int, constructed: Bool = true, _ value: [UInt8]) -> [UInt8] {
        tlv(UInt32(0x80 | (constructed ? 0x20 : 0) | n), value)
    }

    /// UTCTime for years 1950–2049, GeneralizedTime otherwise (RFC 5280 §4.1.2.5).
    package static func time(_ t: DERTime) -> [UInt8] {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let rest = two(t.month) + two(t.day) + two(t.hour) + two(t.minute) + two(t.second) + "Z"
        if (1950...2049).contains(t.year) { return tlv(0x17, Array((two(t.year % 100) + rest).utf8)) }
        return tlv(0x18, Array((String(t.year) + rest).utf8))
    }
}
