internal import OpenNFCBytes

/// A terminal's script: one command APDU per line, optionally with the answer it expects, in the project's one
/// transcript grammar (`<command hex> -> <answer hex>  # comment`; `#` lines and blank lines are skipped). Played by
/// the testing product's `VirtualTerminal` and by `opennfc terminal --script`.
package struct TerminalScript: Sendable, Hashable {
    package struct Step: Sendable, Hashable {
        package var command: [UInt8]
        /// The expected answer (data and status word); nil: any answer.
        package var expected: [UInt8]?
        package var comment: String
        /// The line in the script, from 1 (0: not from a script).
        package var line: Int

        package init(command: [UInt8], expected: [UInt8]?, comment: String, line: Int) {
            self.command = command
            self.expected = expected
            self.comment = comment
            self.line = line
        }
    }

    package var steps: [Step]

    /// Parses a script; errors name the line and what is wrong.
    package init(parsing text: String, source: String = "script") throws(TerminalScriptError) {
        steps = []
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            var comment = ""
            if let hash = line.firstIndex(of: "#") {
                comment = line[line.index(after: hash)...].trimmingCharacters(in: " \t\r")
                line = line[..<hash]
            }
            let parts = line.components(separatedBy: "->")
            let command = parts[0].filter { !" \t\r".contains($0) }
            if command.isEmpty && parts.count == 1 { continue }
            guard parts.count <= 2 else {
                throw TerminalScriptError("\(source):\(k + 1): more than one '->'")
            }
            guard let c = try? Hex.decode(command), !c.isEmpty else {
                throw TerminalScriptError("\(source):\(k + 1): the command '\(command)' is not hex bytes")
            }
            guard c.count >= 4 else {
                throw TerminalScriptError("\(source):\(k + 1): a command APDU has at least 4 bytes (CLA INS P1 P2)")
            }
            var expected: [UInt8]?
            if parts.count == 2 {
                let e = parts[1].filter { !" \t\r".contains($0) }
                guard let b = try? Hex.decode(e), b.count >= 2 else {
                    throw TerminalScriptError(
                        "\(source):\(k + 1): the expected answer '\(e)' is not hex bytes ending in a status word")
                }
                expected = b
            }
            steps.append(Step(command: c, expected: expected, comment: comment, line: k + 1))
        }
    }
}

/// A script that cannot be played, with the line and the reason.
package struct TerminalScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String { Substring(self).trimmingCharacters(in: set) }
}
