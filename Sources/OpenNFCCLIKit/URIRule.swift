/// The rule a URI given on the command line or in a batch file must meet before it is written to a tag: an absolute
/// URI (RFC 3986 §4.3) or IRI (RFC 3987 §2.2) — a scheme, `:`, then characters a URI or IRI may hold, with no raw
/// space, control character, `"<>\^`{|}` or stray `%`. Non-ASCII letters are allowed (an IRI); they are written as
/// their UTF-8 bytes after the abbreviated prefix, as iOS writes them (NFC Forum RTD-URI 1.0 §3.2.3).
package enum URIRule {
    /// Why `text` is not an absolute URI, naming the character and its offset (in characters, from 0), or nil.
    package static func problem(_ text: String) -> String? {
        if text.isEmpty { return "an empty URI; give an absolute URI such as https://example.com" }
        let scalars = Array(text.unicodeScalars)
        var schemeEnd: Int? = nil
        for (i, s) in scalars.enumerated() {
            if s == ":" {
                schemeEnd = i
                break
            }
            let letter = ("a"..."z").contains(s) || ("A"..."Z").contains(s)
            let ok = letter || (i > 0 && (("0"..."9").contains(s) || s == "+" || s == "-" || s == "."))
            if !ok { break }
        }
        guard let end = schemeEnd, end > 0 else {
            return "not an absolute URI: it does not start with a scheme and ':' (such as https: or tel:)"
        }
        var i = end + 1
        while i < scalars.count {
            let s = scalars[i]
            if let what = forbidden(s) {
                return "\(what) at offset \(i) is not allowed in a URI; write it percent-encoded (\(percent(s)))"
            }
            if s == "%" {
                let hex = scalars.dropFirst(i + 1).prefix(2)
                guard hex.count == 2, hex.allSatisfy({ $0.properties.isASCIIHexDigit }) else {
                    return "'%' at offset \(i) is not followed by two hex digits; write a literal % as %25"
                }
            }
            i += 1
        }
        return nil
    }

    /// A name for a character a URI or IRI never holds raw (RFC 3986 §2, RFC 3987 §2.2 and §4.1), or nil.
    static func forbidden(_ s: Unicode.Scalar) -> String? {
        let v = s.value
        switch v {
        case 0x20: return "a space (U+0020)"
        case 0x00..<0x20, 0x7F..<0xA0: return "a control character (U+\(hex4(v)))"
        case 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D: return "'\(Character(s))' (U+\(hex4(v)))"
        case 0x200E, 0x200F, 0x202A...0x202E: return "a bidirectional formatting character (U+\(hex4(v)))"
        case 0xFFF0...0xFFFF: return "a special character (U+\(hex4(v)))"
        default:
            if s.properties.generalCategory == .spaceSeparator || s.properties.generalCategory == .lineSeparator
                || s.properties.generalCategory == .paragraphSeparator
            {
                return "a space (U+\(hex4(v)))"
            }
            return nil
        }
    }

    static func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    static func percent(_ s: Unicode.Scalar) -> String {
        Array(String(s).utf8).map { "%" + (($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true)) }
            .joined()
    }
}
