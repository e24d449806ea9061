import Foundation

/// The report of `opennfc batch write`: a CSV file with one line per tag, appended as each tag is done.
///
/// ```
/// item,uid,message,result,detail
/// 1,04A1B2C3D4E5F6,https://museum.example/1,written,
/// 2,04A1B2C3D4E5F7,https://museum.example/2,failed,message of 40 bytes does not fit in 0 bytes
/// ```
/// Each line is written with one `write(2)` on a descriptor opened with `O_APPEND`, then `fsync`ed, so the file is
/// consistent whenever the run stops (Ctrl-C, a pulled cable, a crash): every line in it is complete and true.
/// A report that already holds lines is continued: items whose last line says `written`, `skipped` or `locked`
/// are done and are not programmed again.
final class BatchReport {
    static let header = "item,uid,message,result,detail"

    enum Result: String, Sendable {
        case written, skipped, failed, locked
        var completesItem: Bool { self != .failed }
    }

    let path: String
    private let fd: Int32
    /// Item numbers (1-based) a previous run completed.
    private(set) var completed: Set<Int> = []

    /// Opens (creating when missing) the report at `path` and reads what an earlier run completed.
    init(path: String) throws {
        self.path = path
        var existing = ""
        if FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CLIError.failure("cannot read the report '\(path)'")
            }
            existing = String(decoding: data, as: UTF8.self)
        }
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else {
            throw CLIError.failure("cannot open the report '\(path)': \(String(cString: strerror(errno)))")
        }
        if existing.isEmpty {
            try append(Self.header)
        } else {
            let lines = existing.textLines().filter { !$0.isEmpty }
            guard lines.first.map(String.init) == Self.header else {
                close(fd)
                throw CLIError.failure(
                    "'\(path)' exists but is not a batch report (its first line is not '\(Self.header)')")
            }
            for (n, line) in lines.dropFirst().enumerated() {
                let fields = CSV.parseLine(String(line))
                guard fields.count >= 4, let item = Int(fields[0]), let r = Result(rawValue: fields[3]) else {
                    close(fd)
                    throw CLIError.failure("report '\(path)' line \(n + 2) is not a report line")
                }
                if r.completesItem { completed.insert(item) } else { completed.remove(item) }
            }
            if !existing.hasSuffix("\n") {
                // A line without its newline cannot come from this writer; end it so the next one starts clean.
                try append("")
            }
        }
    }

    deinit { close(fd) }

    /// Appends one line for a tag, durably.
    func record(item: Int, uid: String, message: String, result: Result, detail: String = "") throws {
        try append(
            [String(item), uid, message, result.rawValue, detail].map(CSV.quote).joined(separator: ","))
    }

    private func append(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else {
            throw CLIError.failure("cannot write to the report '\(path)': \(String(cString: strerror(errno)))")
        }
        fsync(fd)
    }
}
