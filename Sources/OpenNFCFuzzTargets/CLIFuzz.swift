internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCCLIKit

/// The command line (`opennfc`): the option parser over arbitrary argv against an arbitrary command's option table,
/// the whole dispatch (`CLI.main`: subcommands, `help`, `--help`, `--version`, usage errors), integer options and
/// hex arguments.
///
/// The input is a table, then argv: byte 0 picks up to 7 options (from the names the commands use), each described
/// by one byte (takes a value, repeatable, has a short letter); byte 1 the positional arguments (required,
/// optional, variadic); byte 2 chooses the integer range checked; the rest, split at NUL bytes, is argv (UTF-8 with
/// repairs, as the process receives it).
///
/// Invariants: a parse either fails with a usage error (never another kind) that quotes what it is about (an
/// argument as given, an option as `--name`, or a positional as `<name>`), or gives occurrences of options in the
/// table only, flags without values and valued options with one, a non-repeatable valued option at most once, a
/// positional count the table allows; printing the result back as canonical argv (`--name=value`, `--name`, `--`,
/// positionals) parses to the same result; parsing is deterministic. `CLI.main` exits 0 (help or version on stdout,
/// nothing on stderr, or the command ran), 1 (the command failed: one `Error:` line) or 64 (`Error:` then a `Usage:`
/// line, nothing on stdout). An integer option is in its range or refused naming the option and the text. A hex
/// argument decodes to bytes that re-print (upper, lower, spaced) to the same bytes, two digits a byte, or is refused
/// naming the argument, the text, and the character (by position, inside the text, and as it is there).
enum CLIFuzz {
    static let target = FuzzTarget(
        "cli", "option parsing and dispatch over arbitrary argv and option tables; hex arguments", seeds: seeds,
        run: run)

    /// Option names the commands use (long and short forms alike), so tables look like theirs.
    static let names = ["output", "device", "json", "uid", "force", "record", "hex", "chip", "app", "key", "data"]
    static let shorts: [Character] = ["o", "d", "j", "u", "f", "r", "x", "c", "a", "k", "h"]
    static let ranges: [ClosedRange<Int>] = [0...Int.max, 0...255, 1...16, -5...5, 0...0]

    struct Table {
        var command: Command
        var range: ClosedRange<Int>
    }

    static func table(_ input: inout FuzzInput) -> Table {
        let shape = input.byte()
        var options: [Command.Option] = []
        for k in 0..<Int(shape & 0x07) {
            let d = input.byte()
            let i = (k + Int(d >> 4)) % names.count
            guard !options.contains(where: { $0.name == names[i] }) else { continue }
            let short: Character? = d & 0x04 != 0 ? shorts[i] : nil
            if let short, options.contains(where: { $0.short == short }) { continue }
            options.append(
                Command.Option(
                    name: names[i], short: short, value: d & 0x01 != 0 ? "<\(names[i])>" : nil,
                    help: "The \(names[i]).", repeatable: d & 0x02 != 0))
        }
        let a = input.byte()
        var arguments: [Command.Argument] = []
        for r in 0..<Int(a & 0x03) { arguments.append(.init(name: "arg\(r + 1)", help: "Required.")) }
        if a & 0x04 != 0 { arguments.append(.init(name: "extra", help: "Optional.", optional: true)) }
        if a & 0x08 != 0 { arguments.append(.init(name: "more", help: "Variadic.", optional: true, variadic: true)) }
        let range = ranges[Int(input.byte()) % ranges.count]
        let command = Command(
            name: "cmd", abstract: "A command with the table of the input.", arguments: arguments, options: options,
            run: { inv in
                if inv.positionals.first == "fail" { throw CLIError.failure("the command failed") }
                return 0
            })
        return Table(command: command, range: range)
    }

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let t = table(&input)
        let argv = input.rest().split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        parse(argv, t)
        dispatch(argv, t.command)
        for a in argv.prefix(8) { hex(a) }
    }

    static func parse(_ argv: [String], _ t: Table) {
        let command = t.command
        let inv: Invocation
        do {
            inv = try CLI.parse(argv, for: command, path: ["opennfc", "cmd"])
        } catch {
            guard case CLIError.usage(let message) = error else {
                fuzzRequire(false, "a parse error that is not a usage error: \(error)")
                return
            }
            let quoted =
                argv.map { "'\($0)'" } + command.options.map { "'--\($0.name)'" }
                + command.arguments.map { "'<\($0.name)>'" }
            fuzzRequire(quoted.contains { message.contains($0) }, "a usage error that names nothing: \(message)")
            fuzzRequire((try? CLI.parse(argv, for: command, path: ["opennfc", "cmd"])) == nil, "parse is not stable")
            return
        }
        for o in inv.occurrences {
            guard let option = command.options.first(where: { $0.name == o.name }) else {
                fuzzRequire(false, "occurrence of '\(o.name)', not in the table")
                return
            }
            fuzzRequire((option.value == nil) == (o.value == nil), "--\(o.name): value \(String(describing: o.value))")
            // A flag given twice is the flag given once (decided: docs/RELIABILITY.md, "Findings"); a valued option
            // that is not repeatable comes once.
            if !option.repeatable && option.value != nil {
                fuzzRequire(inv.occurrences.count(where: { $0.name == o.name }) == 1, "--\(o.name) twice")
            }
        }
        let required = command.arguments.filter { !$0.optional && !$0.variadic }.count
        fuzzRequire(inv.positionals.count >= required, "\(inv.positionals.count) positionals, \(required) required")
        if !command.arguments.contains(where: \.variadic) {
            fuzzRequire(inv.positionals.count <= command.arguments.count, "too many positionals accepted")
        }
        // Canonical argv: every option as --name[=value], then `--` and the positionals.
        var canonical = inv.occurrences.map { o in o.value.map { "--\(o.name)=\($0)" } ?? "--\(o.name)" }
        canonical += ["--"] + inv.positionals
        do {
            let back = try CLI.parse(canonical, for: command, path: ["opennfc", "cmd"])
            fuzzRequire(same(back, inv), "canonical argv \(canonical) parses differently")
        } catch {
            fuzzRequire(false, "canonical argv \(canonical) is refused: \(error)")
        }
        if let again = try? CLI.parse(argv, for: command, path: ["opennfc", "cmd"]) {
            fuzzRequire(same(again, inv), "parse is not deterministic")
        } else {
            fuzzRequire(false, "parse is not deterministic")
        }
        integers(inv, command, t.range)
    }

    static func same(_ a: Invocation, _ b: Invocation) -> Bool {
        a.positionals == b.positionals && a.occurrences.count == b.occurrences.count
            && zip(a.occurrences, b.occurrences).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    static func integers(_ inv: Invocation, _ command: Command, _ range: ClosedRange<Int>) {
        for option in command.options where option.value != nil {
            do {
                let v = try inv.int(option.name, default: range.lowerBound, range: range)
                fuzzRequire(range.contains(v), "--\(option.name) gave \(v), outside \(range)")
                if let text = inv.value(option.name) {
                    fuzzRequire(Int(text) == v, "--\(option.name) '\(text)' → \(v)")
                }
            } catch {
                guard case CLIError.usage(let message) = error, let text = inv.value(option.name) else {
                    fuzzRequire(false, "--\(option.name): \(error)")
                    return
                }
                fuzzRequire(
                    message.hasPrefix("--\(option.name) ") && message.hasSuffix("'\(text)'"),
                    "an integer error that does not name the option and the text: \(message)")
            }
        }
    }

    /// A buffer for `CLI.main`'s output.
    struct Capture: TextOutput {
        var out = ""
        var err = ""
        mutating func out(_ s: String) { out += s }
        mutating func err(_ s: String) { err += s }
    }

    static func dispatch(_ argv: [String], _ command: Command) {
        var inner = command
        inner.name = "sub"
        let root = Command(
            name: "opennfc", abstract: "The tool.",
            subcommands: [command, Command(name: "group", abstract: "A group.", subcommands: [inner])])
        var io = Capture()
        let status = CLI.main(root: root, arguments: argv, io: &io)
        switch status {
        case 0:
            fuzzRequire(io.err.isEmpty, "exit 0 with stderr: \(io.err.prefix(80))")
        case 1:
            fuzzRequire(io.out.isEmpty && io.err.hasPrefix("Error: ") && io.err.hasSuffix("\n"), "exit 1: \(io.err)")
            fuzzRequire(io.err.count(where: { $0 == "\n" }) == 1, "exit 1 with more than one line: \(io.err)")
        case 64:
            fuzzRequire(io.out.isEmpty, "a usage error with stdout: \(io.out.prefix(80))")
            fuzzRequire(io.err.hasPrefix("Error: ") && io.err.contains("\nUsage: opennfc"), "exit 64: \(io.err)")
        default:
            fuzzRequire(false, "exit status \(status)")
        }
    }

    static func hex(_ text: String) {
        let argument = "--data"
        let bytes: [UInt8]
        do {
            bytes = try HexArgument.decode(text, argument: argument)
        } catch {
            guard case .usage(let message) = error else {
                fuzzRequire(false, "a hex argument error that is not a usage error")
                return
            }
            let prefix = "\(argument) '\(text)' is not hex: "
            fuzzRequire(message.hasPrefix(prefix), "a hex error that does not name the argument: \(message)")
            guard let at = message.range(of: " at character ", options: .backwards),
                let position = Int(message[at.upperBound...])
            else {
                fuzzRequire(false, "a hex error without a character position: \(message)")
                return
            }
            let scalars = Array(text.unicodeScalars)
            fuzzRequire(position >= 0 && position < max(1, scalars.count), "position \(position) of \(scalars.count)")
            if message.contains("invalid hex character"), position < scalars.count {
                let c = scalars[position]
                let digits = String(c.value, radix: 16, uppercase: true)
                let code = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
                let named =
                    message.contains("'\(Character(c))' at character") || message.contains("\(code) at character")
                fuzzRequire(named, "the hex error names another character than U+\(c.value): \(message)")
            }
            return
        }
        let digits = text.unicodeScalars.count(where: \.properties.isASCIIHexDigit)
        fuzzRequire(digits == 2 * bytes.count, "\(digits) hex digits gave \(bytes.count) bytes")
        for printed in [Hex.encode(bytes), Hex.encode(bytes, uppercase: false, separator: " "), bytes.hexString] {
            fuzzRequire((try? HexArgument.decode(printed, argument: argument)) == bytes, "hex re-print changes bytes")
        }
    }

    static func seeds() -> [[UInt8]] {
        func seed(_ table: [UInt8], _ argv: [String]) -> [UInt8] {
            table + Array(argv.joined(separator: "\u{0}").utf8)
        }
        // Shapes of the real tables: `tag new` (valued, repeatable and short options, one argument), `send`
        // (flags and a variadic argument), `ndef encode` (repeatable records in order), a group with `help`.
        return [
            seed([0x05, 0x01, 0x00, 0x15, 0x25, 0x13, 0x04, 0x31], ["cmd", "--chip", "ntag213", "-o", "t.json", "x"]),
            seed([0x03, 0x08, 0x01, 0x01, 0x40, 0x32], ["cmd", "--json", "3004", "A2050102", "--", "-1"]),
            seed([0x02, 0x00, 0x02, 0x33, 0x23], ["cmd", "--record=text:hi", "--record", "uri:x", "--hex=04:A1 b2"]),
            seed([0x01, 0x05, 0x03, 0x01], ["group", "sub", "a", "b", "c", "--output", "7"]),
            seed([0x01, 0x00, 0x00, 0x00], ["help", "group", "sub"]),
            seed([0x00, 0x00, 0x00], ["--version"]),
            seed([0x02, 0x01, 0x00, 0x05, 0x11], ["cmd", "-o", "-", "-h"]),
            seed([0x01, 0x01, 0x01, 0x01], ["cmd", "fail", "--output=300"]),
            seed([0x01, 0x01, 0x00, 0x01], ["cmd", "0G", "--outputx", "é", "04 A1:B2\tc3", "0\u{301}", "0 1"]),
        ]
    }
}
