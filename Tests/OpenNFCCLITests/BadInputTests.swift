import Foundation
import Testing

/// The bad-input corpus (docs/RELIABILITY.md, "Bad input"): every line of `BadInput/cases.txt` is one malformed
/// invocation of the built `opennfc`, run in a fresh copy of `BadInput/files/`. Each must end with exit status 1 or
/// 64 (as the line says) and exactly one `Error:` line on stderr that contains the line's expected words (what is
/// wrong and where: file, line, field, byte offset, page, block); nothing on stdout; no stack trace; no file created,
/// changed or removed in the directory (no partial output, no temporary file left); and it must end within the
/// bound below instead of hanging.
///
/// Line grammar: `<status> | <arguments> | <expected words>`; arguments split on spaces, `'…'` quotes (`''` is an
/// empty argument), `<name` feeds the file `name` on stdin.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var line: Int
        var status: Int32
        var arguments: [String]
        var stdin: String?
        var expected: String
        var testDescription: String { "cases.txt:\(line): \(arguments.joined(separator: " "))" }
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "BadInput")

    /// A generous bound for one run on a loaded machine; a hang is killed here and fails the case.
    static let bound: Duration = .seconds(60)

    static let cases: [Case] = {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("cases.txt"), encoding: .utf8)
        else { return [] }
        var result: [Case] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.components(separatedBy: " | ")
            guard parts.count == 3, let status = Int32(parts[0].trimmingCharacters(in: .whitespaces)) else {
                result.append(Case(line: n + 1, status: -1, arguments: [line], expected: "malformed case line"))
                continue
            }
            var arguments = split(parts[1])
            var stdin: String? = nil
            if let last = arguments.last, last.hasPrefix("<") {
                stdin = String(last.dropFirst())
                arguments.removeLast()
            }
            result.append(
                Case(line: n + 1, status: status, arguments: arguments, stdin: stdin, expected: parts[2]))
        }
        return result
    }()

    /// Splits on spaces; `'…'` quotes a part (spaces kept, `''` is an empty argument).
    static func split(_ s: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for c in s {
            if c == "'" {
                quoted.toggle()
                started = true
            } else if c == " " && !quoted {
                if started { parts.append(current) }
                current = ""
                started = false
            } else {
                current.append(c)
                started = true
            }
        }
        if started { parts.append(current) }
        return parts
    }

    @Test func theCorpusHoldsAtLeastTwoHundredCases() {
        #expect(Self.cases.count >= 200)
        #expect(!Self.cases.contains { $0.status == -1 }, "a line of cases.txt does not follow the grammar")
    }

    @Test(arguments: cases) func badInputGivesOneClearError(_ c: Case) throws {
        #expect(c.status == 1 || c.status == 64, "cases.txt:\(c.line): the expected status must be 1 or 64")
        let work = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let files = Self.directory.appendingPathComponent("files")
        for name in try FileManager.default.contentsOfDirectory(atPath: files.path) {
            try FileManager.default.copyItem(
                at: files.appendingPathComponent(name), to: work.appendingPathComponent(name))
        }
        let before = try Self.snapshot(work)
        let stdin = try c.stdin.map { try Data(contentsOf: work.appendingPathComponent($0)) } ?? Data()

        let start = ContinuousClock.now
        let r = try CLIRunner.run(
            c.arguments, stdin: stdin, currentDirectory: work, timeout: Double(Self.bound.components.seconds))
        let elapsed = ContinuousClock.now - start

        let context = "cases.txt:\(c.line) \(c.arguments) → status \(r.status)\nstderr: \(r.stderr)"
        #expect(elapsed < Self.bound, "\(context)\nno answer within \(Self.bound)")
        #expect(r.status == c.status, "\(context)")
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let errors = lines.filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1, "\(context)\nexactly one 'Error:' line")
        #expect(lines.first?.hasPrefix("Error: ") == true, "\(context)\nthe first line is the error")
        if c.status == 1 {
            #expect(lines.count == 1, "\(context)\na failure is one line")
        } else {
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("Usage: ") || $0.hasPrefix("  See '") }, "\(context)")
        }
        #expect(errors.first?.contains(c.expected) == true, "\(context)\nthe error names '\(c.expected)'")
        for trap in [
            "Fatal error", "Stack dump", "Current stack trace", "💣", "crashed", "SIGSEGV", "SIGILL", "SIGTRAP",
        ] {
            #expect(!r.stderr.contains(trap), "\(context)\na trap or stack trace")
        }
        #expect(r.stdout.isEmpty, "\(context)\nstdout: \(r.stdout)")
        #expect(try Self.snapshot(work) == before, "\(context)\na file was created, changed or removed")
    }

    /// Every file in the directory (hidden ones included, recursively) with its bytes.
    static func snapshot(_ dir: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        guard let e = FileManager.default.enumerator(atPath: dir.path) else { return result }
        while let name = e.nextObject() as? String {
            let url = dir.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            result[name] = isDirectory.boolValue ? Data("<dir>".utf8) : try Data(contentsOf: url)
        }
        return result
    }
}
