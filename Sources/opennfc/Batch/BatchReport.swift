import Foundation
import OpenNFCBytes

/// The report of `opennfc batch write`: a CSV file with one line per tag, appended as each tag is done.
///
/// ```
/// item,uid,message,result,detail,ndef
/// 1,04A1B2C3D4E5F6,https://museum.example/1,written,,D1010F55046D757365756D2E6578616D706C652F31
/// 2,04A1B2C3D4E5F7,https://museum.example/2,failed,message of 40 bytes does not fit in 0 bytes,
/// ```
/// Each line is written with one `write(2)` on a descriptor opened with `O_APPEND`, then `fsync`ed
/// (``FileAccess/AppendLog``), so the file is consistent whenever the run stops (Ctrl-C, a pulled cable, a crash):
/// every line in it is complete and true. `ndef` holds the message bytes now on the tag (hex), empty when nothing was
/// written. A report that already holds lines is continued: items whose last line says `written`, `skipped` or
/// `locked` are done and are not programmed again, and a tag whose UID such a line names is not programmed again
/// either (`--rewrite` does). A report of an earlier version (without the `ndef` column) is continued in its form.
final class BatchReport {
    static let header = "item,uid,message,result,detail,ndef"
    /// The header of reports written before the `ndef` column existed; such a report is continued without it.
    static let headerWithoutBytes = "item,uid,message,result,detail"

    enum Result: String, Sendable {
        case written, skipped, failed, locked
        var completesItem: Bool { self != .failed }
    }

    let path: String
    private let log: FileAccess.AppendLog
    private let withBytes: Bool
    /// Item numbers (1-based) a previous run completed.
    private(set) var completed: Set<Int> = []
    /// The UIDs (hex) of tags that hold an item's message, with the item: `written`, `skipped` or `locked` lines.
    private(set) var programmed: [String: Int] = [:]

    /// Opens (creating when missing) the report at `path` and reads what an earlier run completed.
    init(path: String) throws {
        self.path = path
        var existing = ""
        var st = stat()
        if stat(path, &st) == 0 {
            existing = try InputFile.text(path, what: "report")
        }
        do {
            log = try FileAccess.AppendLog(path: path)
        } catch {
            throw CLIError.failure("cannot open the report '\(path)': \(error.reason)")
        }
        if existing.isEmpty {
            withBytes = true
            try append(Self.header)
            return
        }
        let lines = existing.textLines().filter { !$0.isEmpty }
        let first = lines.first.map(String.init)
        guard first == Self.header || first == Self.headerWithoutBytes else {
            throw CLIError.failure(
                "'\(path)' exists but is not a batch report (its first line is not '\(Self.header)')")
        }
        withBytes = first == Self.header
        for (n, line) in lines.dropFirst().enumerated() {
            let fields = CSV.parseLine(String(line))
            guard fields.count >= 4, let item = Int(fields[0]), let r = Result(rawValue: fields[3]) else {
                throw CLIError.failure("report '\(path)' line \(n + 2) is not a report line")
            }
            if r.completesItem {
                completed.insert(item)
                if !fields[1].isEmpty { programmed[fields[1]] = item }
            } else {
                completed.remove(item)
            }
        }
        if !existing.hasSuffix("\n") {
            // A line without its newline cannot come from this writer; end it so the next one starts clean.
            try append("")
        }
    }

    /// Appends one line for a tag, durably. `ndef` is the message now on the tag (nil: nothing written).
    func record(item: Int, uid: String, message: String, result: Result, detail: String = "", ndef: [UInt8]?) throws {
        var fields = [String(item), uid, message, result.rawValue, detail]
        if withBytes { fields.append(ndef?.hexString ?? "") }
        try append(fields.map(CSV.quote).joined(separator: ","))
        if result.completesItem, !uid.isEmpty { programmed[uid] = item }
    }

    private func append(_ line: String) throws {
        do {
            try log.append(Array((line + "\n").utf8))
        } catch {
            throw CLIError.failure("cannot write to the report '\(path)': \(error.reason)")
        }
    }
}
