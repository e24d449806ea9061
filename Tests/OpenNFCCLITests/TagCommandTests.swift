import Foundation
import Testing

/// `opennfc tag …`, run as a user would run it.
@Suite struct TagCommandTests {
    let dir: URL

    init() throws { dir = try CLIRunner.temporaryDirectory() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func newTag(_ args: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(["tag", "new"] + args)
    }

    @Test func newWritesEveryChipAndFormat() throws {
        for chip in ["ntag213", "ntag215", "ntag216", "ultralight", "ultralight-ev1-48", "ultralight-ev1-128"] {
            for ext in ["json", "nfc"] {
                let r = try newTag(["--chip", chip, "-o", path("\(chip).\(ext)")])
                #expect(r.status == 0, "\(chip).\(ext): \(r.stderr)")
                #expect(r.stdout.isEmpty)
                #expect(r.stderr.hasPrefix("Wrote \(chip) UID 04"))
            }
            let shown = try CLIRunner.run(["tag", "show", path("\(chip).json"), "--json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            #expect(json["chip"] as? String == chip)
            #expect((json["uid"] as? String)?.hasPrefix("04") == true && (json["uid"] as? String)?.count == 14)
            #expect(json["ndefAccess"] as? String == "read/write")
        }
        // Options after the file name, and a fixed UID.
        let r = try newTag(["-o", path("t.json"), "--uid", "04 A1 B2 C3 D4 E5 F6", "--chip", "ntag215"])
        #expect(r.status == 0)
        let text = try String(contentsOfFile: path("t.json"), encoding: .utf8)
        #expect(text.contains("\"uid\": \"04A1B2C3D4E5F6\""))
        #expect(text.contains("\"E1 10 3E 00\""))
    }

    @Test func newWithMessages() throws {
        #expect(try newTag(["--chip", "ntag213", "--text", "hello", "-o", path("t.json")]).status == 0)
        let show = try CLIRunner.run(["tag", "show", path("t.json")])
        #expect(show.stdout.contains("NDEF message: 12 bytes\n  Record 1: well-known \"T\", payload 8 bytes\n"))
        #expect(show.stdout.contains("Text (en, utf-8): hello"))
        #expect(try newTag(["--chip", "ultralight", "--uri", "https://example.com", "-o", path("u.ndef")]).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path("u.ndef")))
                == Data([0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8)))
        #expect(try newTag(["--chip", "ntag216", "--ndef-hex", "D0 00 00", "-o", path("e.json")]).status == 0)
        let e = try CLIRunner.run(["tag", "show", path("e.json"), "--json"])
        #expect(e.stdout.contains("\"bytes\": \"D00000\""))
    }

    @Test func newErrors() throws {
        let unknown = try newTag(["--chip", "ntag999", "-o", path("x.json")])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: unknown chip 'ntag999' (choose from: ntag213, ntag215"))
        #expect(try newTag(["--chip", "ntag213", "--text", "a", "--uri", "b", "-o", path("x.json")]).status == 64)
        let uid = try newTag(["--chip", "ntag213", "--uid", "0401", "-o", path("x.json")])
        #expect(uid.status == 64)
        #expect(uid.stderr.hasPrefix("Error: --uid: ntag213 has a 7-byte UID, not 2 bytes\n"))
        #expect(try newTag(["--chip", "ntag213", "--ndef-hex", "D1", "-o", path("x.json")]).status == 64)
        #expect(try newTag(["--chip", "ntag213", "-o", path("x.txt")]).status == 64)
        #expect(try newTag(["--chip", "ntag213"]).status == 64)
        let big = try newTag([
            "--chip", "ultralight", "--text", String(repeating: "x", count: 60), "-o", path("x.json"),
        ])
        #expect(big.status == 1)
        #expect(big.stderr.hasPrefix("Error: the 67-byte message does not fit MIFARE Ultralight MF0ICU1"))
        #expect(!FileManager.default.fileExists(atPath: path("x.json")))
    }

    @Test func showDecodesLocksAndConfiguration() throws {
        #expect(try newTag(["--chip", "ntag213", "--uid", "04010203040506", "-o", path("t.json")]).status == 0)
        // Lock pages 4-7 and make the CC read-only, then look.
        let send = try CLIRunner.run(["tag", "send", path("t.json"), "A2030000000F", "A2020000F000", "--save"])
        #expect(send.stdout == "ACK\nACK\n")
        let show = try CLIRunner.run(["tag", "show", path("t.json")])
        #expect(show.status == 0)
        for line in [
            "Chip: ntag213", "UID: 04 01 02 03 04 05 06", "ATQA: 00 44  SAK: 00",
            "Capability container: E1 10 12 0F: NDEF mapping 1.0, 144-byte data area, read access 0h (granted), write access Fh (none)",
            "  byte 16: Lock Control, 3 bytes: A0 0C 34", "  byte 21: NDEF Message, 0 bytes", "  byte 23: Terminator",
            "Static lock bytes (page 02h): F0 00", "Locked (read-only) pages: 04h-07h",
            "Configuration (pages 29h-2Ch): AUTH0 FFh (no password protection), PROT 0 (writes only), CFGLCK 0, AUTHLIM 0 (unlimited), NFC counter disabled",
            "  *", "NDEF access: read-only", "NDEF message: none",
        ] {
            #expect(show.stdout.contains(line + "\n"), "missing: \(line)")
        }
        #expect(try CLIRunner.run(["tag", "show", path("missing.json")]).status == 1)
    }

    @Test func sendReachesTheChipWithNoReaderFrameLimit() throws {
        // FAST_READ of all of an NTAG215 (pages 00h–86h) is 540 bytes and of an NTAG216 (00h–E6h) 924 bytes
        // (NTAG213/215/216 datasheet §10.2): more than any reader preset carries, but `tag send` talks to the chip.
        for (chip, last, bytes) in [("ntag215", "86", 540), ("ntag216", "E6", 924)] {
            #expect(try newTag(["--chip", chip, "--uid", "04010203040506", "-o", path("\(chip).json")]).status == 0)
            let r = try CLIRunner.run(["tag", "send", path("\(chip).json"), "3A 00 \(last)"])
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty)
            let answer = r.stdout.dropLast()
            #expect(answer.count == bytes * 2, "\(chip): \(answer.count / 2) bytes")
            #expect(answer.hasPrefix("0401028F0304050604480000E110"))
            // The last four pages: CFG0 04 00 00 FF, CFG1 00 05 00 00 (factory), PWD and PACK read as zeros.
            #expect(answer.hasSuffix("040000FF" + "00050000" + "00000000" + "00000000"))
        }
        // Through the simulated iPhone (258-byte answers) the same frame is refused by name, not a timeout.
        let phone = try CLIRunner.run(["send", "3A0086", "--device", "sim:\(path("ntag215.json"))"])
        #expect(phone.status == 0)
        #expect(
            phone.stdout == "ERROR  # RF frameTooLong: answer of 540 bytes exceeds the frontend's 258-byte limit\n",
            "\(phone.stdout)")
    }

    @Test func sendFramesAndStdinProtocol() throws {
        #expect(try newTag(["--chip", "ntag215", "--uid", "04010203040506", "-o", path("t.nfc")]).status == 0)
        let r = try CLIRunner.run(["tag", "send", path("t.nfc"), "30 00", "60", "3A 00 00", "30 FF", "30 00"])
        #expect(r.status == 0)
        #expect(r.stdout == "0401028F0304050604480000E1103E00\n0004040201001103\n0401028F\nNAK 0\nTIMEOUT\n")
        #expect(r.stderr.isEmpty)
        let input = "A2 04 DEADBEEF\n30 04\n1B00000000\n3004\nACTIVATE\nREMOVE\n3004\nnot hex\n\nACTIVATE\n3004\n"
        let s = try CLIRunner.run(["tag", "send", "-", path("t.nfc"), "--save"].reordered(), stdin: Data(input.utf8))
        #expect(s.status == 0, "\(s.stderr)")
        let lines = s.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == input.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
        #expect(
            Array(lines) == [
                "ACK", "DEADBEEF000000000000000000000000", "NAK 0", "TIMEOUT",
                "UID 04010203040506 ATQA 0044 SAK 00", "REMOVED", "TIMEOUT",
                "ERROR invalid hex character 'n' at character 0", "ERROR empty line",
                "UID 04010203040506 ATQA 0044 SAK 00", "DEADBEEF000000000000000000000000",
            ])
        // --save wrote the change back (Flipper format kept).
        let dump = try String(contentsOfFile: path("t.nfc"), encoding: .utf8)
        #expect(dump.contains("Page 4: DE AD BE EF\n"))
        // Usage and file errors are the only non-zero exits.
        #expect(try CLIRunner.run(["tag", "send", path("t.nfc"), "3G"]).status == 64)
        #expect(try CLIRunner.run(["tag", "send", path("t.nfc")]).status == 64)
        let missing = try CLIRunner.run(["tag", "send", path("nope.json"), "3000"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("Error: \(path("nope.json")): cannot read"))
    }

    @Test func convertBetweenFormats() throws {
        #expect(try newTag(["--chip", "ultralight-ev1-128", "--text", "hi", "-o", path("a.json")]).status == 0)
        #expect(try CLIRunner.run(["tag", "convert", path("a.json"), path("b.nfc")]).status == 0)
        #expect(try CLIRunner.run(["tag", "convert", path("b.nfc"), path("c.json")]).status == 0)
        #expect(
            try String(contentsOfFile: path("a.json"), encoding: .utf8)
                == String(contentsOfFile: path("c.json"), encoding: .utf8))
        #expect(try CLIRunner.run(["tag", "convert", path("c.json"), path("m.ndef")]).status == 0)
        #expect(try CLIRunner.run(["tag", "convert", path("m.ndef"), path("d.json"), "--chip", "ntag216"]).status == 0)
        let show = try CLIRunner.run(["tag", "show", path("d.json")])
        #expect(show.stdout.hasPrefix("Chip: ntag216\n"))
        #expect(show.stdout.contains("Text (en, utf-8): hi"))
        let bad = try CLIRunner.run(["tag", "convert", path("a.json"), path("x.txt")])
        #expect(bad.status == 64)
        // .bin is a MIFARE Classic dump format: an NTAG cannot be saved as one.
        let notClassic = try CLIRunner.run(["tag", "convert", path("a.json"), path("x.bin")])
        #expect(notClassic.status == 1)
        #expect(notClassic.stderr.contains("only MIFARE Classic chips can be saved as .bin/.mfd"))
        try Data("{\n  \"format\": \"opennfc-tag\",\n  \"version\": 1,\n  \"chip\": 5\n}\n".utf8)
            .write(to: URL(fileURLWithPath: path("broken.json")))
        let broken = try CLIRunner.run(["tag", "convert", path("broken.json"), path("y.json")])
        #expect(broken.status == 1)
        #expect(broken.stderr == "Error: \(path("broken.json")): field 'chip': expected a string\n")
    }
}

extension Array where Element == String {
    /// Puts "-" after the file argument, with options first: checks that options may stand anywhere.
    fileprivate func reordered() -> [String] {
        [self[0], self[1], self[3], self[4], self[2]]
    }
}
