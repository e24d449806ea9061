import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc tag new|show`, `dump --keys` and `restore` on a MIFARE Plus through `sim:`, running the binary.
@Suite struct MIFAREPlusCLITests {
    /// A new chip (SL0, as NXP ships it) turned into an SL3 card by editing its tag file.
    func newSL3Card(_ ws: Workspace, _ name: String, chip: String = "mifare-plus-ev1-2k", uid: String) throws {
        let made = try ws.run(["tag", "new", "--chip", chip, "--uid", uid, "-o", name])
        #expect(made.status == 0, "\(made.stderr)")
        let path = ws.path(name)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"securityLevel\": 0"))
        try text.replacingOccurrences(of: "\"securityLevel\": 0", with: "\"securityLevel\": 3")
            .write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func newChipsOfEveryKindShowTheirLevelAndSignature() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        for (chip, uid, sectors) in [
            ("mifare-plus-ev1-2k", "04112233445566", 32), ("mifare-plus-ev2-4k", "04112233445566", 40),
            ("mifare-plus-ev1-4k-4b", "0FB2C3D4", 40),
        ] {
            let made = try ws.run(["tag", "new", "--chip", chip, "--uid", uid, "-o", "\(chip).json"])
            #expect(made.status == 0, "\(made.stderr)")
            let shown = try ws.run(["tag", "show", "\(chip).json"]).stdout
            #expect(shown.contains("security level 0"), "\(shown)")
            #expect(shown.contains("valid for the simulator's test key"))
            #expect(shown.contains("Sector \(sectors - 1): AES key A FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"))
        }
        let ndef = try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--text", "x", "-o", "n.json"])
        #expect(ndef.status != 0 && ndef.stderr.contains("security level 0"))
        let short = try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "A1B2C3D4", "-o", "s.json"])
        #expect(short.status == 64 && short.stderr.contains("7-byte UID"))
    }

    @Test func dumpWithAKeyFileThenRestore() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newSL3Card(ws, "src.json", uid: "04A1B2C3D4E5F6")
        // Sector 1's keys become the MAD key; a Write puts data into block 4 through the dump/restore path.
        let path = ws.path("src.json")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let mad = "00112233445566778899AABBCCDDEEFF"  // in no default list
        text = text.replacingOccurrences(
            of: "\"4002\": \"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"", with: "\"4002\": \"\(mad)\"")
        text = text.replacingOccurrences(
            of: "\"4003\": \"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"", with: "\"4003\": \"\(mad)\"")
        let zero = String(repeating: "00 ", count: 15) + "00"
        if let r = text.range(of: "\"\(zero)\"") {
            // block 1: the first all-zero data block
            text.replaceSubrange(r, with: "\"" + String(repeating: "42 ", count: 15) + "42\"")
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try "# sector 1\n\(mad)\n".write(toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let listed = try ws.run(["dump", "--keys", "keys.txt", "--device", "sim:src.json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("MIFARE Plus EV1 2K, UID 04A1B2C3D4E5F6, security level 3"))
        #expect(listed.stdout.contains("Sector 1: AES key A \(mad), key B \(mad)"))
        let saved = try ws.run(["dump", "--keys", "keys.txt", "-o", "d.json", "--device", "sim:src.json"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let shown = try ws.run(["tag", "show", "d.json"]).stdout
        #expect(shown.contains("Card keys: 9000 ? (unknown)"))
        // Without the key file sector 1 stays closed.
        let closed = try ws.run(["dump", "--device", "sim:src.json"])
        #expect(closed.stdout.contains("Sectors not read") && closed.stdout.contains(": 1\n"))
        try newSL3Card(ws, "dst.json", uid: "04010203040506")
        var dst = try String(contentsOfFile: ws.path("dst.json"), encoding: .utf8)
        dst = dst.replacingOccurrences(
            of: "\"4003\": \"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"", with: "\"4003\": \"\(mad)\"")
        try dst.write(toFile: ws.path("dst.json"), atomically: true, encoding: .utf8)
        let restored = try ws.run(["restore", "d.json", "--device", "sim:dst.json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stderr.contains("95 data blocks written"), "\(restored.stderr)")
        #expect(
            try String(contentsOfFile: ws.path("dst.json"), encoding: .utf8).contains(
                String(repeating: "42 ", count: 15) + "42"))
        // A card in SL0 cannot take data.
        #expect(
            try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "04999999999999", "-o", "sl0.json"])
                .status == 0)
        let refused = try ws.run(["restore", "d.json", "--device", "sim:sl0.json"])
        #expect(refused.status != 0 && refused.stderr.contains("security level 0"))
    }
}
