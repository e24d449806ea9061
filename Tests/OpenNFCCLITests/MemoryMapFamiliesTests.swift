import Foundation
import Testing

/// The one memory map (docs/CLI.md "Memory maps") for the families beyond Types 1, 2 and 5, in `opennfc dump` and
/// `opennfc tag show`: MIFARE Classic and MIFARE Plus blocks with block 0, the sector trailers' access bits, value
/// blocks, the MAD and unread sectors annotated; DESFire and Type 4 files by byte offset with the CC and NLEN named;
/// FeliCa Lite-S blocks by number with their names, FeliCa Standard services' blocks. Numbers in hex, identical
/// lines collapsed into `*`.
@Suite struct MemoryMapFamiliesTests {
    static let zeros = String(repeating: "00 ", count: 15) + "00  ................"

    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func classicTagShowAnnotatesBlockZeroTheMADAndEveryTrailer() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(
            try ws.run([
                "tag", "new", "--chip", "mifare-classic-1k", "--uid", "C0FFEE04", "--text", "dump me", "-o",
                "c.json",
            ]).status == 0)
        let shown = try ws.run(["tag", "show", "c.json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let l = lines(shown.stdout)
        for line in [
            "Memory:",
            // C0 ^ FF ^ EE ^ 04 = D5: the BCC is right, so it is only named.
            "  00  C0 FF EE 04 D5 08 04 00 62 63 64 65 66 67 68 69  ........bcdefghi  block 0: UID0-3, BCC, SAK, "
                + "ATQA, manufacturer data",
            // Sector 0's GPB C1 has the DA bit: blocks 1 and 2 are the MIFARE Application Directory.
            "  01  14 01 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1  ................  MAD1 (application directory)",
            "  03  A0 A1 A2 A3 A4 A5 78 77 88 C1 FF FF FF FF FF FF  ......xw........  sector 0 trailer: access C1C2C3 "
                + "100 100 100 011, GPB C1",
            "  04  03 0E D1 01 0A 54 02 65 6E 64 75 6D 70 20 6D 65  .....T.endump me",
            "  07  D3 F7 D3 F7 D3 F7 7F 07 88 40 FF FF FF FF FF FF  .........@......  sector 1 trailer: access C1C2C3 "
                + "000 000 000 011, GPB 40",
            "  08  \(Self.zeros)", "  *",
            "  3F  D3 F7 D3 F7 D3 F7 7F 07 88 40 FF FF FF FF FF FF  .........@......  sector 15 trailer: access C1C2C3 "
                + "000 000 000 011, GPB 40",
        ] {
            #expect(l.contains(line), "missing: \(line)\n\(shown.stdout)")
        }
        // 64 blocks, the zero data blocks of each sector collapsed: well under one line a block.
        let map = l.drop { $0 != "Memory:" }.prefix { !$0.hasPrefix("NDEF access") }
        #expect(map.count < 64, "\(map.joined(separator: "\n"))")
    }

    @Test func classicDumpShowsValueBlocksUnreadSectorsAndAWrongBCC() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(
            try ws.run(["tag", "new", "--chip", "mifare-classic-1k", "--uid", "C0FFEE04", "-o", "v.json"]).status == 0)
        let key = ["--key", "FFFFFFFFFFFF", "--device", "sim:v.json"]
        #expect(try ws.run(["classic", "value", "--block", "5", "--set", "-100"] + key).status == 0)
        let locked = try ws.run(
            [
                "classic", "trailer", "--sector", "2", "--new-key-a", "112233445566", "--new-key-b", "665544332211",
                "--access", "0,0,0,3",
            ] + key)
        #expect(locked.status == 0, "\(locked.stderr)")
        let dump = try ws.run(["dump", "--device", "sim:v.json"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let l = lines(dump.stdout)
        for line in [
            "Sector 2: key A ?, key B ?",
            "03  FF FF FF FF FF FF FF 07 80 69 FF FF FF FF FF FF  .........i......  sector 0 trailer: access C1C2C3 "
                + "000 000 000 001 (transport configuration), GPB 69",
            // -100 is FFFFFF9C, LSB first, its inverse, again; address 05 with its inverse twice.
            "05  9C FF FF FF 63 00 00 00 9C FF FF FF 05 FA 05 FA  ....c...........  value block: value -100, address 05",
            "08  -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --                    sector 2: not read (no key)",
            "09  -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --", "*",
            "0B  -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --                    sector 2 trailer: not read",
        ] {
            #expect(l.contains(line), "missing: \(line)\n\(dump.stdout)")
        }
        // Once the keys are known the sector reads: its trailer carries them and no key is unknown.
        try "112233445566\n665544332211\n".write(toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let full = try ws.run(["dump", "--keys", "keys.txt", "--device", "sim:v.json"])
        #expect(
            lines(full.stdout).contains(
                "0B  11 22 33 44 55 66 7F 07 88 69 66 55 44 33 22 11  .\"3DUf...ifUD3\".  sector 2 trailer: access "
                    + "C1C2C3 000 000 000 011, GPB 69"), "\(full.stdout)")
        // A magic card's block 0 with a BCC that is not the UID's XOR says so.
        var text = try String(contentsOfFile: ws.path("v.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"C0 FF EE 04 D5 ", with: "\"C0 FF EE 04 00 ")
        try text.write(toFile: ws.path("v.json"), atomically: true, encoding: .utf8)
        let wrong = try ws.run(["tag", "show", "v.json"])
        #expect(
            wrong.stdout.contains(
                "block 0: UID0-3, BCC (wrong: UID0-3 give D5), SAK, ATQA, manufacturer data"), "\(wrong.stdout)")
    }

    @Test func classicFourKNumbersItsBlocksUpToFF() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(
            try ws.run(["tag", "new", "--chip", "mifare-classic-4k", "--uid", "C0FFEE01", "-o", "k.json"]).status == 0)
        let shown = try ws.run(["tag", "show", "k.json"]).stdout
        // Sector 39 has 16 blocks (F0-FF), its trailer the last.
        #expect(shown.contains("\n  F0  \(Self.zeros)\n  *\n  FF  FF FF FF FF FF FF FF 07 80 69"), "\(shown)")
        #expect(shown.contains("sector 39 trailer: access C1C2C3 000 000 000 001 (transport configuration), GPB 69"))
    }

    @Test func mifarePlusShowAndDumpUseTheSameMap() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(
            try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "04A1B2C3D4E5F6", "-o", "p.json"]).status
                == 0)
        let path = ws.path("p.json")
        let sl3 = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "\"securityLevel\": 0", with: "\"securityLevel\": 3")
        try sl3.write(toFile: path, atomically: true, encoding: .utf8)
        let shown = try ws.run(["tag", "show", "p.json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        for line in [
            "  00  04 A1 B2 C3 D4 E5 F6 08 44 00 02 01 11 00 02 20  ........D......   block 0: UID0-6, manufacturer data",
            "  7F  FF FF FF FF FF FF FF 07 80 69 FF FF FF FF FF FF  .........i......  sector 31 trailer: access C1C2C3 "
                + "000 000 000 001 (transport configuration), GPB 69, SL3 access byte FF",
        ] {
            #expect(lines(shown.stdout).contains(line), "missing: \(line)\n\(shown.stdout)")
        }
        // The dump reads the trailers as an SL3 card answers them: key areas zero, the access bytes as stored.
        let dump = try ws.run(["dump", "--device", "sim:p.json"])
        #expect(dump.status == 0, "\(dump.stderr)")
        for line in [
            "00  04 A1 B2 C3 D4 E5 F6 08 44 00 02 01 11 00 02 20  ........D......   block 0: UID0-6, manufacturer data",
            "03  00 00 00 00 00 FF FF 07 80 69 00 00 00 00 00 00  .........i......  sector 0 trailer: access C1C2C3 "
                + "000 000 000 001 (transport configuration), GPB 69, SL3 access byte FF",
            "04  \(Self.zeros)", "*",
        ] {
            #expect(lines(dump.stdout).contains(line), "missing: \(line)\n\(dump.stdout)")
        }
    }

    @Test func desfireAndType4FilesByOffsetWithTheCCAndNLENNamed() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        for chip in ["desfire-ev1", "type4"] {
            let made = try ws.run([
                "tag", "new", "--chip", chip, "--uid", "041F5B92DA2C80", "--uri", "https://example.com", "-o",
                "\(chip).json",
            ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let message = "0000  00 10 D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63  .....U.example.c  "
        let tail = [
            "0010  6F 6D \(String(repeating: "00 ", count: 13))00  om..............",
            "0020  \(Self.zeros)", "*", "0FF0  \(Self.zeros)",
        ]
        let desfire = try ws.run(["tag", "show", "desfire-ev1.json"])
        for line in [
            "      0000  00 0F 20 00 3B 00 34 04 06 E1 04 10 00 00 00     .. .;.4........   capability container (CC)",
            "      " + message + "NLEN (2 bytes), then the NDEF message",
        ] + tail.map({ "      " + $0 }) {
            #expect(lines(desfire.stdout).contains(line), "missing: \(line)\n\(desfire.stdout)")
        }
        let dump = try ws.run(["dump", "--device", "sim:desfire-ev1.json"])
        for line in ["    " + message + "NLEN (2 bytes), then the NDEF message"] + tail.map({ "    " + $0 }) {
            #expect(lines(dump.stdout).contains(line), "missing: \(line)\n\(dump.stdout)")
        }
        let type4 = try ws.run(["tag", "show", "type4.json"])
        for line in ["NDEF file contents:", "  " + message + "NLEN (2 bytes), then the message"]
            + tail.map({ "  " + $0 })
        {
            #expect(lines(type4.stdout).contains(line), "missing: \(line)\n\(type4.stdout)")
        }
    }

    @Test func desfireRecordFilesOneRecordALine() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "--text", "hi", "-o", "d.json"]).status == 0)
        let dev = ["--app", "000001", "--device", "sim:d.json"]
        let file = try ws.run(
            [
                "desfire", "create-file", "--file", "3", "--type", "linear-record", "--record-size", "4",
                "--max-records",
                "3", "--iso-id", "E107",
            ] + dev)
        #expect(file.status == 0, "\(file.stderr)")
        for r in ["A1A2A3A4", "B1B2B3B4"] {
            let w = try ws.run(["desfire", "record", "--file", "3", "--write", r] + dev)
            #expect(w.status == 0, "\(w.stderr)")
        }
        let device = ["--device", "sim:d.json"]
        let shown = try ws.run(["tag", "show", "d.json"]).stdout
        #expect(
            shown.contains("      00  A1 A2 A3 A4  ....  record 0\n      01  B1 B2 B3 B4  ....  record 1\n"), "\(shown)"
        )
        let dump = try ws.run(["dump"] + device).stdout
        #expect(dump.contains("    00  A1 A2 A3 A4  ....  record 0\n    01  B1 B2 B3 B4  ....  record 1\n"), "\(dump)")
    }

    @Test func feliCaLiteSBlocksByNumberWithTheirNames() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let made = try ws.run([
            "tag", "new", "--chip", "felica-lite-s", "--uid", "012E4CE445055B87", "--uri", "https://felica.example",
            "-o", "f.json",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let expected = [
            "01  D1 01 0F 55 04 66 65 6C 69 63 61 2E 65 78 61 6D  ...U.felica.exam",
            "03  \(Self.zeros)", "*", "0E  \(Self.zeros)  REG",
            "83  01 2E 4C E4 45 05 5B 87 00 F1 00 00 00 01 43 00  ..L.E.[.......C.  D_ID",
            "88  FF FF FF 01 07 00 00 00 00 00 00 00 00 00 00 00  ................  MC",
        ]
        let shown = try ws.run(["tag", "show", "f.json"])
        for line in [
            "  00  10 04 01 00 0D 00 00 00 00 00 01 00 00 13 00 36  ...............6  S_PAD0, NDEF attribute "
                + "information",
            "  87  \(Self.zeros)  CK (never read back from a card)",
        ] + expected.map({ "  " + $0 }) {
            #expect(lines(shown.stdout).contains(line), "missing: \(line)\n\(shown.stdout)")
        }
        let dump = try ws.run(["dump", "--device", "sim:f.json"])
        for line in [
            "00  10 04 01 00 0D 00 00 00 00 00 01 00 00 13 00 36  ...............6  S_PAD0 (user blocks S_PAD0-13)",
            "A0  \(Self.zeros)  CRC_CHECK",
        ] + expected {
            #expect(lines(dump.stdout).contains(line), "missing: \(line)\n\(dump.stdout)")
        }
        // CK never reads back from a card: the dump has no line for block 87.
        #expect(!dump.stdout.contains("\n87  "))
    }

    @Test func feliCaStandardServicesShowTheirBlocks() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let idm = "012E4CE445055B87"
        #expect(try ws.run(["tag", "new", "--chip", "felica-standard", "--uid", idm, "-o", "s.json"]).status == 0)
        let block = String(repeating: "A5", count: 16)
        let w = try ws.run(["tag", "send", ws.path("s.json"), "--save", "08 \(idm) 01 0910 01 8002 \(block)"])
        #expect(w.status == 0, "\(w.stderr)")
        let service = [
            "00  \(Self.zeros)", "*",
            "02  \(String(repeating: "A5 ", count: 15))A5  ................", "03  \(Self.zeros)",
        ]
        let shown = try ws.run(["tag", "show", "s.json"]).stdout
        #expect(
            shown.contains(
                "  Service 1009: random, read/write, no key, 4 blocks\n"
                    + service.map { "    " + $0 + "\n" }.joined()), "\(shown)")
        let dump = try ws.run(["dump", "--device", "sim:s.json"]).stdout
        #expect(
            dump.contains(
                "  Service 1009: random, read/write, no key, key version 0000, 4 blocks\n"
                    + service.map { "    " + $0 + "\n" }.joined()), "\(dump)")
    }
}
