/// A JSON document as a value: the format of tag files and of every `--json` output.
///
/// Objects keep their keys in insertion order, so files and outputs are stable and diff well. Parsing reports the
/// line and column of the first problem. Numbers are kept as `Int` when they are integers, `Double` otherwise.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Key/value pairs in order; keys are unique.
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0)
        case .bool(let b): h.combine(b)
        case .int(let i): h.combine(i)
        case .double(let d): h.combine(d)
        case .string(let s): h.combine(s)
        case .array(let a): h.combine(a)
        case .object(let o):
            for (k, v) in o {
                h.combine(k)
                h.combine(v)
            }
        }
    }

    // MARK: Access

    /// The member named `key` of an object, nil otherwise.
    package subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o.first { $0.0 == key }?.1 }
        return nil
    }

    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    package var intValue: Int? { if case .int(let i) = self { return i } else { return nil } }
    package var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    package var objectValue: [(String, JSONValue)]? { if case .object(let o) = self { return o } else { return nil } }

    // MARK: Encoding

    /// Compact JSON on one line (`{"a":1,"b":[true]}`).
    package var compact: String {
        var out = ""
        write(into: &out, indent: nil, level: 0)
        return out
    }

    /// Indented JSON (two spaces), ending without a newline.
    package var pretty: String {
        var out = ""
        write(into: &out, indent: "  ", level: 0)
        return out
    }

    private func write(into out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if !d.isFinite {
                out += "null"
            } else if d == d.rounded() && abs(d) < 1e15 {
                out += String(Int(d)) + ".0"
            } else {
                out += String(d)
            }
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let a):
            if a.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                if let ind = indent { out += "\n" + String(repeating: ind, count: level + 1) }
                v.write(into: &out, indent: indent, level: level + 1)
            }
            if let ind = indent { out += "\n" + String(repeating: ind, count: level) }
            out += "]"
        case .object(let o):
            if o.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (i, (k, v)) in o.enumerated() {
                if i > 0 { out += "," }
                if let ind = indent { out += "\n" + String(repeating: ind, count: level + 1) }
                JSONValue.writeString(k, into: &out)
                out += indent == nil ? ":" : ": "
                v.write(into: &out, indent: indent, level: level + 1)
            }
            if let ind = indent { out += "\n" + String(repeating: ind, count: level) }
            out += "}"
        }
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let h = Hex.encode([UInt8(u.value)], uppercase: false)
                out += "\\u00" + h
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }

    // MARK: Parsing

    /// A JSON syntax error with its 1-based line and column.
    package struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        package var reason: String
        package var line: Int
        package var column: Int
        package init(reason: String, line: Int, column: Int) {
            self.reason = reason
            self.line = line
            self.column = column
        }
        package var description: String { "\(reason) at line \(line), column \(column)" }
    }

    /// Parses one JSON document; nesting deeper than `maxDepth` is an error rather than a stack overflow.
    package init(parsing text: String, maxDepth: Int = 64) throws(ParseError) {
        var p = JSONParser(bytes: Array(text.utf8), maxDepth: maxDepth)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i < p.bytes.count { throw p.error("unexpected text after the JSON value") }
        self = v
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var i = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ reason: String) -> JSONValue.ParseError {
        var line = 1
        var col = 1
        for b in bytes[..<min(i, bytes.count)] {
            if b == UInt8(ascii: "\n") {
                line += 1
                col = 1
            } else if b & 0xC0 != 0x80 {
                col += 1
            }
        }
        return JSONValue.ParseError(reason: reason, line: line, column: col)
    }

    mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    mutating func expect(_ literal: String, _ v: JSONValue) throws(JSONValue.ParseError) -> JSONValue {
        let l = Array(literal.utf8)
        guard i + l.count <= bytes.count, Array(bytes[i..<i + l.count]) == l else {
            throw error("invalid literal")
        }
        i += l.count
        return v
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        guard i < bytes.count else { throw error("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["):
            i += 1
            var a: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(a)
            }
            while true {
                skipSpace()
                a.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw error("unterminated array") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(a)
                }
                throw error("expected ',' or ']' in array")
            }
        case UInt8(ascii: "{"):
            i += 1
            var o: [(String, JSONValue)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(o)
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a key string") }
                let keyStart = i
                let k = try string()
                if o.contains(where: { $0.0 == k }) {
                    i = keyStart
                    throw error("duplicate key \"\(k)\"")
                }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after key") }
                i += 1
                skipSpace()
                o.append((k, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw error("unterminated object") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(o)
                }
                throw error("expected ',' or '}' in object")
            }
        default:
            return try number()
        }
    }

    /// A number as RFC 8259 §6 writes it: `-`? (`0` | a digit 1–9 and digits) (`.` digits)? ((`e`|`E`) (`+`|`-`)?
    /// digits)?. A leading `+`, a leading zero before digits, a bare `.` or exponent, `.5`, `NaN` and `Infinity`
    /// are refused where they stand, not read as the number they look like.
    mutating func number() throws(JSONValue.ParseError) -> JSONValue {
        let start = i
        func isDigit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= 0x30 && bytes[k] <= 0x39 }
        func digits() { while isDigit(i) { i += 1 } }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else {
            if i < bytes.count, [UInt8(ascii: "+"), UInt8(ascii: ".")].contains(bytes[i]) {
                throw error("invalid number: a JSON number starts with '-' or a digit (RFC 8259 §6)")
            }
            throw error(i == start ? "unexpected character" : "invalid number: '-' without digits")
        }
        if bytes[i] == UInt8(ascii: "0"), isDigit(i + 1) {
            i += 1
            throw error("invalid number: a leading zero (RFC 8259 §6)")
        }
        digits()
        var isInt = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { throw error("invalid number: a digit must follow the decimal point (RFC 8259 §6)") }
            digits()
            isInt = false
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { throw error("invalid number: the exponent has no digits (RFC 8259 §6)") }
            digits()
            isInt = false
        }
        let s = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInt, let v = Int(s) { return .int(v) }
        if let d = Double(s), d.isFinite { return .double(d) }
        // RFC 8259 §6 lets a parser limit the range; a number beyond a Double would print as null.
        i = start
        throw error("number '\(s)' is out of range")
    }

    mutating func string() throws(JSONValue.ParseError) -> String {
        i += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var run = [UInt8]()
        func flush(_ run: inout [UInt8], _ scalars: inout String.UnicodeScalarView) {
            if !run.isEmpty {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
        }
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                flush(&run, &scalars)
                return String(scalars)
            }
            if c < 0x20 { throw error("control character in string") }
            if c == UInt8(ascii: "\\") {
                flush(&run, &scalars)
                i += 1
                guard i < bytes.count else { break }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var v = try hex4()
                    if (0xD800...0xDBFF).contains(v), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
                        bytes[i + 1] == UInt8(ascii: "u")
                    {
                        i += 2
                        let lo = try hex4()
                        guard (0xDC00...0xDFFF).contains(lo) else { throw error("invalid surrogate pair") }
                        v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(v) else { throw error("invalid \\u escape") }
                    scalars.append(u)
                default:
                    i -= 1
                    throw error("invalid escape")
                }
                continue
            }
            run.append(c)
            i += 1
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws(JSONValue.ParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}
