/// One token of a Swift or Objective-C source file, with the line and column it starts on (1-based; the column
/// counts Unicode scalars from the start of the line).
///
/// `doctor` reads app sources the way a careful reviewer would: comments are skipped, string literals are kept
/// whole (so "MIFARE Classic" inside an alert message is text, not an expectation), and numbers keep their
/// spelling so `0xA4` and `164` both evaluate.
package struct SourceToken: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        case identifier
        case number
        /// The literal's contents without quotes (escapes left as written).
        case string
        /// Any other single character: `(`, `)`, `[`, `]`, `,`, `:`, `.`, `=`, …
        case punctuation
    }

    package var kind: Kind
    package var text: String
    package var line: Int
    package var column: Int

    package init(kind: Kind, text: String, line: Int, column: Int = 1) {
        self.kind = kind
        self.text = text
        self.line = line
        self.column = column
    }

    /// The value of an integer literal (`0xA4`, `164`, `0b1010_0100`, `0o244`), nil otherwise.
    package var integerValue: Int? {
        guard kind == .number else { return nil }
        let t = text.replacingOccurrences(of: "_", with: "")
        if t.hasPrefix("0x") || t.hasPrefix("0X") { return Int(t.dropFirst(2), radix: 16) }
        if t.hasPrefix("0b") { return Int(t.dropFirst(2), radix: 2) }
        if t.hasPrefix("0o") { return Int(t.dropFirst(2), radix: 8) }
        return Int(t)
    }

    package func isPunctuation(_ c: String) -> Bool { kind == .punctuation && text == c }
    package func isIdentifier(_ name: String) -> Bool { kind == .identifier && text == name }
}

/// Splits source text into ``SourceToken``s. Never fails: anything it does not understand becomes punctuation, and an
/// unterminated comment or string simply ends the file.
package enum SourceTokenizer {
    package static func tokenize(_ text: String) -> [SourceToken] {
        let s = Array(text.unicodeScalars)
        var tokens: [SourceToken] = []
        var i = 0
        var line = 1
        // Index of the first scalar of the current line: a token's column is its distance from it, plus one.
        var lineStart = 0

        func peek(_ k: Int) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }

        while i < s.count {
            let c = s[i]
            if c == "\n" {
                line += 1
                i += 1
                lineStart = i
                continue
            }
            if c == " " || c == "\t" || c == "\r" {
                i += 1
                continue
            }
            // Comments: line comments and nested block comments.
            if c == "/" && peek(1) == "/" {
                while i < s.count && s[i] != "\n" { i += 1 }
                continue
            }
            if c == "/" && peek(1) == "*" {
                var depth = 0
                repeat {
                    if s[i] == "/" && peek(1) == "*" {
                        depth += 1
                        i += 2
                    } else if s[i] == "*" && peek(1) == "/" {
                        depth -= 1
                        i += 2
                    } else {
                        if s[i] == "\n" {
                            line += 1
                            lineStart = i + 1
                        }
                        i += 1
                    }
                } while depth > 0 && i < s.count
                continue
            }
            // String literals: "…", """…""", #"…"#, and Objective-C @"…".
            var hashes = 0
            var j = i
            if s[j] == "@" && j + 1 < s.count && s[j + 1] == "\"" { j += 1 }
            while j < s.count && s[j] == "#" {
                hashes += 1
                j += 1
            }
            if j < s.count && s[j] == "\"" {
                let startLine = line
                let startColumn = i - lineStart + 1
                let multiline = j + 2 < s.count && s[j + 1] == "\"" && s[j + 2] == "\""
                j += multiline ? 3 : 1
                var body = String.UnicodeScalarView()
                let closing: [Unicode.Scalar] =
                    (multiline ? ["\"", "\"", "\""] : ["\""]) + Array(repeating: "#", count: hashes)
                while j < s.count {
                    if hashes == 0 && s[j] == "\\" && j + 1 < s.count {
                        body.append(s[j])
                        body.append(s[j + 1])
                        if s[j + 1] == "\n" {
                            line += 1
                            lineStart = j + 2
                        }
                        j += 2
                        continue
                    }
                    if s[j] == "\"" && j + closing.count <= s.count && Array(s[j..<j + closing.count]) == closing {
                        j += closing.count
                        break
                    }
                    if s[j] == "\n" {
                        // A single-line string ends at the line break, which the main loop then counts (counting
                        // it here as well put every later token one line too far down).
                        if !multiline { break }
                        line += 1
                        lineStart = j + 1
                    }
                    body.append(s[j])
                    j += 1
                }
                tokens.append(SourceToken(kind: .string, text: String(body), line: startLine, column: startColumn))
                i = j
                continue
            }
            if isIdentifierStart(c) {
                var j = i
                while j < s.count && isIdentifierPart(s[j]) { j += 1 }
                tokens.append(
                    SourceToken(
                        kind: .identifier, text: String(String.UnicodeScalarView(s[i..<j])), line: line,
                        column: i - lineStart + 1))
                i = j
                continue
            }
            if c.properties.numericType != nil && ("0"..."9").contains(c) {
                var j = i
                while j < s.count && (isIdentifierPart(s[j]) || (s[j] == "." && j + 1 < s.count && isDigit(s[j + 1]))) {
                    j += 1
                }
                tokens.append(
                    SourceToken(
                        kind: .number, text: String(String.UnicodeScalarView(s[i..<j])), line: line,
                        column: i - lineStart + 1))
                i = j
                continue
            }
            tokens.append(SourceToken(kind: .punctuation, text: String(c), line: line, column: i - lineStart + 1))
            i += 1
        }
        return tokens
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) || (c.value > 0x7F && c.properties.isAlphabetic)
    }
    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool { isIdentifierStart(c) || isDigit(c) }
}
