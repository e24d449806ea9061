import Foundation
import OpenNFCBytes
import OpenNFCNDEF
import OpenNFCRF
import OpenNFCTags

extension Commands {
    static let batch = Command(
        name: "batch",
        abstract: "Program many tags, one after another.",
        subcommands: [batchWrite]
    )

    static let batchWrite = Command(
        name: "write",
        abstract: "Write one message per tag from a list of URIs or a CSV file, with a report.",
        discussion: """
            Waits for each tag, writes the next message, reads it back, optionally locks the tag, and appends a
            line to the report (item, UID, message, result: written, skipped, failed or locked). A tag that
            already holds its message is skipped (and locked with --lock if it is not yet). A tag that fails is
            reported and the same message goes to the next tag. Progress (n of N, rate) goes to stderr.

            --uris: one URI per line; blank lines and lines starting with # are ignored.
            --csv: a header row naming record options of 'opennfc ndef encode' (uri, text, lang, mime, …), then
            one row per tag; each non-empty cell becomes a record, in column order.

            Ctrl-C stops after the tag in hand; the report stays consistent (each line is appended whole and
            synced). Running the same command again with the same report continues where it stopped: items the
            report lists as done are not written again, and a tag whose UID the report lists as written (or one
            this run has written) is passed over with a line naming its UID, never given another item's message.
            --rewrite programs such tags again. The report records each tag's UID and the NDEF bytes written.

            A URI must be absolute (a scheme such as https: or tel:, no raw spaces or control characters); a bad
            one is an error naming its line and the character's offset before any tag is touched.

            Examples:
              opennfc batch write --uris exhibits.txt --report done.csv --device pcsc
              opennfc batch write --csv badges.csv --report done.csv --lock --device sim:a.json+b.json
            """,
        options: TagSession.options + [
            .init(name: "uris", value: "<file>", help: "One URI per line."),
            .init(name: "csv", value: "<file>", help: "A CSV file whose columns are record options."),
            .init(name: "report", value: "<file>", help: "Append one CSV line per tag here (continued if it exists)."),
            .init(name: "lock", help: "Make each tag read-only after writing it (cannot be undone)."),
            .init(name: "rewrite", help: "Program tags the report lists as written again (with the next item)."),
            .init(name: "json", help: "Print the summary as JSON."),
        ],
        run: runBatchWrite
    )

    @Sendable static func runBatchWrite(_ inv: Invocation) throws -> Int32 {
        let items = try BatchItems.load(inv)
        let report = try inv.value("report").map { try BatchReport(path: $0) }
        return try TagSession.run(inv) { session in
            var run = BatchRun(session: session, items: items, report: report, lock: inv.flag("lock"))
            run.json = inv.flag("json")
            run.rewrite = inv.flag("rewrite")
            return try run.go()
        }
    }
}

/// What a batch writes: one encoded message per item, with a label for the report and a line for errors.
struct BatchItem {
    var label: String
    var message: [UInt8]
    var line: Int
}

enum BatchItems {
    static func load(_ inv: Invocation) throws -> [BatchItem] {
        switch (inv.value("uris"), inv.value("csv")) {
        case (nil, nil): throw CLIError.usage("give the messages with --uris <file> or --csv <file>")
        case (.some, .some): throw CLIError.usage("give either --uris or --csv, not both")
        case (let path?, nil): return try uris(path)
        case (nil, let path?): return try csv(path)
        }
    }

    static func text(_ path: String, _ what: String) throws -> String {
        try InputFile.text(path, what: what)
    }

    static func uris(_ path: String) throws -> [BatchItem] {
        var items: [BatchItem] = []
        for (n, raw) in try text(path, "URI list").textLines().enumerated() {
            let uri = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if uri.isEmpty || uri.hasPrefix("#") { continue }
            let message = try build([("uri", uri)], at: "\(path):\(n + 1)")
            items.append(BatchItem(label: uri, message: message, line: n + 1))
        }
        if items.isEmpty { throw CLIError.failure("the URI list '\(path)' holds no URI") }
        return items
    }

    static func csv(_ path: String) throws -> [BatchItem] {
        let rows: [CSV.Row]
        do {
            rows = try CSV.parse(try text(path, "CSV file"))
        } catch let e as CSV.ParseError {
            throw CLIError.failure("\(path):\(e.line): \(e.reason)")
        }
        guard let header = rows.first else { throw CLIError.failure("the CSV file '\(path)' is empty") }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        let known = Set(NDEFRecordFlags.options.map(\.name))
        for c in columns where !known.contains(c) {
            throw CLIError.failure(
                "\(path):\(header.line): unknown column '\(c)'; columns are record options of 'opennfc ndef encode': "
                    + NDEFRecordFlags.options.map(\.name).joined(separator: ", "))
        }
        var items: [BatchItem] = []
        for row in rows.dropFirst() {
            guard row.fields.count == columns.count else {
                throw CLIError.failure(
                    "\(path):\(row.line): \(row.fields.count) fields, but the header has \(columns.count)")
            }
            let pairs = zip(columns, row.fields).filter { !$0.1.isEmpty }.map { ($0.0, $0.1) }
            guard !pairs.isEmpty else { throw CLIError.failure("\(path):\(row.line): the row is empty") }
            let message = try build(pairs, at: "\(path):\(row.line)")
            let label = pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "; ")
            items.append(BatchItem(label: label, message: message, line: row.line))
        }
        if items.isEmpty { throw CLIError.failure("the CSV file '\(path)' has a header but no rows") }
        return items
    }

    /// Builds a message with the record options of `ndef encode`, naming the file and line on error.
    static func build(_ pairs: [(String, String)], at place: String) throws -> [UInt8] {
        var inv = Invocation(commandPath: ["opennfc", "batch", "write"])
        inv.occurrences = pairs.map { ($0.0, Optional($0.1)) }
        do {
            guard NDEFRecordFlags.hasRecords(inv) else { throw CLIError.failure("\(place): no record") }
            return try NDEFRecordFlags.message(from: inv)
        } catch CLIError.usage(let m) {
            throw CLIError.failure("\(place): \(m)")
        } catch CLIError.failure(let m) {
            throw CLIError.failure("\(place): \(m)")
        }
    }
}

/// One run of `batch write`: the loop over tags, the report, progress and Ctrl-C.
struct BatchRun {
    let session: TagSession
    let items: [BatchItem]
    let report: BatchReport?
    let lock: Bool

    var written = 0
    var skipped = 0
    var failed = 0
    var locked = 0
    var tagsSeen = 0
    var json = false
    /// Program a tag again although the report (or this run) lists its UID as done.
    var rewrite = false
    /// Tags passed over because their UID is already programmed.
    var passedOver = 0
    /// UIDs programmed by this run when there is no report to remember them.
    var programmedHere: [String: Int] = [:]

    init(session: TagSession, items: [BatchItem], report: BatchReport?, lock: Bool) {
        self.session = session
        self.items = items
        self.report = report
        self.lock = lock
    }

    mutating func go() throws -> Int32 {
        let pending = items.indices.filter { !(report?.completed.contains($0 + 1) ?? false) }
        let total = items.count
        var done = total - pending.count
        if done > 0 {
            Console.err("Continuing: \(done) of \(total) already done according to the report.\n")
        }
        Interrupt.install()
        let interruptAfter = ProcessInfo.processInfo.environment["OPENNFC_TEST_INTERRUPT_AFTER"].flatMap { Int($0) }
        let start = session.device.clock.now
        var queue = pending[...]
        while let index = queue.first {
            if Interrupt.requested { return interrupted(done: done, total: total) }
            let item = items[index]
            if session.device.waitsForPeople {
                Console.err("Present tag \(done + 1) of \(total) (\(item.label)).\n")
            }
            guard let target = try session.device.waitForTag(timeout: session.timeout) else {
                if Interrupt.requested { return interrupted(done: done, total: total) }
                throw CLIError.failure(
                    session.noTagMessage + " (\(done) of \(total) done"
                        + (report.map { "; the report '\($0.path)' is complete up to here" } ?? "") + ")")
            }
            tagsSeen += 1
            let seenUID = target.identifier.hexString
            if !rewrite, let earlier = report?.programmed[seenUID] ?? programmedHere[seenUID] {
                passedOver += 1
                try session.release()
                Console.err(
                    "[\(done)/\(total)] \(seenUID) passed over: it already holds item \(earlier)"
                        + (report.map { " according to the report '\($0.path)'" } ?? "")
                        + "; not programmed again (--rewrite does)\n")
                if interruptAfter == tagsSeen { Interrupt.raiseNow() }
                if session.device.waitsForPeople, try !awaitRemoval(seenUID, done: done, total: total) {
                    return interrupted(done: done, total: total)
                }
                continue
            }
            let (uid, result, detail) = program(target, item)
            try report?.record(
                item: index + 1, uid: uid, message: item.label, result: result, detail: detail,
                ndef: result.completesItem ? item.message : nil)
            if result.completesItem { programmedHere[uid] = index + 1 }
            try session.release()
            switch result {
            case .written: written += 1
            case .skipped: skipped += 1
            case .failed: failed += 1
            case .locked: locked += 1
            }
            if result.completesItem {
                done += 1
                queue = queue.dropFirst()
            }
            let elapsed = session.device.clock.now.duration(since: start).seconds
            let rate = elapsed > 0 ? String(format: "%.1f tags/min", Double(tagsSeen) * 60 / elapsed) : "–"
            Console.err(
                "[\(done)/\(total)] \(uid) \(result.rawValue)\(detail.isEmpty ? "" : ": \(detail)") — \(rate)\n")
            if interruptAfter == tagsSeen { Interrupt.raiseNow() }
            // Never program the same tag twice with different items: it must leave before the next one counts.
            if session.device.waitsForPeople, !queue.isEmpty, try !awaitRemoval(uid, done: done, total: total) {
                return interrupted(done: done, total: total)
            }
        }
        // Every item is on a tag: the job is done, even if some tags were rejected on the way (the report lists
        // them as failed).
        Console.out(summary(done: done, total: total))
        return 0
    }

    /// Asks for the tag to be taken away and waits for it: false when Ctrl-C came meanwhile, a failure when the tag
    /// stays past the timeout.
    private func awaitRemoval(_ uid: String, done: Int, total: Int) throws -> Bool {
        Console.err("Remove the tag.\n")
        if try session.device.waitForRemoval(timeout: session.timeout) { return true }
        if Interrupt.requested { return false }
        throw CLIError.failure(
            "tag \(uid) is still on the reader after \(session.timeout); remove it and run the same command again "
                + "to continue (\(done) of \(total) done)")
    }

    /// Programs one tag; never throws: every failure is a report line.
    func program(_ target: RFTarget, _ item: BatchItem) -> (String, BatchReport.Result, String) {
        var uid = target.identifier.hexString
        do {
            let tag = try session.identify(try session.activate(target))
            uid = tag.uid
            let procedure = try tag.ndef()
            let detection = try tagStep("detect NDEF") { () throws(TagError) in try procedure.detect() }
            if detection.status != .notSupported, (try? procedure.readMessage()) == item.message {
                if lock && detection.status == .readWrite {
                    try lockTag(tag)
                    return (uid, .locked, "already held the message")
                }
                return (uid, .skipped, "already holds the message")
            }
            _ = try NDEFWriting.write(item.message, to: tag)
            if lock {
                try lockTag(tag)
                return (uid, .locked, "")
            }
            return (uid, .written, "")
        } catch CLIError.failure(let m) {
            return (uid, .failed, m)
        } catch {
            return (uid, .failed, "\(error)")
        }
    }

    private func lockTag(_ tag: ConnectedTag) throws {
        let procedure = try tag.ndef()
        try tagStep("lock the tag") { () throws(TagError) in try procedure.makeReadOnly() }
        let fresh = try tag.ndef()
        let after = try tagStep("check the lock") { () throws(TagError) in try fresh.detect() }
        guard after.status == .readOnly else {
            throw CLIError.failure("the tag does not read as read-only after locking")
        }
    }

    private func summary(done: Int, total: Int, interrupted: Bool = false) -> String {
        if json {
            var o: [(String, JSONValue)] = [("total", .int(total)), ("done", .int(done))]
            o += [("written", .int(written)), ("skipped", .int(skipped)), ("failed", .int(failed))]
            o += [("locked", .int(locked)), ("passedOver", .int(passedOver)), ("tags", .int(tagsSeen))]
            o.append(("interrupted", .bool(interrupted)))
            if let report { o.append(("report", .string(report.path))) }
            return JSONValue.object(o).pretty + "\n"
        }
        var parts = ["\(written) written", "\(skipped) skipped", "\(failed) failed"]
        if lock { parts.append("\(locked) locked") }
        if passedOver > 0 { parts.append("\(passedOver) already programmed and passed over") }
        return "\(done) of \(total) done: " + parts.joined(separator: ", ")
            + (report.map { "; report: \($0.path)" } ?? "") + "\n"
    }

    private func interrupted(done: Int, total: Int) -> Int32 {
        Console.out(summary(done: done, total: total, interrupted: true))
        Console.err(
            "Interrupted: \(done) of \(total) done"
                + (report.map { "; the report '\($0.path)' is complete, and running the same command again continues" }
                    ?? "") + ".\n")
        return 130
    }
}
