// Typed values of DER elements (ITU-T X.690 §8): INTEGER, OBJECT IDENTIFIER, strings, times.

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

/// A UTC date and time read from DER (seconds precision).
package struct DERTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var year, month, day, hour, minute, second: Int

    package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
    }

    /// The time `seconds` after 1970-01-01T00:00:00Z (proleptic Gregorian calendar, ``CivilCalendar``).
    package init(secondsSince1970 seconds: Int) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let date = CivilCalendar.date(days: days)
        self.init(
            year: date.year, month: date.month, day: date.day, hour: rest / 3600, minute: rest / 60 % 60,
            second: rest % 60)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    package var secondsSince1970: Int {
        CivilCalendar.days(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    package static func < (a: DERTime, b: DERTime) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    package var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
    }
}
