import Foundation
import Testing

/// `opennfc tag convert` between JSON and Flipper `.nfc` for the ISO-DEP chips.
@Suite struct TagFlipperISODEPTests {
    let dir: URL

    init() throws { dir = try CLIRunner.temporaryDirectory() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    @Test func desfireRoundTripsThroughFlipper() throws {
        let new = try CLIRunner.run([
            "tag", "new", "--chip", "desfire-ev1", "--uid", "041F5B92DA2C80", "--text", "hello", "-o", path("d.json"),
        ])
        #expect(new.status == 0, "\(new.stderr)")
        let out = try CLIRunner.run(["tag", "convert", path("d.json"), path("d.nfc")])
        #expect(out.status == 0 && out.stderr.isEmpty, "\(out.stderr)")
        let nfc = try text("d.nfc")
        #expect(nfc.contains("Device type: Mifare DESFire\n"))
        #expect(
            nfc.contains(
                "PICC Version: 04 01 01 01 00 18 05 04 01 01 01 04 18 05 04 1F 5B 92 DA 2C 80 BA 34 98 BA D0 29 12\n"))
        #expect(nfc.contains("Application 010000 File IDs: 01 02\n"))
        let back = try CLIRunner.run(["tag", "convert", path("d.nfc"), path("back.json")])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try text("back.json") == text("d.json"))
        let send = try CLIRunner.run([
            "tag", "send", path("d.nfc"), "60", "AF", "AF", "00A4040007D2760000850101", "00A4000C02E104", "00B0000009",
        ])
        #expect(
            send.stdout
                == "AF04010101001805\nAF04010101041805\n00041F5B92DA2C80BA3498BAD02912\n9000\n9000\n000CD101085402656E9000\n"
        )
    }

    @Test func type4ExportWarnsAndImportIsFactoryFresh() throws {
        let new = try CLIRunner.run([
            "tag", "new", "--chip", "type4", "--uid", "04 1F 5B 92 DA 2C 80", "--uri", "https://example.com", "-o",
            path("t4.json"),
        ])
        #expect(new.status == 0, "\(new.stderr)")
        let out = try CLIRunner.run(["tag", "convert", path("t4.json"), path("t4.nfc")])
        #expect(out.status == 0)
        #expect(
            out.stderr
                == "Warning: \(path("t4.nfc")): Flipper's ISO14443-4A format stores only UID, ATQA, SAK and ATS: the "
                + "card's files (CC, NDEF) are not saved.\n")
        #expect(try text("t4.nfc").contains("Device type: ISO14443-4A\n"))
        #expect(try text("t4.nfc").contains("UID: 04 1F 5B 92 DA 2C 80\n"))
        #expect(try text("t4.nfc").contains("ATS: 06 77 77 71 02 80\n"))
        let back = try CLIRunner.run(["tag", "convert", path("t4.nfc"), path("t4b.json")])
        #expect(back.status == 0, "\(back.stderr)")
        let show = try CLIRunner.run(["tag", "show", path("t4b.json")])
        #expect(show.stdout.contains("Chip: type4\n"))
        #expect(show.stdout.contains("UID: 04 1F 5B 92 DA 2C 80\n"))
        #expect(show.stdout.contains("NLEN 0"), "\(show.stdout)")
    }

    @Test func badFlipperFileNamesLineAndKey() throws {
        let bad = """
            Filetype: Flipper NFC device
            Version: 4
            Device type: Mifare DESFire
            UID: 04 1F 5B 92 DA 2C 80
            Application Count: 1
            Application IDs: 56 34

            """
        try bad.write(toFile: path("bad.nfc"), atomically: true, encoding: .utf8)
        let r = try CLIRunner.run(["tag", "convert", path("bad.nfc"), path("bad.json")])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: \(path("bad.nfc")):5"), "\(r.stderr)")
        #expect(r.stderr.contains("Application Count"))
    }
}
