internal import OpenNFCBytes

/// The text formats under every file and option: JSON (tag files, `--json`) and hex (`h()` literals, CLI byte
/// arguments, tag-file fields). The first byte chooses: even JSON, odd hex.
///
/// Invariants: JSON that parses prints (compact and indented) to text that parses to an equal value, and the
/// error of text that does not parse names a line and column inside it; hex that decodes re-encodes (upper and
/// lower case, with separators) to text that decodes to the same bytes, one byte per two digits, and a hex error
/// points at a character of the input.
enum TextFormatsFuzz {
    static let target = FuzzTarget(
        "text", "JSON and hex text (parse → print → parse equal; errors give line/column or offset)", seeds: seeds,
        run: run)

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let choice = input.byte()
        guard let text = String(validating: input.rest(), as: UTF8.self) else { return }
        if choice & 1 == 0 { json(text) } else { hex(text) }
    }

    static func json(_ text: String) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            let lines = text.utf8.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            fuzzRequire(error.line >= 1 && error.line <= lines, "JSON error line \(error.line) of \(lines)")
            fuzzRequire(error.column >= 1, "JSON error column \(error.column)")
            return
        }
        for printed in [value.compact, value.pretty] {
            do {
                let back = try JSONValue(parsing: printed)
                fuzzRequire(back == value, "JSON print → parse changes the value: \(printed.prefix(80))")
            } catch {
                fuzzRequire(false, "printed JSON does not parse: \(error)")
            }
        }
    }

    static func hex(_ text: String) {
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(text)
        } catch {
            fuzzRequire(error.offset >= 0 && error.offset < max(1, text.utf8.count), "hex error offset")
            return
        }
        let digits = text.utf8.count(where: isHexDigit)
        fuzzRequire(digits == 2 * bytes.count, "\(digits) hex digits gave \(bytes.count) bytes")
        for printed in [Hex.encode(bytes), Hex.encode(bytes, uppercase: false, separator: " "), bytes.hexString] {
            fuzzRequire((try? Hex.decode(printed)) == bytes, "hex encode → decode changes the bytes")
        }
    }

    static func isHexDigit(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(c)
    }

    static func seeds() -> [[UInt8]] {
        let doc = JSONValue.object([
            ("format", .string("opennfc-tag")), ("version", .int(1)), ("ratio", .double(0.25)),
            ("list", .array([.bool(true), .null, .string("a\"b\\c\n\u{1}é✓")])), ("neg", .int(-42)),
        ])
        return [
            [0] + Array(doc.compact.utf8), [0] + Array(doc.pretty.utf8), [1] + Array("04 A1:B2 c3\td4\r\nE5f6".utf8),
            [1] + Array("D2760000850101".utf8),
        ]
    }
}
