internal import OpenNFCBytes

/// Parses arguments against a ``Command`` tree and runs the selected command.
package enum CLI {
    package static let version = "0.1.0"

    /// Runs the tree with the given arguments (without the program name) and returns the exit status.
    package static func main(root: Command, arguments: [String], io: inout some TextOutput) -> Int32 {
        var path = [root.name]
        var command = root
        var rest = arguments[...]

        // Descend through subcommands; `help <sub…>` and `--version` are handled on the way.
        while let first = rest.first {
            if first == "--version" && path.count == 1 {
                io.out("\(version)\n")
                return 0
            }
            if first == "help" && !command.subcommands.isEmpty {
                var target = command
                var targetPath = path
                for word in rest.dropFirst() {
                    guard let sub = target.subcommands.first(where: { $0.name == word }) else {
                        let hint = Suggestion.hint(for: word, among: target.subcommands.map(\.name))
                        io.err("Error: unknown command '\(word)'\(hint)\n")
                        io.err(usageLine(target, path: targetPath))
                        return 64
                    }
                    target = sub
                    targetPath.append(word)
                }
                io.out(help(target, path: targetPath))
                return 0
            }
            guard let sub = command.subcommands.first(where: { $0.name == first }) else { break }
            command = sub
            path.append(first)
            rest = rest.dropFirst()
        }

        if rest.contains(where: { $0 == "-h" || $0 == "--help" }) && !rest.contains("--") {
            io.out(help(command, path: path))
            return 0
        }
        if rest.contains("--help") || rest.prefix(while: { $0 != "--" }).contains("-h") {
            io.out(help(command, path: path))
            return 0
        }

        guard let run = command.run else {
            if let first = rest.first {
                let hint = Suggestion.hint(for: first, among: command.subcommands.map(\.name))
                io.err("Error: unknown command '\(first)'\(hint)\n")
            } else {
                io.err("Error: missing subcommand\n")
            }
            io.err(usageLine(command, path: path))
            io.err("  See '\(path.joined(separator: " ")) --help' for the subcommands.\n")
            return 64
        }

        do {
            let invocation = try parse(Array(rest), for: command, path: path)
            return try run(invocation)
        } catch CLIError.usage(let message) {
            io.err("Error: \(message)\n")
            io.err(usageLine(command, path: path))
            io.err("  See '\(path.joined(separator: " ")) --help' for more information.\n")
            return 64
        } catch CLIError.failure(let message) {
            io.err("Error: \(message)\n")
            return 1
        } catch {
            io.err("Error: \(error)\n")
            return 1
        }
    }

    package static func parse(_ args: [String], for command: Command, path: [String]) throws -> Invocation {
        var inv = Invocation(commandPath: path)
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") {
                inv.positionals.append(a)
                continue
            }
            if a == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inlineValue: String? = nil
            let option: Command.Option?
            if a.hasPrefix("--") {
                name = String(a.dropFirst(2))
                // At the first "=" scalar: "=" followed by a combining mark is one Character that is not "=".
                let scalars = name.unicodeScalars
                if let eq = scalars.firstIndex(of: "=") {
                    inlineValue = String(scalars[scalars.index(after: eq)...])
                    name = String(scalars[..<eq])
                }
                option = command.options.first { $0.name == name }
            } else {
                let letters = a.dropFirst()
                guard letters.count == 1, let c = letters.first else {
                    throw CLIError.usage("unknown option '\(a)'")
                }
                option = command.options.first { $0.short == c }
                name = option?.name ?? String(c)
            }
            guard let opt = option else { throw CLIError.usage("unknown option '\(a)'") }
            if opt.value == nil {
                if inlineValue != nil { throw CLIError.usage("option '--\(opt.name)' takes no value") }
                inv.occurrences.append((opt.name, nil))
                continue
            }
            let value: String
            if let v = inlineValue {
                value = v
            } else {
                guard i < args.count else { throw CLIError.usage("missing value for '\(a)'") }
                value = args[i]
                i += 1
            }
            if !opt.repeatable, inv.occurrences.contains(where: { $0.name == opt.name }) {
                throw CLIError.usage("option '--\(opt.name)' given more than once")
            }
            inv.occurrences.append((opt.name, value))
        }
        // Check positional counts.
        let required = command.arguments.filter { !$0.optional && !$0.variadic }.count
        let variadic = command.arguments.contains { $0.variadic }
        if inv.positionals.count < required {
            let missing = command.arguments.filter { !$0.optional }[inv.positionals.count]
            throw CLIError.usage("missing expected argument '<\(missing.name)>'")
        }
        if !variadic && inv.positionals.count > command.arguments.count {
            throw CLIError.usage("unexpected argument '\(inv.positionals[command.arguments.count])'")
        }
        return inv
    }

    package static func usageLine(_ c: Command, path: [String]) -> String {
        "Usage: \(synopsis(c, path: path))\n"
    }

    package static func synopsis(_ c: Command, path: [String]) -> String {
        var parts = [path.joined(separator: " ")]
        if c.run == nil && !c.subcommands.isEmpty {
            parts.append("<subcommand>")
        } else {
            if !c.options.isEmpty { parts.append("[<options>]") }
            for a in c.arguments {
                var s = "<\(a.name)>"
                if a.variadic { s += " ..." }
                if a.optional || (a.variadic && c.arguments.count == 1 && a.optional) { s = "[\(s)]" }
                parts.append(s)
            }
        }
        return parts.joined(separator: " ")
    }

    package static func help(_ c: Command, path: [String]) -> String {
        var s = "OVERVIEW: \(c.abstract)\n"
        if !c.discussion.isEmpty { s += "\n\(c.discussion)\n" }
        s += "\nUSAGE: \(synopsis(c, path: path))\n"
        if !c.arguments.isEmpty {
            s += "\nARGUMENTS:\n"
            for a in c.arguments { s += row("<\(a.name)>\(a.variadic ? " ..." : "")", a.help) }
        }
        s += "\nOPTIONS:\n"
        for o in c.options {
            var left = o.short.map { "-\($0), " } ?? ""
            left += "--\(o.name)"
            if let v = o.value { left += " \(v)" }
            s += row(left, o.help + (o.repeatable ? " (repeatable)" : ""))
        }
        if path.count == 1 { s += row("--version", "Show the version.") }
        s += row("-h, --help", "Show help information.")
        if !c.subcommands.isEmpty {
            s += "\nSUBCOMMANDS:\n"
            for sub in c.subcommands { s += row(sub.name, sub.abstract) }
            s += "\n  See '\(path.joined(separator: " ")) help <subcommand>' for detailed help.\n"
        }
        return s
    }

    private static func row(_ left: String, _ right: String) -> String {
        let pad = 26
        if left.count + 2 >= pad { return "  \(left)\n" + String(repeating: " ", count: pad) + right + "\n" }
        return "  " + left + String(repeating: " ", count: pad - 2 - left.count) + right + "\n"
    }
}

/// Where the CLI writes: the process's stdout/stderr, or a buffer in tests.
package protocol TextOutput {
    mutating func out(_ s: String)
    mutating func err(_ s: String)
}
