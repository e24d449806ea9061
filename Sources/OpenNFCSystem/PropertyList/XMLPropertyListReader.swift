internal import OpenNFCBytes

/// Reads Apple's XML property-list format (the `PropertyList-1.0.dtd` vocabulary: `plist`, `dict`, `key`,
/// `array`, `string`, `integer`, `real`, `true`, `false`, `data`, `date`), with comments, a DOCTYPE, the
/// five predefined entities and numeric character references. Errors name the line.
struct XMLPropertyListReader {
    private let bytes: [UInt8]
    private var i = 0
    private static let maxDepth = 256

    init(_ bytes: [UInt8]) {
        var b = bytes
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b.removeFirst(3) }
        self.bytes = b
    }

    mutating func read() throws(PropertyListError) -> PropertyList {
        try checkCharacters()
        try skipMisc()
        guard let root = try openTag() else { throw error("expected <plist> or a value element") }
        let value: PropertyList
        if root.name == "plist" {
            if root.selfClosing { throw error("empty <plist>") }
            try skipMisc()
            value = try readValue(depth: 0)
            try skipMisc()
            try closeTag("plist")
        } else {
            value = try readValue(opened: root, depth: 0)
        }
        try skipMisc()
        if i < bytes.count { throw error("unexpected content after the property list") }
        return value
    }

    /// XML 1.0 §2.2: the document is UTF-8 (the plist's declared encoding) and every character is a `Char`
    /// (`#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`). A file that breaks either is
    /// refused, naming the line and byte offset, not read with replacement characters.
    private mutating func checkCharacters() throws(PropertyListError) {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let u):
                if !Self.isXMLChar(u.value) {
                    i = offset
                    throw error(
                        "character U+\(String(u.value, radix: 16, uppercase: true)) at byte \(offset) is not allowed "
                            + "in XML")
                }
                offset += UTF8.width(u)
            case .emptyInput:
                return
            case .error:
                i = offset
                throw error("invalid UTF-8 at byte \(offset)")
            }
        }
    }

    static func isXMLChar(_ v: UInt32) -> Bool {
        v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v)
            || (0x1_0000...0x10_FFFF).contains(v)
    }

    // MARK: values

    private mutating func readValue(depth: Int) throws(PropertyListError) -> PropertyList {
        guard let tag = try openTag() else { throw error("expected a value element") }
        return try readValue(opened: tag, depth: depth)
    }

    private mutating func readValue(opened tag: Tag, depth: Int) throws(PropertyListError) -> PropertyList {
        guard depth < Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels") }
        switch tag.name {
        case "true", "false":
            if !tag.selfClosing { try closeTag(tag.name) }
            return .bool(tag.name == "true")
        case "string":
            return .string(tag.selfClosing ? "" : try text(until: "string"))
        case "integer":
            let t = try text(until: "integer").trimmed
            let v: Int64?
            if t.hasPrefix("0x") || t.hasPrefix("0X") {
                v = Int64(t.dropFirst(2), radix: 16)
            } else if let n = Int64(t) {
                v = n
            } else {
                v = UInt64(t).map { Int64(bitPattern: $0) }
            }
            guard let v else { throw error("invalid <integer> \"\(t)\"") }
            return .integer(v)
        case "real":
            let t = try text(until: "real").trimmed
            guard let v = Double(t) else { throw error("invalid <real> \"\(t)\"") }
            return .real(v)
        case "data":
            let t = tag.selfClosing ? "" : try text(until: "data")
            guard let d = Base64.decode(t) else { throw error("invalid base64 in <data>") }
            return .data(d)
        case "date":
            let t = try text(until: "date").trimmed
            guard let d = ISODate.secondsSinceReferenceDate(t) else { throw error("invalid <date> \"\(t)\"") }
            return .date(d)
        case "array":
            var items: [PropertyList] = []
            if tag.selfClosing { return .array(items) }
            while true {
                try skipMisc()
                if atCloseTag { break }
                items.append(try readValue(depth: depth + 1))
            }
            try closeTag("array")
            return .array(items)
        case "dict":
            var entries: [(key: String, value: PropertyList)] = []
            if tag.selfClosing { return .dictionary(entries) }
            while true {
                try skipMisc()
                if atCloseTag { break }
                guard let k = try openTag(), k.name == "key" else { throw error("expected <key> in <dict>") }
                let key = k.selfClosing ? "" : try text(until: "key")
                try skipMisc()
                let value = try readValue(depth: depth + 1)
                if entries.contains(where: { $0.key == key }) { throw error("duplicate key \"\(key)\" in <dict>") }
                entries.append((key, value))
            }
            try closeTag("dict")
            return .dictionary(entries)
        default:
            throw error("unknown element <\(tag.name)>")
        }
    }

    // MARK: markup

    private struct Tag {
        var name: String
        var selfClosing: Bool
    }

    private var atCloseTag: Bool { i + 1 < bytes.count && bytes[i] == UInt8(ascii: "<") && bytes[i + 1] == 0x2F }

    /// Reads `<name attr="…">` or `<name/>`; nil at end of input.
    private mutating func openTag() throws(PropertyListError) -> Tag? {
        guard i < bytes.count else { return nil }
        guard bytes[i] == UInt8(ascii: "<"), !atCloseTag else { throw error("expected an element") }
        i += 1
        let name = readName()
        guard !name.isEmpty else { throw error("expected an element name") }
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
            if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                let q = bytes[i]
                i += 1
                while i < bytes.count, bytes[i] != q { i += 1 }
            }
            i += 1
        }
        guard i < bytes.count else { throw error("unterminated <\(name)>") }
        let selfClosing = bytes[i - 1] == UInt8(ascii: "/")
        i += 1
        return Tag(name: name, selfClosing: selfClosing)
    }

    private mutating func closeTag(_ name: String) throws(PropertyListError) {
        guard atCloseTag else { throw error("expected </\(name)>") }
        i += 2
        let n = readName()
        skipSpace()
        guard n == name, i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw error("expected </\(name)>") }
        i += 1
    }

    private mutating func readName() -> String {
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ">") || c == UInt8(ascii: "/") {
                break
            }
            i += 1
        }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// Character data up to `</name>`, entities and CDATA resolved.
    private mutating func text(until name: String) throws(PropertyListError) -> String {
        var out: [UInt8] = []
        while i < bytes.count, !atCloseTag {
            if bytes[i...].starts(with: Array("<![CDATA[".utf8)) {
                i += 9
                while i < bytes.count, !bytes[i...].starts(with: Array("]]>".utf8)) {
                    out.append(bytes[i])
                    i += 1
                }
                guard i < bytes.count else { throw error("unterminated CDATA section") }
                i += 3
            } else if bytes[i...].starts(with: Array("<!--".utf8)) {
                try skipComment()
            } else if bytes[i] == UInt8(ascii: "<") {
                throw error("unexpected element inside <\(name)>")
            } else if bytes[i] == UInt8(ascii: "&") {
                out += try entity()
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        try closeTag(name)
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func entity() throws(PropertyListError) -> [UInt8] {
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: ";"), i - start < 12 { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ";") else { throw error("unterminated entity reference") }
        let name = String(decoding: bytes[(start + 1)..<i], as: UTF8.self)
        i += 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var scalar: UInt32?
            if name.hasPrefix("#x") {
                scalar = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst())
            }
            guard let s = scalar, let u = Unicode.Scalar(s) else { throw error("unknown entity &\(name);") }
            guard Self.isXMLChar(s) else { throw error("&\(name); names no XML character") }
            return Array(String(Character(u)).utf8)
        }
    }

    /// Skips whitespace, comments, processing instructions and the DOCTYPE.
    private mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipSpace()
            if bytes[i...].starts(with: Array("<!--".utf8)) {
                try skipComment()
            } else if bytes[i...].starts(with: Array("<?".utf8)) || bytes[i...].starts(with: Array("<!DOCTYPE".utf8)) {
                // A processing instruction ends at `?>` (XML 1.0 §2.6), the DOCTYPE at `>`.
                let start = i
                let pi = bytes[start + 1] == UInt8(ascii: "?")
                let end = Array((pi ? "?>" : ">").utf8)
                while i < bytes.count, !bytes[i...].starts(with: end) { i += 1 }
                guard i < bytes.count else {
                    i = start
                    throw error(pi ? "unterminated <?…?>" : "unterminated <!DOCTYPE")
                }
                i += end.count
            } else {
                return
            }
        }
    }

    /// A comment ends at the first `--`, which must be followed by `>` (XML 1.0 §2.5).
    private mutating func skipComment() throws(PropertyListError) {
        let start = i
        i += 4
        while i < bytes.count, !bytes[i...].starts(with: Array("--".utf8)) { i += 1 }
        guard i < bytes.count else {
            i = start
            throw error("unterminated comment <!--")
        }
        guard i + 2 < bytes.count, bytes[i + 2] == UInt8(ascii: ">") else {
            throw error("'--' inside a comment (XML 1.0 §2.5 allows it only as the end, -->)")
        }
        i += 3
    }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private func error(_ message: String) -> PropertyListError {
        let upTo = min(i, bytes.count)
        return PropertyListError(message, line: bytes[..<upTo].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 })
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
