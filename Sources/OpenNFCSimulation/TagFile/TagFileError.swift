/// A problem with a tag file, naming where it is: the file, the JSON field path (`type2.pages[12]`) or the line
/// (Flipper `.nfc`, JSON syntax).
public struct TagFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var reason: String
    /// The file, when known.
    package var file: String?
    /// JSON field path such as `type2.pages[12]`, or a Flipper key such as `Page 12`.
    package var field: String?
    /// 1-based line, when known.
    package var line: Int?

    package init(_ reason: String, file: String? = nil, field: String? = nil, line: Int? = nil) {
        self.reason = reason
        self.file = file
        self.field = field
        self.line = line
    }

    /// The same error attributed to `file`.
    package func inFile(_ file: String) -> TagFileError {
        var e = self
        if e.file == nil { e.file = file }
        return e
    }

    public var description: String {
        var s = ""
        if let file { s += file }
        if let line { s += (s.isEmpty ? "line " : ":") + "\(line)" }
        if !s.isEmpty { s += ": " }
        if let field { s += "field '\(field)': " }
        return s + reason
    }
}
