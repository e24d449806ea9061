import Foundation
import Testing

/// `opennfc batch write`: tag after tag from `sim:a+b+…`, the report, skipping, failures, locking, Ctrl-C and
/// continuing from a report.
@Suite struct BatchTests {
    static func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02X", $0) }.joined() }
    /// The hex of the message of https://m.example/<n>, as the report's `ndef` column holds it.
    static func m(_ n: Int) -> String { hex(TagFixture.uriMessage("m.example/\(n)")) }

    /// Three NTAG213 tags with distinct UIDs (…01, …02, …03) named t1.json… in `ws`.
    static func tags(_ ws: Workspace, count: Int, message: (Int) -> [UInt8]? = { _ in nil }) throws -> String {
        var names: [String] = []
        for i in 1...count {
            let name = "t\(i).json"
            try TagFixture.write(
                TagFixture.json(TagFixture.ntag213, message: message(i), uid: [0x04, 0, 0, 0, 0, 0, UInt8(i)]),
                to: ws.dir, name: name)
            names.append(name)
        }
        return "sim:" + names.joined(separator: "+")
    }

    static func uris(_ ws: Workspace, _ list: [String], lineBreak: String = "\n") throws {
        try (["# exhibits", ""] + list).joined(separator: lineBreak).write(
            to: ws.dir.appendingPathComponent("u.txt"), atomically: true, encoding: .utf8)
    }

    static func report(_ ws: Workspace) throws -> String {
        try String(contentsOf: ws.dir.appendingPathComponent("r.csv"), encoding: .utf8)
    }

    @Test func writesEachTagAndReports() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let device = try Self.tags(ws, count: 3)
        try Self.uris(ws, ["https://m.example/1", "https://m.example/2", "https://m.example/3"])
        let r = try ws.run(["batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", device])
        #expect(r.status == 0)
        #expect(r.stdout == "3 of 3 done: 3 written, 0 skipped, 0 failed; report: r.csv\n")
        let progress = r.stderr.split(separator: "\n").map(String.init)
        #expect(progress.count == 3)
        #expect(progress[0].hasPrefix("[1/3] 04000000000001 written — "))
        #expect(progress[2].hasPrefix("[3/3] 04000000000003 written — "))
        #expect(progress.allSatisfy { $0.hasSuffix(" tags/min") })
        #expect(
            try Self.report(ws) == """
                item,uid,message,result,detail,ndef
                1,04000000000001,https://m.example/1,written,,\(Self.m(1))
                2,04000000000002,https://m.example/2,written,,\(Self.m(2))
                3,04000000000003,https://m.example/3,written,,\(Self.m(3))

                """)
        for i in 1...3 {
            let read = try ws.run(["read", "--raw", "--device", "sim:t\(i).json"])
            #expect(read.stdout == Self.hex(TagFixture.uriMessage("m.example/\(i)")) + "\n")
        }
    }

    @Test func skipsTagsThatAlreadyHoldTheMessageAndMovesPastFailures() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        // t1 already holds item 1; t2 is locked (read-only CC): it fails and item 2 goes to t3.
        let device = try Self.tags(ws, count: 3) { i in i == 1 ? TagFixture.uriMessage("m.example/1") : nil }
        let t2 = try ws.run(["lock", "--yes", "--device", "sim:t2.json"])
        #expect(t2.status == 0)
        let before = try TagFixture.bytes(ws.path("t1.json"))
        try Self.uris(ws, ["https://m.example/1", "https://m.example/2"])
        let r = try ws.run(["batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", device])
        #expect(r.status == 0)
        #expect(r.stdout == "2 of 2 done: 1 written, 1 skipped, 1 failed; report: r.csv\n")
        #expect(
            try Self.report(ws) == """
                item,uid,message,result,detail,ndef
                1,04000000000001,https://m.example/1,skipped,already holds the message,\(Self.m(1))
                2,04000000000002,https://m.example/2,failed,"the tag (ntag213, UID 04000000000002) is read-only: it cannot be written",
                2,04000000000003,https://m.example/2,written,,\(Self.m(2))

                """)
        // The skipped tag was not written to: its file is untouched.
        #expect(try TagFixture.bytes(ws.path("t1.json")) == before)
    }

    @Test func lockLocksEveryTag() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let device = try Self.tags(ws, count: 2)
        try Self.uris(ws, ["https://m.example/1", "https://m.example/2"])
        let r = try ws.run(["batch", "write", "--uris", "u.txt", "--lock", "--report", "r.csv", "--device", device])
        #expect(r.status == 0)
        #expect(r.stdout == "2 of 2 done: 0 written, 0 skipped, 0 failed, 2 locked; report: r.csv\n")
        // Again with --json: both tags hold their message and are locked already, so both are skipped.
        let j = try ws.run([
            "batch", "write", "--uris", "u.txt", "--lock", "--json", "--device", "sim:t1.json+t2.json",
        ])
        #expect(j.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: j.stdoutBytes) as? [String: Any])
        #expect(o["done"] as? Int == 2)
        #expect(o["skipped"] as? Int == 2)
        #expect(o["interrupted"] as? Bool == false)
        #expect(try Self.report(ws).contains("2,04000000000002,https://m.example/2,locked,,\(Self.m(2))\n"))
        let read = try ws.run(["read", "--device", "sim:t2.json"])
        #expect(read.stdout.contains("NDEF:     read-only, "))
    }

    @Test func csvRowsBuildMessagesFromRecordOptions() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let device = try Self.tags(ws, count: 2)
        try """
        uri,text,lang
        https://b.example/ann,"Ann, Badge 1",en
        https://b.example/bob,"Bob,\u{0301} 2",de

        """.write(to: ws.dir.appendingPathComponent("b.csv"), atomically: true, encoding: .utf8)
        let r = try ws.run(["batch", "write", "--csv", "b.csv", "--report", "r.csv", "--device", device])
        #expect(r.status == 0)
        #expect(
            try Self.report(ws).contains(
                "1,04000000000001,\"uri=https://b.example/ann; text=Ann, Badge 1; lang=en\",written,,"))
        // A comma followed by a combining mark is one Character but still a comma to every CSV reader: quoted.
        #expect(
            try Self.report(ws).contains(
                "2,04000000000002,\"uri=https://b.example/bob; text=Bob,\u{0301} 2; lang=de\",written,,"))
        let read = try ws.run(["read", "--json", "--device", "sim:t1.json"])
        let o = try #require(try JSONSerialization.jsonObject(with: read.stdoutBytes) as? [String: Any])
        let records = try #require((o["ndef"] as? [String: Any])?["records"] as? [[String: Any]])
        #expect(records.count == 2)
        #expect(records[0]["uri"] as? String == "https://b.example/ann")
        #expect((records[1]["text"] as? [String: Any])?["text"] as? String == "Ann, Badge 1")
    }

    @Test func interruptedRunLeavesAConsistentReportAndContinues() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let device = try Self.tags(ws, count: 3)
        try Self.uris(ws, ["https://m.example/1", "https://m.example/2", "https://m.example/3"])
        // The test hook raises a real SIGINT (as Ctrl-C does) after the first tag.
        let r = try ws.run(
            ["batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", device],
            environment: ["OPENNFC_TEST_INTERRUPT_AFTER": "1"])
        #expect(r.status == 130)
        #expect(r.stdout == "1 of 3 done: 1 written, 0 skipped, 0 failed; report: r.csv\n")
        #expect(
            r.stderr.hasSuffix(
                "Interrupted: 1 of 3 done; the report 'r.csv' is complete, and running the same command again "
                    + "continues.\n"))
        #expect(
            try Self.report(ws) == """
                item,uid,message,result,detail,ndef
                1,04000000000001,https://m.example/1,written,,\(Self.m(1))

                """)
        // Run again with the remaining tags: items 2 and 3 go to t2 and t3.
        let again = try ws.run([
            "batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", "sim:t2.json+t3.json",
        ])
        #expect(again.status == 0)
        #expect(again.stderr.hasPrefix("Continuing: 1 of 3 already done according to the report.\n"))
        #expect(again.stdout == "3 of 3 done: 2 written, 0 skipped, 0 failed; report: r.csv\n")
        #expect(
            try Self.report(ws).hasSuffix(
                "2,04000000000002,https://m.example/2,written,,\(Self.m(2))\n"
                    + "3,04000000000003,https://m.example/3,written,,\(Self.m(3))\n"))
    }

    @Test func windowsLineBreaksInTheListAndTheReport() throws {
        // A URI list and a report saved by a Windows editor (CRLF): the list gives its items, and the run continues
        // from the report as from one with LF line breaks.
        let ws = try Workspace()
        defer { ws.cleanup() }
        _ = try Self.tags(ws, count: 3)
        try Self.uris(ws, ["https://m.example/1", "https://m.example/2", "https://m.example/3"], lineBreak: "\r\n")
        try "item,uid,message,result,detail\r\n1,04000000000001,https://m.example/1,written,\r\n".write(
            to: ws.dir.appendingPathComponent("r.csv"), atomically: true, encoding: .utf8)
        let r = try ws.run([
            "batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", "sim:t2.json+t3.json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("Continuing: 1 of 3 already done according to the report.\n"))
        #expect(r.stdout == "3 of 3 done: 2 written, 0 skipped, 0 failed; report: r.csv\n")
        let read = try ws.run(["read", "--raw", "--device", "sim:t3.json"])
        #expect(read.stdout == Self.hex(TagFixture.uriMessage("m.example/3")) + "\n")
    }

    @Test func badInputIsRefusedBeforeAnyTag() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let device = try Self.tags(ws, count: 1)
        let before = try TagFixture.bytes(ws.path("t1.json"))
        let none = try ws.run(["batch", "write", "--device", device])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("Error: give the messages with --uris <file> or --csv <file>\n"))
        try "uri,colour\nhttps://a.example,red\n".write(
            to: ws.dir.appendingPathComponent("c.csv"), atomically: true, encoding: .utf8)
        let col = try ws.run(["batch", "write", "--csv", "c.csv", "--device", device])
        #expect(col.status == 1)
        #expect(col.stderr.hasPrefix("Error: c.csv:1: unknown column 'colour'; columns are record options"))
        try "uri\n\"https://a.example\n".write(
            to: ws.dir.appendingPathComponent("q.csv"), atomically: true, encoding: .utf8)
        let quote = try ws.run(["batch", "write", "--csv", "q.csv", "--device", device])
        #expect(quote.status == 1)
        #expect(quote.stderr == "Error: q.csv:2: a quoted field is not closed\n")
        try "not a report\n".write(to: ws.dir.appendingPathComponent("r.csv"), atomically: true, encoding: .utf8)
        try Self.uris(ws, ["https://m.example/1"])
        let rep = try ws.run(["batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", device])
        #expect(rep.status == 1)
        #expect(rep.stderr.hasPrefix("Error: 'r.csv' exists but is not a batch report"))
        #expect(try TagFixture.bytes(ws.path("t1.json")) == before)
    }

    /// The run continues from a report and the first tag presented is one it already wrote: passed over with its
    /// UID named, its message untouched; item 2 goes to the next tag. `--rewrite` gives the old behaviour.
    @Test func resumePassesOverTagsTheReportListsAsWritten() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        _ = try Self.tags(ws, count: 3)
        try Self.uris(ws, ["https://m.example/1", "https://m.example/2", "https://m.example/3"])
        let first = try ws.run(["batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", "sim:t1.json"])
        #expect(first.status == 1)
        let t1 = try TagFixture.bytes(ws.path("t1.json"))
        let again = try ws.run([
            "batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", "sim:t1.json+t2.json+t3.json",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stderr.contains(
                "[1/3] 04000000000001 passed over: it already holds item 1 according to the report 'r.csv'; not "
                    + "programmed again (--rewrite does)\n"))
        #expect(
            again.stdout == "3 of 3 done: 2 written, 0 skipped, 0 failed, 1 already programmed and passed over; "
                + "report: r.csv\n")
        #expect(try TagFixture.bytes(ws.path("t1.json")) == t1)
        #expect(try ws.run(["read", "--raw", "--device", "sim:t2.json"]).stdout == Self.m(2) + "\n")
        #expect(try ws.run(["read", "--raw", "--device", "sim:t3.json"]).stdout == Self.m(3) + "\n")
        // Within one run too: the same tag twice never gets two items.
        _ = try Self.tags(ws, count: 2)
        let twice = try ws.run(["batch", "write", "--uris", "u.txt", "--device", "sim:t1.json+t1.json+t2.json"])
        #expect(twice.stderr.contains("04000000000001 passed over: it already holds item 1; not programmed again"))
        #expect(try ws.run(["read", "--raw", "--device", "sim:t1.json"]).stdout == Self.m(1) + "\n")
        // --rewrite: the listed tag takes the next item, as before.
        let re = try ws.run([
            "batch", "write", "--uris", "u.txt", "--report", "r2.csv", "--rewrite", "--device", "sim:t1.json+t1.json",
        ])
        #expect(!re.stderr.contains("passed over"))
        #expect(try ws.run(["read", "--raw", "--device", "sim:t1.json"]).stdout == Self.m(2) + "\n")
    }

    /// A report written before the `ndef` column existed is continued in its form, and its UIDs count.
    @Test func aReportOfTheEarlierFormIsContinued() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        _ = try Self.tags(ws, count: 2)
        try Self.uris(ws, ["https://m.example/1", "https://m.example/2"])
        try "item,uid,message,result,detail\n1,04000000000001,https://m.example/1,written,\n".write(
            to: ws.dir.appendingPathComponent("r.csv"), atomically: true, encoding: .utf8)
        let r = try ws.run([
            "batch", "write", "--uris", "u.txt", "--report", "r.csv", "--device", "sim:t1.json+t2.json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("04000000000001 passed over"))
        #expect(
            try Self.report(ws)
                == "item,uid,message,result,detail\n1,04000000000001,https://m.example/1,written,\n"
                + "2,04000000000002,https://m.example/2,written,\n")
    }

    /// URIs are checked before any tag: no scheme, empty, raw spaces and control characters, with line and offset.
    @Test func invalidURIsAreRefusedWithLineAndOffset() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let device = try Self.tags(ws, count: 1)
        let before = try TagFixture.bytes(ws.path("t1.json"))
        let cases: [(String, String)] = [
            ("not a uri", "not an absolute URI: it does not start with a scheme and ':' (such as https: or tel:)"),
            (
                "https://a.example/x y",
                "a space (U+0020) at offset 19 is not allowed in a URI; write it percent-encoded (%20)"
            ),
            (
                "https://a.example/\u{7}",
                "a control character (U+0007) at offset 18 is not allowed in a URI; write it percent-encoded (%07)"
            ),
            ("https://a.example/100%", "'%' at offset 21 is not followed by two hex digits; write a literal % as %25"),
        ]
        for (uri, why) in cases {
            try Self.uris(ws, ["https://m.example/1", uri])
            let r = try ws.run(["batch", "write", "--uris", "u.txt", "--device", device])
            #expect(r.status == 1, "\(uri)")
            #expect(r.stderr == "Error: u.txt:4: --uri '\(uri)': \(why)\n", "\(uri)")
        }
        #expect(try TagFixture.bytes(ws.path("t1.json")) == before)
    }

    /// `--uri` on its own: an empty URI is refused; an IRI is written as the prefix code and its UTF-8 bytes.
    @Test func encodeChecksTheURIAndWritesIRIsAsUTF8() throws {
        let empty = try CLIRunner.run(["ndef", "encode", "--uri", ""])
        #expect(empty.status == 64)
        #expect(
            empty.stderr.hasPrefix("Error: --uri '': an empty URI; give an absolute URI such as https://example.com\n"))
        let poster = try CLIRunner.run(["ndef", "encode", "--smart-poster", "example.com"])
        #expect(poster.status == 64)
        #expect(poster.stderr.hasPrefix("Error: --smart-poster 'example.com': not an absolute URI"))
        let iri = try CLIRunner.run(["ndef", "encode", "--uri", "https://bücher.example/ä"])
        #expect(iri.status == 0, "\(iri.stderr)")
        let rest = Array("bücher.example/ä".utf8)
        #expect(iri.stdout == Self.hex([0xD1, 0x01, UInt8(rest.count + 1), 0x55, 0x04] + rest) + "\n")
    }
}
