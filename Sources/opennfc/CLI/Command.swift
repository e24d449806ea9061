/// A hand-written command-line layer with swift-argument-parser's conventions:
/// OVERVIEW/USAGE/ARGUMENTS/OPTIONS/SUBCOMMANDS help, `-h`/`--help`/`help <sub>`, `--version`,
/// `Error: …` plus a usage line on stderr, exit codes 0 success, 1 failure, 64 usage.
/// Options may stand before or after positional arguments; `--` ends option parsing; `--name=value` works.
struct Command: Sendable {
    var name: String
    var abstract: String
    var discussion: String = ""
    var arguments: [Argument] = []
    var options: [Option] = []
    var subcommands: [Command] = []
    /// Runs the command; returns the exit status. Nil for a group that only has subcommands.
    var run: (@Sendable (Invocation) throws -> Int32)?

    struct Argument: Sendable {
        var name: String
        var help: String
        var optional = false
        var variadic = false
    }

    struct Option: Sendable {
        /// Long name without dashes (`output`), the key used in ``Invocation``.
        var name: String
        /// Single-letter short name without dash, if any.
        var short: Character? = nil
        /// Nil for a flag; otherwise the placeholder shown in help (`<file>`).
        var value: String? = nil
        var help: String
        var repeatable = false
    }
}

/// What the parser found: options in the order given (so `ndef encode` can keep record order) and positionals.
struct Invocation: Sendable {
    var commandPath: [String]
    var occurrences: [(name: String, value: String?)] = []
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { occurrences.contains { $0.name == name } }
    /// The last value given for an option.
    func value(_ name: String) -> String? { occurrences.last { $0.name == name }?.value }
    func values(_ name: String) -> [String] { occurrences.filter { $0.name == name }.compactMap(\.value) }

    /// An integer option, with a usage error naming the option when it is not a number in range.
    func int(_ name: String, default def: Int, range: ClosedRange<Int> = 0...Int.max) throws -> Int {
        guard let s = value(name) else { return def }
        guard let v = Int(s), range.contains(v) else {
            throw CLIError.usage(
                "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(s)'")
        }
        return v
    }
}

/// Errors that end a command: usage errors exit 64 and print the usage line, failures exit 1.
enum CLIError: Error {
    case usage(String)
    case failure(String)
}
