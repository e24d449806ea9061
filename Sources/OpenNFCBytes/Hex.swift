/// Hexadecimal text ⇄ bytes, used by every layer that prints or parses frames, APDUs and tag files.
///
/// Parsing accepts upper and lower case and ignores ASCII spaces, tabs, colons and newlines between digit pairs,
/// so `"04 a1:B2"` and `"04A1B2"` are the same bytes. Errors say what was wrong and at which character offset.
package enum Hex {
    /// A parse failure: `reason` says what was wrong, `offset` is the character offset in the input text.
    package struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        package var reason: String
        package var offset: Int
        package init(reason: String, offset: Int) {
            self.reason = reason
            self.offset = offset
        }
        package var description: String { "\(reason) at character \(offset)" }
    }

    /// Decodes hex text into bytes.
    package static func decode(_ text: String) throws(ParseError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        var highOffset = 0
        var offset = 0
        for c in text.utf8 {
            defer { offset += 1 }
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c &- UInt8(ascii: "A") &+ 10
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ":"):
                if high != nil {
                    throw ParseError(reason: "separator inside a hex byte", offset: offset)
                }
                continue
            default:
                // Every byte before this one is ASCII (anything else stops here), so `offset` counts characters
                // as well as bytes, and the character named is the whole one starting here.
                throw ParseError(reason: "invalid hex character \(describe(text, at: offset))", offset: offset)
            }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
                highOffset = offset
            }
        }
        if high != nil {
            throw ParseError(reason: "odd number of hex digits", offset: highOffset)
        }
        return out
    }

    /// The character starting at UTF-8 offset `offset` (an ASCII prefix precedes it), quoted, or its code point
    /// when it is a control or other invisible character (`U+0000`).
    private static func describe(_ text: String, at offset: Int) -> String {
        let scalars = text.unicodeScalars
        let scalar = scalars[scalars.index(scalars.startIndex, offsetBy: offset)]
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .nonspacingMark,
            .enclosingMark, .surrogate, .privateUse, .unassigned:
            let digits = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        default:
            return "'\(Character(scalar))'"
        }
    }

    private static let digitsUpper: [UInt8] = Array("0123456789ABCDEF".utf8)
    private static let digitsLower: [UInt8] = Array("0123456789abcdef".utf8)

    /// Encodes bytes as hex, upper case by default, with an optional separator between bytes.
    package static func encode<C: Collection>(_ bytes: C, uppercase: Bool = true, separator: String = "") -> String
    where C.Element == UInt8 {
        let digits = uppercase ? digitsUpper : digitsLower
        let sep = Array(separator.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * (2 + sep.count))
        var first = true
        for b in bytes {
            if !first { out.append(contentsOf: sep) }
            first = false
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Collection where Element == UInt8 {
    /// The bytes as upper-case hex without separators (`"04A1B2"`).
    package var hexString: String { Hex.encode(self) }
}
