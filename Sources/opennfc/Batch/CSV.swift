import Foundation

/// RFC 4180 CSV, as much as batch input and reports need: quoted fields with doubled quotes, commas and newlines
/// inside quotes, CRLF or LF line ends.
enum CSV {
    struct Row: Sendable {
        /// 1-based line on which the row starts.
        var line: Int
        var fields: [String]
    }

    struct ParseError: Error {
        var line: Int
        var reason: String
    }

    /// Parses a whole file into rows (blank lines skipped). It reads Unicode scalars, not Characters: a quote or comma
    /// followed by a combining mark is one Character that is neither, yet other CSV readers see the quote or comma.
    static func parse(_ text: String) throws(ParseError) -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var fieldWasQuoted = false
        var line = 1
        var rowLine = 1
        let chars = Array(text.unicodeScalars)
        var i = 0
        func endRow() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty && !fieldWasQuoted) {
                rows.append(Row(line: rowLine, fields: fields))
            }
            fields = []
            field = ""
            fieldWasQuoted = false
        }
        while i < chars.count {
            let c = chars[i]
            if inQuotes {
                if c == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" {
                        field.unicodeScalars.append("\"")
                        i += 2
                        continue
                    }
                    inQuotes = false
                } else {
                    // CRLF counts once, at its LF.
                    if c == "\n" || (c == "\r" && !(i + 1 < chars.count && chars[i + 1] == "\n")) { line += 1 }
                    field.unicodeScalars.append(c)
                }
                i += 1
                continue
            }
            switch c {
            case "\"":
                guard field.isEmpty else {
                    throw ParseError(line: line, reason: "a quote inside an unquoted field")
                }
                inQuotes = true
                fieldWasQuoted = true
            case ",":
                fields.append(field)
                field = ""
                fieldWasQuoted = false
            case "\n", "\r":
                if c == "\r" && i + 1 < chars.count && chars[i + 1] == "\n" { i += 1 }
                endRow()
                line += 1
                rowLine = line
            default:
                if fieldWasQuoted {
                    throw ParseError(line: line, reason: "text after a closing quote")
                }
                field.unicodeScalars.append(c)
            }
            i += 1
        }
        if inQuotes { throw ParseError(line: rowLine, reason: "a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { endRow() }
        return rows
    }

    /// The fields of one line (no embedded newlines expected); lenient: never throws.
    static func parseLine(_ line: String) -> [String] {
        (try? parse(line))?.first?.fields ?? [line]
    }

    /// Quotes a field when it needs it.
    static func quote(_ s: String) -> String {
        if s.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }
}
