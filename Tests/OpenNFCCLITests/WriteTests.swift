import Foundation
import Testing

/// `opennfc write` on simulated tag files.
@Suite struct WriteTests {
    @Test func writesWithRecordFlagsAndReadsBack() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213)
        let w = try ws.run(["write", "--uri", "https://museum.example/12", "--device", "sim:\(file)"])
        #expect(w.status == 0)
        #expect(w.stderr == "")
        #expect(
            w.stdout
                == "Wrote 22 bytes to ntag213 04A1B2C3D4E5F6 (capacity 137 bytes); read back and verified.\n")
        let r = try ws.run(["read", "--device", "sim:\(file)"])
        #expect(r.stdout.hasSuffix("  URI: https://museum.example/12\n"))
        // Two records, in the order given, and JSON output.
        let two = try ws.run([
            "write", "--text", "Gate 4", "--lang", "en", "--uri", "https://a.example", "--json", "--device",
            "sim:\(file)",
        ])
        #expect(two.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: two.stdoutBytes) as? [String: Any])
        #expect(o["verified"] as? Bool == true)
        #expect(o["uid"] as? String == "04A1B2C3D4E5F6")
        let back = try ws.run(["read", "--json", "--device", "sim:\(file)"])
        let j = try #require(try JSONSerialization.jsonObject(with: back.stdoutBytes) as? [String: Any])
        let records = try #require((j["ndef"] as? [String: Any])?["records"] as? [[String: Any]])
        #expect(records.count == 2)
        let text = try #require(records[0]["text"] as? [String: Any])
        #expect(text["text"] as? String == "Gate 4")
        #expect(text["language"] as? String == "en")
        #expect(records[1]["uri"] as? String == "https://a.example")
    }

    @Test func writesAnNDEFFile() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag215)
        try Data(TagFixture.uriMessage("file.example")).write(to: ws.dir.appendingPathComponent("m.ndef"))
        let w = try ws.run(["write", "--ndef-file", "m.ndef", "--device", "sim:\(file)"])
        #expect(w.status == 0)
        let r = try ws.run(["read", "--raw", "--device", "sim:\(file)"])
        #expect(r.stdout == "D1010D550466696C652E6578616D706C65\n")
    }

    @Test func tooLargeIsRefusedBeforeAnyWrite() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("keep.example"))
        let before = try TagFixture.bytes(ws.path(file))
        let text = String(repeating: "x", count: 200)
        let w = try ws.run(["write", "--text", text, "--trace", "--device", "sim:\(file)"])
        #expect(w.status == 1)
        #expect(w.stdout == "")
        #expect(
            w.stderr.hasSuffix(
                "Error: the message of 207 bytes does not fit: the tag (ntag213) holds at most 137 bytes\n"))
        // No WRITE went out, and the tag file is untouched.
        #expect(!w.stderr.contains("> A2"))
        #expect(try TagFixture.bytes(ws.path(file)) == before)
    }

    @Test func badInputIsOneLineAndTouchesNothing() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213)
        let before = try TagFixture.bytes(ws.path(file))
        let nothing = try ws.run(["write", "--device", "sim:\(file)"])
        #expect(nothing.status == 64)
        #expect(
            nothing.stderr.hasPrefix(
                "Error: nothing to write: give record options (such as --uri or --text) or --ndef-file\n"))
        let both = try ws.run(["write", "--uri", "https://a.b", "--ndef-file", "m.ndef", "--device", "sim:\(file)"])
        #expect(both.status == 64)
        let missing = try ws.run(["write", "--ndef-file", "none.ndef", "--device", "sim:\(file)"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: cannot read the NDEF file 'none.ndef': no such file\n")
        try Data([0xD1, 0x01, 0x09]).write(to: ws.dir.appendingPathComponent("bad.ndef"))
        let bad = try ws.run(["write", "--ndef-file", "bad.ndef", "--device", "sim:\(file)"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("Error: the NDEF file 'bad.ndef' is not a valid NDEF message: "))
        let flag = try ws.run(["write", "--bogus", "--device", "sim:\(file)"])
        #expect(flag.status == 64)
        #expect(flag.stderr.hasPrefix("Error: unknown option '--bogus'\n"))
        #expect(try TagFixture.bytes(ws.path(file)) == before)
    }
}
