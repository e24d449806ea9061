/// A malformed DER encoding: what is wrong and the byte offset (from the start of the whole input) where it is.
package struct DERError: Error, Hashable, Sendable, CustomStringConvertible {
    package var reason: String
    package var offset: Int
    package init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }
    package var description: String { "\(reason) at byte \(offset)" }
}

/// One DER element (ITU-T X.690 §8, restricted by §10): its tag, where it sits in the whole input, and its value.
/// Parsing is strict: definite lengths only, each length in its shortest form, high tag numbers in their shortest
/// form, the element inside its parent; typed reads check the content rules (minimal INTEGERs and OID
/// subidentifiers, BOOLEAN `00`/`FF`, BIT STRING unused bits, the time formats). SET OF order is not checked: real
/// eMRTD SOD and master list files violate it (their signatures are over the bytes as received).
package struct DERNode: Sendable, Hashable {
    /// The tag as its encoded bytes packed big-endian: `0x30` SEQUENCE, `0x5F1F`, `0x7F61`, `0xA0` for `[0]`.
    package let tag: UInt32
    /// The whole input this element was read from.
    package let input: [UInt8]
    /// Offset of the tag's first byte in ``input``.
    package let offset: Int
    /// Offsets of the value in ``input``.
    package let valueRange: Range<Int>

    /// The value (content octets).
    package var value: [UInt8] { Array(input[valueRange]) }
    /// The whole TLV as it was received (tag, length, value): what signatures and hashes cover.
    package var encoded: [UInt8] { Array(input[offset..<valueRange.upperBound]) }
    /// Whether the constructed bit (bit 6 of the first tag byte) is set.
    package var isConstructed: Bool { firstTagByte & 0x20 != 0 }
    /// The tag class: 0 universal, 1 application, 2 context-specific, 3 private.
    package var tagClass: Int { Int(firstTagByte >> 6) }
    private var firstTagByte: UInt8 { input[offset] }

    /// Reads one element that spans all of `bytes`.
    package static func parse(_ bytes: [UInt8]) throws(DERError) -> DERNode {
        let node = try read(bytes, at: 0, end: bytes.count)
        guard node.valueRange.upperBound == bytes.count else {
            throw DERError(
                "\(bytes.count - node.valueRange.upperBound) byte(s) follow the element", at: node.valueRange.upperBound
            )
        }
        return node
    }

    /// Reads one element that starts at `offset`; the rest of `bytes` may follow it.
    package static func parsePrefix(_ bytes: [UInt8], at offset: Int = 0) throws(DERError) -> DERNode {
        try read(bytes, at: offset, end: bytes.count)
    }

    /// The elements inside this constructed one, in order.
    package func children() throws(DERError) -> [DERNode] {
        guard isConstructed else { throw DERError("tag \(tagName) is primitive, not constructed", at: offset) }
        var out: [DERNode] = []
        var at = valueRange.lowerBound
        while at < valueRange.upperBound {
            let child = try Self.read(input, at: at, end: valueRange.upperBound)
            out.append(child)
            at = child.valueRange.upperBound
        }
        return out
    }

    /// A cursor over the children, for reading a SEQUENCE field by field.
    package func fields() throws(DERError) -> DERFields { DERFields(parent: self, items: try children()) }

    /// The first child, which must have `tag` (any tag when nil).
    package func first(_ tag: UInt32?, _ what: String) throws(DERError) -> DERNode {
        var f = try fields()
        return try f.next(tag, what)
    }

    /// Throws unless this element has tag `expected`.
    @discardableResult
    package func expect(_ expected: UInt32, _ what: String) throws(DERError) -> DERNode {
        guard tag == expected else {
            throw DERError("\(what) should have tag \(DERNode.name(of: expected)), not \(tagName)", at: offset)
        }
        return self
    }

    /// The tag in hex, `30` or `5F1F`.
    package var tagName: String { Self.name(of: tag) }

    package static func name(of tag: UInt32) -> String {
        var bytes: [UInt8] = []
        var t = tag
        repeat {
            bytes.insert(UInt8(t & 0xFF), at: 0)
            t >>= 8
        } while t != 0
        return Hex.encode(bytes)
    }

    private static func read(_ bytes: [UInt8], at start: Int, end: Int) throws(DERError) -> DERNode {
        var i = start
        guard i < end else { throw DERError("an element was expected, the data ended", at: i) }
        let first = bytes[i]
        var tag = UInt32(first)
        i += 1
        if first & 0x1F == 0x1F {
            var number = 0
            var count = 0
            while true {
                guard i < end else { throw DERError("the data ends inside the tag that starts", at: start) }
                let b = bytes[i]
                if count == 0, b == 0x80 {
                    throw DERError("a high tag number has a leading 80 byte (not minimal)", at: i)
                }
                count += 1
                guard count <= 3 else { throw DERError("a tag longer than 4 bytes is not supported", at: start) }
                tag = tag << 8 | UInt32(b)
                number = number << 7 | Int(b & 0x7F)
                i += 1
                if b & 0x80 == 0 { break }
            }
            // X.690 §8.1.2.4 wants numbers below 31 in one byte; ISO/IEC 7816-4 §5.2.2.1 interindustry data objects
            // (`5F01`, `5F1F` in the LDS) use the two-byte form for them: allowed outside the universal class.
            guard number >= 31 || first & 0xC0 != 0 else {
                throw DERError("tag number \(number) uses the high-tag form but fits in one byte", at: start)
            }
        }
        guard i < end else { throw DERError("the data ends before the length of tag \(name(of: tag))", at: i) }
        let lengthAt = i
        let l0 = bytes[i]
        i += 1
        var length: Int
        if l0 < 0x80 {
            length = Int(l0)
        } else if l0 == 0x80 {
            throw DERError("indefinite length (80) is not DER", at: lengthAt)
        } else {
            let n = Int(l0 & 0x7F)
            guard n <= 4 else { throw DERError("a \(n)-byte length is too long", at: lengthAt) }
            guard i + n <= end else { throw DERError("the data ends inside the length", at: lengthAt) }
            guard bytes[i] != 0 else {
                throw DERError("the length has a leading zero byte (not minimal)", at: lengthAt)
            }
            length = 0
            for k in 0..<n { length = length << 8 | Int(bytes[i + k]) }
            guard length >= 0x80 else {
                throw DERError("length \(length) uses the long form but fits in one byte (not minimal)", at: lengthAt)
            }
            i += n
        }
        guard length <= end - i else {
            throw DERError(
                "tag \(name(of: tag)) declares \(length) byte(s) of value, only \(end - i) remain", at: lengthAt)
        }
        return DERNode(tag: tag, input: bytes, offset: start, valueRange: i..<(i + length))
    }
}

// MARK: - Typed values

extension DERNode {
    /// INTEGER content octets (two's complement, minimal: X.690 §8.3.2).
    package func integerBytes() throws(DERError) -> [UInt8] {
        try expect(0x02, "an INTEGER")
        let v = value
        guard let first = v.first else { throw DERError("an INTEGER has no content octets", at: offset) }
        if v.count > 1, (first == 0 && v[1] & 0x80 == 0) || (first == 0xFF && v[1] & 0x80 != 0) {
            throw DERError("the INTEGER's first nine bits are all equal (not minimal)", at: valueRange.lowerBound)
        }
        return v
    }

    /// A non-negative INTEGER as unsigned big-endian bytes without the sign byte.
    package func unsignedInteger() throws(DERError) -> [UInt8] {
        let v = try integerBytes()
        guard v[0] & 0x80 == 0 else { throw DERError("the INTEGER is negative", at: valueRange.lowerBound) }
        return v.count > 1 && v[0] == 0 ? Array(v.dropFirst()) : v
    }

    /// A small INTEGER (it must fit in an `Int`).
    package func int() throws(DERError) -> Int {
        let v = try integerBytes()
        guard v.count <= 8 else { throw DERError("an INTEGER of \(v.count) bytes is too large here", at: offset) }
        var x = v[0] & 0x80 != 0 ? -1 : 0
        for b in v { x = x << 8 | Int(b) }
        return x
    }

    /// An OBJECT IDENTIFIER in dotted form (X.690 §8.19; subidentifiers minimal).
    package func oid() throws(DERError) -> String {
        try expect(0x06, "an OBJECT IDENTIFIER")
        return try DERNode.dotted(input[valueRange], at: valueRange.lowerBound)
    }

    static func dotted(_ content: ArraySlice<UInt8>, at base: Int) throws(DERError) -> String {
        guard !content.isEmpty else { throw DERError("an OBJECT IDENTIFIER has no content octets", at: base) }
        var arcs: [UInt64] = []
        var current: UInt64 = 0
        var fresh = true
        for (k, b) in content.enumerated() {
            if fresh, b == 0x80 { throw DERError("an OID subidentifier starts with 80 (not minimal)", at: base + k) }
            guard current >> 56 == 0 else { throw DERError("an OID subidentifier is too large", at: base + k) }
            current = current << 7 | UInt64(b & 0x7F)
            fresh = b & 0x80 == 0
            if fresh {
                arcs.append(current)
                current = 0
            }
        }
        guard fresh else {
            throw DERError("the OBJECT IDENTIFIER ends inside a subidentifier", at: base + content.count - 1)
        }
        let first = arcs[0]
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }

    /// OCTET STRING content.
    package func octetString() throws(DERError) -> [UInt8] {
        try expect(0x04, "an OCTET STRING")
        return value
    }

    /// BIT STRING content with no unused bits (keys and signatures), without the unused-bits byte.
    package func bitStringBytes() throws(DERError) -> [UInt8] {
        try expect(0x03, "a BIT STRING")
        let v = value
        guard let unused = v.first else { throw DERError("a BIT STRING has no unused-bits byte", at: offset) }
        guard unused == 0 else {
            throw DERError(
                "the BIT STRING has \(unused) unused bit(s); whole bytes were expected", at: valueRange.lowerBound)
        }
        return Array(v.dropFirst())
    }

    /// A BIT STRING as named bits (keyUsage): bit 0 is the most significant bit of the first byte.
    package func namedBits() throws(DERError) -> Set<Int> {
        try expect(0x03, "a BIT STRING")
        let v = value
        guard let unused = v.first, unused < 8, v.count > 1 || unused == 0 else {
            throw DERError("a BIT STRING's unused-bits byte is missing or above 7", at: valueRange.lowerBound)
        }
        var out: Set<Int> = []
        for (k, b) in v.dropFirst().enumerated() {
            for bit in 0..<8 where b & (0x80 >> bit) != 0 { out.insert(k * 8 + bit) }
        }
        return out
    }

    /// BOOLEAN (DER: `00` false, `FF` true).
    package func boolean() throws(DERError) -> Bool {
        try expect(0x01, "a BOOLEAN")
        guard valueRange.count == 1, value[0] == 0 || value[0] == 0xFF else {
            throw DERError("a DER BOOLEAN is one byte, 00 or FF", at: valueRange.lowerBound)
        }
        return value[0] == 0xFF
    }

    /// A character string: UTF8String, PrintableString, IA5String, VisibleString, NumericString, TeletexString (read
    /// as Latin-1), BMPString (UCS-2), or, for the LDS's application tags, the value as UTF-8.
    package func string() throws(DERError) -> String {
        let v = value
        switch tag {
        case 0x0C, 0x12, 0x13, 0x16, 0x1A:
            guard let s = DERNode.utf8(v) else {
                throw DERError("the \(tagName) string is not valid UTF-8", at: valueRange.lowerBound)
            }
            return s
        case 0x14: return String(String.UnicodeScalarView(v.map { Unicode.Scalar($0) }))
        case 0x1E:
            guard v.count % 2 == 0 else { throw DERError("a BMPString has an odd length", at: valueRange.lowerBound) }
            let units = stride(from: 0, to: v.count, by: 2).map { UInt16(v[$0]) << 8 | UInt16(v[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        default:
            guard let s = DERNode.utf8(v) else {
                throw DERError("the value of tag \(tagName) is not text", at: valueRange.lowerBound)
            }
            return s
        }
    }

    static func utf8(_ bytes: [UInt8]) -> String? {
        let s = String(decoding: bytes, as: UTF8.self)
        return Array(s.utf8) == bytes ? s : nil
    }

    /// UTCTime (`YYMMDDHHMMSSZ`, years 50–99 are 19xx: RFC 5280 §4.1.2.5.1) or GeneralizedTime (`YYYYMMDDHHMMSSZ`).
    package func time() throws(DERError) -> DERTime {
        let text = try string()
        let digits = Array(text.utf8)
        let at = valueRange.lowerBound
        switch tag {
        case 0x17:
            guard digits.count == 13, digits.last == UInt8(ascii: "Z") else {
                throw DERError("a UTCTime is YYMMDDHHMMSSZ, not \(text)", at: at)
            }
        case 0x18:
            guard digits.count == 15, digits.last == UInt8(ascii: "Z") else {
                throw DERError("a GeneralizedTime is YYYYMMDDHHMMSSZ, not \(text)", at: at)
            }
        default: throw DERError("a time should be UTCTime (17) or GeneralizedTime (18), not \(tagName)", at: offset)
        }
        var numbers: [Int] = []
        var k = 0
        let widths = tag == 0x17 ? [2, 2, 2, 2, 2, 2] : [4, 2, 2, 2, 2, 2]
        for w in widths {
            var n = 0
            for d in digits[k..<k + w] {
                guard d >= 0x30, d <= 0x39 else { throw DERError("the time \(text) has a non-digit", at: at + k) }
                n = n * 10 + Int(d - 0x30)
            }
            numbers.append(n)
            k += w
        }
        if tag == 0x17 { numbers[0] += numbers[0] >= 50 ? 1900 : 2000 }
        let t = DERTime(
            year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4],
            second: numbers[5])
        guard (1...12).contains(t.month), (1...31).contains(t.day), t.hour < 24, t.minute < 60, t.second < 60 else {
            throw DERError("the time \(text) is not a valid date and time", at: at)
        }
        return t
    }
}

/// A cursor over a constructed element's children: `next` takes the next one (checking its tag), `optional` takes it
/// only when its tag matches, `end` checks that nothing is left.
package struct DERFields: Sendable {
    package let parent: DERNode
    package private(set) var items: [DERNode]
    private var index = 0

    init(parent: DERNode, items: [DERNode]) {
        self.parent = parent
        self.items = items
    }

    /// Whether children remain.
    package var hasMore: Bool { index < items.count }

    /// The next child's tag, or nil at the end.
    package var peekTag: UInt32? { index < items.count ? items[index].tag : nil }

    /// The next child, which must have `tag` (any tag when nil).
    package mutating func next(_ tag: UInt32? = nil, _ what: String) throws(DERError) -> DERNode {
        guard index < items.count else {
            throw DERError("\(what) is missing: the element ends", at: parent.valueRange.upperBound)
        }
        let node = items[index]
        if let tag { try node.expect(tag, what) }
        index += 1
        return node
    }

    /// The next child if it has `tag`, else nil (nothing consumed).
    package mutating func optional(_ tag: UInt32) -> DERNode? {
        guard index < items.count, items[index].tag == tag else { return nil }
        index += 1
        return items[index - 1]
    }

    /// Throws when children remain.
    package func end(_ what: String) throws(DERError) {
        guard index == items.count else {
            throw DERError("\(what) has an unexpected element \(items[index].tagName)", at: items[index].offset)
        }
    }
}

/// A UTC date and time read from DER (seconds precision).
package struct DERTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var year, month, day, hour, minute, second: Int

    package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
    }

    /// The time `seconds` after 1970-01-01T00:00:00Z (civil-from-days, proleptic Gregorian calendar).
    package init(secondsSince1970 seconds: Int) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(
            year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d, hour: rest / 3600, minute: rest / 60 % 60,
            second: rest % 60)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    package var secondsSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86400 + hour * 3600 + minute * 60 + second
    }

    package static func < (a: DERTime, b: DERTime) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    package var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
    }
}

// MARK: - Writer

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
