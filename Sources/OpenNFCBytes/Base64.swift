/// Base64 (RFC 4648 §4): encoding with padding; lenient decoding for text formats (XML property lists' `<data>`,
/// PEM blocks), where whitespace is skipped and padding is optional. nil when a character is outside the alphabet or
/// the length leaves a lone 6-bit group.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The bytes of `text`; whitespace (space, tab, CR, LF) and `=` are skipped.
    package static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="), 0x20, 0x09, 0x0A, 0x0D: continue
            default: return nil
            }
        }
        if values.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var k = 0
        while k < values.count {
            let chunk = values[k..<min(k + 4, values.count)]
            var acc: UInt32 = 0
            for v in chunk { acc = acc << 6 | UInt32(v) }
            acc <<= UInt32(6 * (4 - chunk.count))
            let produced = chunk.count - 1
            for j in 0..<produced { out.append(UInt8((acc >> UInt32(16 - 8 * j)) & 0xFF)) }
            k += 4
        }
        return out
    }

    /// `bytes` in Base64 with `=` padding, on one line.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var k = 0
        while k < bytes.count {
            let chunk = bytes[k..<min(k + 3, bytes.count)]
            var acc: UInt32 = 0
            for b in chunk { acc = acc << 8 | UInt32(b) }
            acc <<= UInt32(8 * (3 - chunk.count))
            for j in 0..<4 {
                out.append(j <= chunk.count ? alphabet[Int((acc >> UInt32(18 - 6 * j)) & 0x3F)] : UInt8(ascii: "="))
            }
            k += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
