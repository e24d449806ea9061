import OpenNFCBytes

/// One thing `doctor` found: where, what, and how to fix it.
struct DoctorFinding: Sendable {
    enum Severity: String, Sendable {
        /// Core NFC will refuse or misbehave: `doctor` exits 1.
        case error
        /// Worth changing, but Core NFC works as configured: does not change the exit status.
        case advice
    }

    var severity: Severity
    var location: SourceLocation
    var message: String
    var fix: String

    /// `file:line: error: message` and an indented `fix:` line, as compilers print diagnostics.
    var rendered: String {
        "\(location): \(severity.rawValue): \(message)\n    fix: \(fix)\n"
    }

    var json: JSONValue {
        var o: [(String, JSONValue)] = [
            ("severity", .string(severity.rawValue)), ("file", .string(location.file)),
        ]
        o.append(("line", location.line.map { .int($0) } ?? .null))
        o.append(("message", .string(message)))
        o.append(("fix", .string(fix)))
        return .object(o)
    }
}
