import Foundation
import Testing

/// `opennfc format`: blank and torn tags become empty NDEF tags.
@Suite struct FormatTests {
    @Test func formatPreparesABlankTag() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("blank.json", TagFixture.ntag216, formatted: false)
        let f = try ws.run(["format", "--device", "sim:\(file)"])
        #expect(f.status == 0)
        #expect(f.stdout == "Formatted ntag216 04A1B2C3D4E5F6: empty NDEF message, capacity 868 bytes.\n")
        let w = try ws.run(["write", "--uri", "https://fresh.example", "--device", "sim:\(file)"])
        #expect(w.status == 0)
        let r = try ws.run(["read", "--device", "sim:\(file)"])
        #expect(r.stdout.hasSuffix("  URI: https://fresh.example\n"))
    }

    @Test func formatRepairsATornTag() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try TagFixture.write(
            TagFixture.json(TagFixture.ntag213, data: [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0xFE, 0xD1]), to: ws.dir,
            name: "torn.json")
        let before = try ws.run(["read", "--device", "sim:torn.json"])
        #expect(before.status == 1)
        let f = try ws.run(["format", "--json", "--device", "sim:torn.json"])
        #expect(f.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: f.stdoutBytes) as? [String: Any])
        #expect(o["status"] as? String == "readWrite")
        #expect(o["capacity"] as? Int == 137)
        let after = try ws.run(["read", "--device", "sim:torn.json"])
        #expect(
            after.stderr
                == "Error: the tag (ntag213, UID 04A1B2C3D4E5F6) holds no NDEF message: it is formatted but empty\n")
    }
}
