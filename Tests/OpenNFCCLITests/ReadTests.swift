import Foundation
import Testing

/// `opennfc read` on simulated tag files, through the built binary.
@Suite struct ReadTests {
    @Test func readsAndDecodesTheMessage() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("example.com"))
        let before = try TagFixture.bytes(ws.path(file))
        let r = try ws.run(["read", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(
            r.stdout == """
                Tag:      ntag213, UID 04A1B2C3D4E5F6
                NDEF:     read/write, capacity 137 bytes, message 16 bytes
                Record 1: well-known "U", payload 12 bytes
                  URI: https://example.com

                """)
        // Reading changes no tag memory: the file is byte-for-byte untouched.
        #expect(try TagFixture.bytes(ws.path(file)) == before)
    }

    @Test func jsonCarriesRawAndRecords() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag215, message: TagFixture.uriMessage("example.com"))
        let r = try ws.run(["read", "--json", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
        #expect(o["chip"] as? String == "ntag215")
        #expect(o["uid"] as? String == "04A1B2C3D4E5F6")
        #expect(o["status"] as? String == "readWrite")
        let ndef = try #require(o["ndef"] as? [String: Any])
        #expect(ndef["raw"] as? String == "D1010C55046578616D706C652E636F6D")
        let records = try #require(ndef["records"] as? [[String: Any]])
        #expect(records.count == 1)
        #expect(records[0]["uri"] as? String == "https://example.com")
        #expect(records[0]["tnf"] as? Int == 1)
        #expect(records[0]["type"] as? String == "55")
    }

    @Test func rawPrintsOnlyTheHex() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag216, message: TagFixture.uriMessage("a.b"))
        let r = try ws.run(["read", "--raw", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        #expect(r.stdout == "D101045504612E62\n")
    }

    @Test func withoutAValidMessageItSaysWhy() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let empty = try ws.tag("empty.json", TagFixture.ntag213)
        let r1 = try ws.run(["read", "--device", "sim:\(empty)"])
        #expect(r1.status == 1)
        #expect(r1.stdout == "")
        #expect(
            r1.stderr
                == "Error: the tag (ntag213, UID 04A1B2C3D4E5F6) holds no NDEF message: it is formatted but empty\n")

        let blank = try ws.tag("blank.json", TagFixture.ntag215, formatted: false)
        let r2 = try ws.run(["read", "--device", "sim:\(blank)"])
        #expect(r2.status == 1)
        #expect(r2.stderr.hasPrefix("Error: the tag (ntag215, UID 04A1B2C3D4E5F6) is not NDEF formatted: "))
        #expect(r2.stderr.hasSuffix("; 'opennfc format' prepares it\n"))

        // A TLV length that runs past the data area: what a writer that was not tear-safe leaves behind.
        try TagFixture.write(
            TagFixture.json(TagFixture.ntag213, data: [0x03, 0xFE, 0xD1, 0x01]), to: ws.dir, name: "torn.json")
        let r3 = try ws.run(["read", "--device", "sim:torn.json"])
        #expect(r3.status == 1)
        #expect(r3.stderr.hasPrefix("Error: "))
        #expect(r3.stderr.contains("torn"))
        #expect(r3.stderr.split(separator: "\n").count == 1)

        // A message whose records do not add up to its length: torn as well.
        try TagFixture.write(
            TagFixture.json(TagFixture.ntag213, message: [0xD1, 0x01, 0x09, 0x55, 0x04]), to: ws.dir,
            name: "bad.json")
        let r4 = try ws.run(["read", "--device", "sim:bad.json"])
        #expect(r4.status == 1)
        #expect(r4.stderr.hasPrefix("Error: the tag's NDEF data is torn (the 5-byte NDEF message is malformed: "))
        #expect(r4.stderr.hasSuffix("); 'opennfc write' or 'opennfc format' repairs it\n"))
    }

    @Test func optionsAreChecked() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let r = try ws.run(["read", "--json", "--raw", "--device", "sim:x.json"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("Error: --json and --raw cannot be combined\nUsage: opennfc read"))
        let t = try ws.run(["read", "--timeout", "soon", "--device", "sim:x.json"])
        #expect(t.status == 64)
        #expect(t.stderr.hasPrefix("Error: --timeout takes a whole number from 0 to 86400, not 'soon'\n"))
    }
}
