/// A hand-written command-line layer with swift-argument-parser's conventions:
/// OVERVIEW/USAGE/ARGUMENTS/OPTIONS/SUBCOMMANDS help, `-h`/`--help`/`help <sub>`, `--version`,
/// `Error: …` plus a usage line on stderr, exit codes 0 success, 1 failure, 64 usage.
/// Options may stand before or after positional arguments; `--` ends option parsing; `--name=value` works.
package struct Command: Sendable {
    package var name: String
    package var abstract: String
    package var discussion: String = ""
    package var arguments: [Argument] = []
    package var options: [Option] = []
    package var subcommands: [Command] = []
    /// Runs the command; returns the exit status. Nil for a group that only has subcommands.
    package var run: (@Sendable (Invocation) throws -> Int32)?

    package init(
        name: String, abstract: String, discussion: String = "", arguments: [Argument] = [], options: [Option] = [],
        subcommands: [Command] = [], run: (@Sendable (Invocation) throws -> Int32)? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.run = run
    }

    package struct Argument: Sendable {
        package var name: String
        package var help: String
        package var optional = false
        package var variadic = false

        package init(name: String, help: String, optional: Bool = false, variadic: Bool = false) {
            self.name = name
            self.help = help
            self.optional = optional
            self.variadic = variadic
        }
    }

    package struct Option: Sendable {
        /// Long name without dashes (`output`), the key used in ``Invocation``.
        package var name: String
        /// Single-letter short name without dash, if any.
        package var short: Character? = nil
        /// Nil for a flag; otherwise the placeholder shown in help (`<file>`).
        package var value: String? = nil
        package var help: String
        package var repeatable = false

        package init(
            name: String, short: Character? = nil, value: String? = nil, help: String, repeatable: Bool = false
        ) {
            self.name = name
            self.short = short
            self.value = value
            self.help = help
            self.repeatable = repeatable
        }
    }
}

/// What the parser found: options in the order given (so `ndef encode` can keep record order) and positionals.
package struct Invocation: Sendable {
    package var commandPath: [String]
    package var occurrences: [(name: String, value: String?)] = []
    package var positionals: [String] = []

    package init(
        commandPath: [String], occurrences: [(name: String, value: String?)] = [], positionals: [String] = []
    ) {
        self.commandPath = commandPath
        self.occurrences = occurrences
        self.positionals = positionals
    }

    package func flag(_ name: String) -> Bool { occurrences.contains { $0.name == name } }
    /// The last value given for an option.
    package func value(_ name: String) -> String? { occurrences.last { $0.name == name }?.value }
    package func values(_ name: String) -> [String] { occurrences.filter { $0.name == name }.compactMap(\.value) }

    /// An integer option, with a usage error naming the option when it is not a number in range.
    package func int(_ name: String, default def: Int, range: ClosedRange<Int> = 0...Int.max) throws -> Int {
        guard let s = value(name) else { return def }
        guard let v = Int(s), range.contains(v) else {
            throw CLIError.usage(
                "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(s)'")
        }
        return v
    }
}

/// Errors that end a command: usage errors exit 64 and print the usage line, failures exit 1.
package enum CLIError: Error {
    case usage(String)
    case failure(String)
}
