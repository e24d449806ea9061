import Foundation
import Testing

/// `opennfc tag convert` of a MIFARE Classic tag file with an unknown key and an unread sector to the Proxmark3
/// forms, which cannot mark either: zeros written, one warning a sector, exit 0 (docs/TAG-FILES.md, "Proxmark3
/// MIFARE Classic dumps").
@Suite struct ProxmarkExportWarningTests {
    /// A 1K dump: sector 1 opened with key A, key B unknown; sector 2 opened by no key (zeros, `??` keys, as
    /// `opennfc dump` saves it); block 4 holds data.
    static func dump() -> String {
        var blocks = [String](repeating: "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", count: 64)
        blocks[0] = "63 D3 25 3E AB 08 04 00 62 63 64 65 66 67 68 69"
        for s in 0..<16 { blocks[s * 4 + 3] = "FF FF FF FF FF FF FF 07 80 69 FF FF FF FF FF FF" }
        blocks[4] = "01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10"
        blocks[7] = "A0 A1 A2 A3 A4 A5 FF 07 80 69 ?? ?? ?? ?? ?? ??"
        blocks[11] = "?? ?? ?? ?? ?? ?? 00 00 00 00 ?? ?? ?? ?? ?? ??"
        return """
            {"format": "opennfc-tag", "version": 1, "chip": "mifare-classic-1k", "uid": "63D3253E",
             "mifareClassic": {"blocks": [\(blocks.map { "\"\($0)\"" }.joined(separator: ", "))]}}
            """
    }

    static func warnings(_ path: String) -> String {
        "Warning: \(path): sector 1: key B is unknown; written as 000000000000 (Proxmark dumps cannot mark unknown "
            + "keys; keep the .json or Flipper .nfc form).\n"
            + "Warning: \(path): sector 2: unreadable (no key opened it); written as zeros (Proxmark dumps cannot "
            + "mark unread sectors; keep the .json or Flipper .nfc form).\n"
    }

    @Test(arguments: ["out.eml", "out.bin", "out.mfd"])
    func convertWarnsPerSectorAndWritesZeros(output: String) throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        _ = try TagFixture.write(Self.dump(), to: ws.dir, name: "c.json")
        let r = try ws.run(["tag", "convert", "c.json", output])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == Self.warnings(output))
        let bytes: [UInt8]
        if output.hasSuffix(".eml") {
            let text = try String(contentsOf: URL(fileURLWithPath: ws.path(output)), encoding: .utf8)
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.count == 64)
            #expect(lines[7] == "A0A1A2A3A4A5FF078069000000000000")
            #expect(lines[8...11].allSatisfy { $0 == String(repeating: "0", count: 32) })
            bytes = lines.flatMap { l in
                stride(from: 0, to: 32, by: 2).map {
                    UInt8(Array(l)[$0...$0 + 1].map(String.init).joined(), radix: 16)!
                }
            }
        } else {
            bytes = [UInt8](try TagFixture.bytes(ws.path(output)))
        }
        #expect(bytes.count == 1024)
        #expect(
            Array(bytes[112..<128]) == [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xFF, 0x07, 0x80, 0x69, 0, 0, 0, 0, 0, 0])
        #expect(bytes[128..<192].allSatisfy { $0 == 0 })
        #expect(Array(bytes[64..<80]) == Array(1...16))
        // It re-imports with zeros there (known zeros now: the Proxmark form has no "unknown").
        let back = try ws.run(["tag", "convert", output, "back.json"])
        #expect(back.status == 0, "\(back.stderr)")
        let json = try String(contentsOf: URL(fileURLWithPath: ws.path("back.json")), encoding: .utf8)
        #expect(json.contains("\"A0 A1 A2 A3 A4 A5 FF 07 80 69 00 00 00 00 00 00\""))
        #expect(json.contains("\"01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10\""))
        #expect(!json.contains("??"))
    }

    @Test func proxmarkJSONWarnsTheSameAndTheJSONAndFlipperFormsDoNot() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        _ = try TagFixture.write(Self.dump(), to: ws.dir, name: "c.json")
        let pm = try ws.run(["tag", "convert", "c.json", "pm.json", "--proxmark"])
        #expect(pm.status == 0, "\(pm.stderr)")
        #expect(pm.stderr == Self.warnings("pm.json"))
        let keys = try String(contentsOf: URL(fileURLWithPath: ws.path("pm.json")), encoding: .utf8)
        #expect(keys.contains("\"KeyB\": \"000000000000\""))
        // The forms that mark unknown bytes (`??`) keep them, silently.
        for lossless in ["copy.json", "copy.nfc"] {
            let r = try ws.run(["tag", "convert", "c.json", lossless])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        }
    }
}
