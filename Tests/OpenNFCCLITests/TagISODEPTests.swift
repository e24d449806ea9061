import Foundation
import Testing

/// `opennfc tag` with the ISO-DEP chips (type4, desfire-ev1), run as a user would run it.
@Suite struct TagISODEPTests {
    let dir: URL

    init() throws { dir = try CLIRunner.temporaryDirectory() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `tag new --mapping 3.0 --ndef-file-size`: a T4T mapping 3.0 card with a 64 KiB ENDEF file, holding a message
    /// past 32 KiB that `opennfc read` brings back whole (odd-INS READ BINARY past offset 7FFF) and `write` replaces.
    @Test func newMapping3CardWithALargeFile() throws {
        // One record of TNF 5 (unknown) with a 39994-byte payload: a 40000-byte message.
        let hex = TagFixture.unknownRecordMessageHex((0..<39_994).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let new = try CLIRunner.run([
            "tag", "new", "--chip", "type4", "--mapping", "3.0", "--ndef-file-size", "65536", "--uid",
            "04112233445566", "--ndef-hex", hex, "-o", path("big.json"),
        ])
        #expect(new.status == 0, "\(new.stderr)")
        let show = try CLIRunner.run(["tag", "show", path("big.json")])
        for line in [
            "Product: NFC Forum Type 4 Tag (ISO-DEP), NDEF mapping 3.0, MLe 255, MLc 255, short APDUs only",
            "CC file E103 (the file's own write access FFh (none)): 00 11 30 00 FF 00 FF 06 08 E1 04 00 01 00 00 00 00",
            "  CCLEN 17, mapping 3.0, MLe 255, MLc 255; ENDEF File Control TLV: file E104, maximum size 65536, "
                + "read access 00h (granted), write access 00h (granted)",
            "NDEF file E104: 65536 bytes, ENLEN 40000 (capacity 65532), read access 00h (granted), write access 00h (granted)",
        ] {
            #expect(show.stdout.contains(line + "\n"), "missing: \(line)\n\(show.stdout)")
        }
        let read = try CLIRunner.run(["read", "--raw", "--device", "sim:\(path("big.json"))"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == hex)
        let write = try CLIRunner.run([
            "write", "--uri", "https://t4.example/v3", "--device", "sim:\(path("big.json"))",
        ])
        #expect(write.status == 0, "\(write.stderr)")
        let after = try CLIRunner.run(["tag", "show", path("big.json")])
        #expect(after.stdout.contains("ENLEN 18 (capacity 65532)"), "\(after.stdout)")
        // Sizes a mapping cannot describe are usage errors.
        let tooBig = try CLIRunner.run([
            "tag", "new", "--chip", "type4", "--ndef-file-size", "70000", "-o", path("x.json"),
        ])
        #expect(tooBig.status == 64)
        #expect(tooBig.stderr.contains("--ndef-file-size 70000: give a size of 5…65534 bytes for mapping 2.0"))
        #expect(
            try CLIRunner.run(["tag", "new", "--chip", "ntag215", "--mapping", "3.0", "-o", path("y.json")]).status
                == 64)
    }

    /// `--chip type4b`: a Type 4 card on NFC-B, its 4-byte PUPI as the UID, read by the simulated iPhone's reader.
    @Test func newTypeBCardIsReadOverNFCB() throws {
        let new = try CLIRunner.run([
            "tag", "new", "--chip", "type4b", "--uid", "1A2B3C4D", "--uri", "https://b.example", "-o", path("b.json"),
        ])
        #expect(new.status == 0, "\(new.stderr)")
        let file = try String(contentsOfFile: path("b.json"), encoding: .utf8)
        #expect(file.contains("\"chip\": \"type4b\""))
        #expect(file.contains("\"technology\": \"nfcB\""))
        #expect(file.contains("\"protocolInfo\": \"00 81 75\""))
        let read = try CLIRunner.run(["read", "--json", "--device", "sim:\(path("b.json"))"])
        #expect(read.status == 0, "\(read.stderr)")
        let j = try json(read.stdout)
        #expect(j["uid"] as? String == "1A2B3C4D")
        #expect(read.stdout.contains("https://b.example"))
        let bad = try CLIRunner.run(["tag", "new", "--chip", "type4b", "--uid", "04112233445566", "-o", path("x.json")])
        #expect(bad.status == 64)
    }

    @Test func newAndShowType4() throws {
        let new = try CLIRunner.run([
            "tag", "new", "--chip", "type4", "--uid", "04 1F 5B 92 DA 2C 80", "--uri", "https://example.com", "-o",
            path("t4.json"),
        ])
        #expect(new.status == 0, "\(new.stderr)")
        #expect(new.stderr == "Wrote type4 UID 041F5B92DA2C80 to \(path("t4.json"))\n")
        let show = try CLIRunner.run(["tag", "show", path("t4.json")])
        #expect(show.status == 0)
        let expectedLines = [
            "Chip: type4",
            "UID: 04 1F 5B 92 DA 2C 80",
            "ATQA: 03 44  SAK: 20  ATS: 06 77 77 71 02 80",
            "Product: NFC Forum Type 4 Tag (ISO-DEP), NDEF mapping 2.0, MLe 255, MLc 255, short APDUs only",
            "NDEF application: DF name D2 76 00 00 85 01 01 and D2 76 00 00 85 01 00",
            "CC file E103 (the file's own write access FFh (none)): 00 0F 20 00 FF 00 FF 04 06 E1 04 10 00 00 00",
            "NDEF file E104: 4096 bytes, NLEN 16 (capacity 4094), read access 00h (granted), write access 00h (granted)",
            "  0000  00 10 D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63  .....U.example.c  NLEN (2 bytes), then the message",
            "  *", "  0FF0  " + String(repeating: "00 ", count: 15) + "00  ................",
            "NDEF access: read/write",
            "    URI: https://example.com",
        ]
        let lines = show.stdout.split(separator: "\n").map(String.init)
        for line in expectedLines { #expect(lines.contains(line), "missing: \(line)\n\(show.stdout)") }
        let j = try json(try CLIRunner.run(["tag", "show", path("t4.json"), "--json"]).stdout)
        #expect(j["chip"] as? String == "type4")
        #expect(j["ats"] as? String == "067777710280")
        #expect(j["ndefAccess"] as? String == "read/write")
        let cc = try #require(j["cc"] as? [String: Any])
        #expect(cc["bytes"] as? String == "000F2000FF00FF0406E10410000000")
        #expect(cc["maxNDEFSize"] as? Int == 4096)
        let ndef = try #require(j["ndef"] as? [String: Any])
        #expect(ndef["bytes"] as? String == "D1010C55046578616D706C652E636F6D")
    }

    @Test func sendAPDUsAndSave() throws {
        #expect(
            try CLIRunner.run(["tag", "new", "--chip", "type4", "--text", "hi", "-o", path("t.json")]).status == 0)
        let send = try CLIRunner.run([
            "tag", "send", path("t.json"),
            "00A4040007D276000085010100",  // SELECT NDEF application
            "00A4000C02E104",  // SELECT NDEF file
            "00B0000002",  // READ BINARY NLEN
            "00D6000002 0000",  // UPDATE BINARY NLEN 0
            "00B0100001",  // READ BINARY past the end
            "00CA000000",  // unknown INS
            "--save",
        ])
        #expect(send.status == 0, "\(send.stderr)")
        #expect(send.stdout == "9000\n9000\n00099000\n9000\n6B00\n6D00\n")
        let show = try CLIRunner.run(["tag", "show", path("t.json")])
        #expect(show.stdout.contains("NLEN 0 (capacity 4094)"))
        #expect(show.stdout.contains("NDEF message: none"))
    }

    @Test func sendFromStdinReactivatesAndRemoves() throws {
        #expect(
            try CLIRunner.run([
                "tag", "new", "--chip", "type4", "--uid", "041F5B92DA2C80", "--ndef-hex", "D00000", "-o",
                path("t.json"),
            ]).status == 0)
        let r = try CLIRunner.run(
            ["tag", "send", path("t.json"), "-"],
            stdin: Data("00A4040007D276000085010100\n00A4000C02E104\nACTIVATE\n00B0000002\nREMOVE\n00B0000002\n".utf8))
        #expect(r.status == 0)
        #expect(
            r.stdout
                == "9000\n9000\nUID 041F5B92DA2C80 ATQA 0344 SAK 20 ATS 067777710280\n6986\nREMOVED\nTIMEOUT\n")
    }

    @Test func desfireNewShowSendAndConvert() throws {
        let new = try CLIRunner.run([
            "tag", "new", "--chip", "desfire-ev1", "--uid", "041F5B92DA2C80", "--text", "hello", "-o", path("d.json"),
        ])
        #expect(new.status == 0, "\(new.stderr)")
        let show = try CLIRunner.run(["tag", "show", path("d.json")])
        for line in [
            "Chip: desfire-ev1",
            "ATQA: 03 44  SAK: 20  ATS: 06 75 77 81 02 80",
            "Product: MIFARE DESFire EV1, storage 4096 bytes, hardware 04 01 01 01 00 18 05, software 04 01 01 01 04 18 05",
            "  Application 00 00 01: key settings 0Fh, 1 key(s) DES/3DES, ISO file ids, ISO DF E105, DF name D2 76 00 00 85 01 01 (NFC Forum NDEF application)",
            "    File 1: standard data, 15 bytes, ISO E103, plain, read free, write free, read&write free, change free",
            "      0000  00 0F 20 00 3B 00 34 04 06 E1 04 10 00 00 00     .. .;.4........   capability container (CC)",
            "NDEF access: read/write",
            "    Text (en, utf-8): hello",
        ] {
            #expect(show.stdout.contains(line + "\n"), "missing: \(line)\n\(show.stdout)")
        }
        let send = try CLIRunner.run([
            "tag", "send", path("d.json"),
            "60", "AF", "AF",  // GetVersion, native, three frames
            "905A00000301000000",  // SelectApplication 000001, wrapped
            "6F",  // GetFileIDs
            "BD 02 000000 040000",  // ReadData NDEF file, 4 bytes
            "00A4000C02E104", "00B0000002",  // ISO: SELECT NDEF file, READ NLEN
        ])
        #expect(
            send.stdout
                == "AF04010101001805\nAF04010101041805\n00041F5B92DA2C80BA3498BAD02912\n9100\n000102\n00000CD101\n"
                + "9000\n000C9000\n")
        let j = try json(try CLIRunner.run(["tag", "show", path("d.json"), "--json"]).stdout)
        let apps = try #require(j["applications"] as? [[String: Any]])
        #expect(apps.first?["aid"] as? String == "000001")
        #expect(apps.first?["dfName"] as? String == "D2760000850101")
        #expect(try CLIRunner.run(["tag", "convert", path("d.json"), path("d.ndef")]).status == 0)
        let ndef = try Data(contentsOf: URL(fileURLWithPath: path("d.ndef")))
        #expect(ndef == Data([0xD1, 0x01, 0x08, 0x54, 0x02, 0x65, 0x6E] + Array("hello".utf8)))
        let flipper = try CLIRunner.run(["tag", "convert", path("d.json"), path("d.nfc")])
        #expect(flipper.status == 0, "\(flipper.stderr)")
        #expect(flipper.stderr.isEmpty)
    }

    @Test func badUIDAndTooLongMessage() throws {
        let uid = try CLIRunner.run(["tag", "new", "--chip", "desfire-ev1", "--uid", "04010203", "-o", path("x.json")])
        #expect(uid.status == 64)
        #expect(uid.stderr.hasPrefix("Error: --uid: desfire-ev1 has a 7-byte UID, not 4 bytes\n"))
        let big = try CLIRunner.run([
            "tag", "new", "--chip", "type4", "--text", String(repeating: "x", count: 5000), "-o", path("x.json"),
        ])
        #expect(big.status == 1)
        #expect(big.stderr.hasPrefix("Error: NDEF message of 5010 bytes does not fit an NDEF file of 4096 bytes"))
        #expect(!FileManager.default.fileExists(atPath: path("x.json")))
    }
}
