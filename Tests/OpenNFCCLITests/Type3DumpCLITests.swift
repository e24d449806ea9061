import Foundation
import Testing

/// `opennfc dump` and `opennfc restore` on Type 3 (FeliCa), running the binary against `sim:` cards: a Lite-S's
/// block map, a FeliCa Standard's systems, areas and services with the blocks of every service that needs no key,
/// tag files saved with -o that `restore` writes back, and `--json`.
@Suite struct Type3DumpCLITests {
    static let idm = "012E4CE445055B87"
    static let other = "012E4CE445055B88"

    func new(_ ws: Workspace, _ chip: String, _ idm: String, _ name: String) throws -> String {
        let r = try ws.run(["tag", "new", "--chip", chip, "--uid", idm, "-o", name])
        #expect(r.status == 0, "\(r.stderr)")
        return ws.path(name)
    }

    static func block(_ byte: String) -> String { String(repeating: byte, count: 16) }

    @Test func liteSDumpListsTheBlockMapAndRestoresTheUserBlocks() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try new(ws, "felica-lite-s", Self.idm, "t.json")
        #expect(try ws.run(["write", "--uri", "https://felica.example/dump", "--device", "sim:\(file)"]).status == 0)
        let list = try ws.run(["dump", "--device", "sim:\(file)"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Tag:      FeliCa Lite-S (RC-S966), IDm \(Self.idm), PMm 00F1000000014300"))
        // The one memory map: blocks by number, named (S_PAD1-13 unnamed so that identical blocks collapse).
        #expect(list.stdout.contains("\n83  01 2E 4C E4 45 05 5B 87 00 F1 00 00 00 01 43 00  ..L.E.[.......C.  D_ID\n"))
        #expect(list.stdout.contains("\n88  FF FF FF 01 07 00 00 00 00 00 00 00 00 00 00 00  ................  MC\n"))
        #expect(list.stdout.contains("System blocks writable, NDEF system code 12FC enabled; CK never reads back."))
        for name in [
            "S_PAD0 (user blocks S_PAD0-13)", "REG", "ID", "SER_C", "SYS_C", "CKV", "WCNT", "STATE", "CRC_CHECK",
        ] {
            #expect(list.stdout.contains("  \(name)\n"), "\(name)")
        }

        let saved = try ws.run(["dump", "-o", ws.path("d.json"), "--device", "sim:\(file)"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stderr.contains("Saved felica-lite-s \(Self.idm)"))
        #expect(saved.stderr.contains("CK never reads back from a card: it is saved as zeros."))
        let json = try ws.run(["dump", "--json", "--device", "sim:\(file)"])
        #expect(json.stdout.contains("\"chip\": \"felica-lite-s\""))
        // The same tag file as -o wrote, with its hex written without spaces (as every --json).
        #expect(
            json.stdout.replacingOccurrences(of: " ", with: "")
                == (try String(contentsOfFile: ws.path("d.json"), encoding: .utf8)).replacingOccurrences(
                    of: " ", with: ""))
        #expect(!json.stdout.contains("\": \"00 00"))

        // A blank card of the same chip takes the dump's user blocks; its message reads back.
        let blank = try new(ws, "felica-lite-s", Self.other, "b.json")
        let r = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(blank)", "--trace"])
        #expect(r.status == 0, "\(r.stderr)")
        // Block 0 marked WriteF 0F, the message blocks (2 for this URI), block 0 last: 4 writes.
        #expect(r.stderr.contains("Restored '\(ws.path("d.json"))' to felica-lite-s \(Self.other): 4 writes."))
        #expect(try ws.run(["read", "--device", "sim:\(blank)"]).stdout.contains("https://felica.example/dump"))
        let again = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(blank)", "--json"])
        #expect(again.stdout.contains("\"writes\": 0"))

        // A Standard card is not a Lite-S: refused before anything is written.
        let standard = try new(ws, "felica-standard", Self.other, "s.json")
        let wrong = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(standard)"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("is not a FeliCa Lite-S (PMm IC code F1); restore writes only to the same chip"))
    }

    @Test func liteSRestoreRefusesABlockTheCardsMCKeepsReadOnly() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try new(ws, "felica-lite-s", Self.idm, "t.json")
        #expect(try ws.run(["write", "--text", "kept", "--device", "sim:\(file)"]).status == 0)
        #expect(try ws.run(["dump", "-o", ws.path("d.json"), "--device", "sim:\(file)"]).status == 0)
        let locked = try new(ws, "felica-lite-s", Self.other, "l.json")
        #expect(try ws.run(["lock", "--yes", "--device", "sim:\(locked)"]).status == 0)
        let r = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(locked)"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("block 00 differs from"), "\(r.stderr)")
        #expect(r.stderr.contains("nothing was written"))
    }

    @Test func standardDumpListsSystemsAreasServicesAndTheBlocksWithoutKey() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try new(ws, "felica-standard", Self.idm, "s.json")
        // Block 2 of random service 1009 and a new record in cyclic service 100D.
        let w = try ws.run([
            "tag", "send", file, "--save", "08 \(Self.idm) 01 0910 01 8002 \(Self.block("A5"))",
            "08 \(Self.idm) 01 0D10 01 8000 \(Self.block("C3"))",
        ])
        #expect(w.stdout == "09\(Self.idm)0000\n09\(Self.idm)0000\n", "\(w.stdout)\(w.stderr)")
        let list = try ws.run(["dump", "--device", "sim:\(file)"])
        #expect(list.status == 0, "\(list.stderr)")
        let expected = [
            "Tag:      FeliCa Standard, PMm 03014B024F4993FF, 1 system",
            "System 0003: IDm \(Self.idm)",
            "  Area 0000-FFFE, key version 0000",
            "  Service 1008: random, read/write, key, key version 0000: not read (needs a key)",
            "  Service 1009: random, read/write, no key, key version 0000, 4 blocks",
            "    02  A5 A5 A5 A5 A5 A5 A5 A5 A5 A5 A5 A5 A5 A5 A5 A5  ................",
            "  Service 100B: random, read-only, no key, key version 0000, 4 blocks",
            "  Service 100D: cyclic, read/write, no key, key version 0000, 4 blocks",
            "    00  C3 C3 C3 C3 C3 C3 C3 C3 C3 C3 C3 C3 C3 C3 C3 C3  ................",
        ]
        for line in expected { #expect(list.stdout.contains(line + "\n"), "\(line)\n\(list.stdout)") }

        let saved = try ws.run(["dump", "-o", ws.path("d.json"), "--device", "sim:\(file)"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stderr.contains("Saved felica-standard \(Self.idm) (1 system, 4 services)"))
        #expect(saved.stderr.contains("Services that need a key were not read and are saved as one zero block: 1008"))
        let show = try ws.run(["tag", "show", ws.path("d.json")])
        #expect(show.stdout.contains("  Service 1008: random, read/write, key, 1 blocks"))
        #expect(show.stdout.contains("  Service 100D: cyclic, read/write, no key, 4 blocks"))

        // Restore onto a fresh card: block 2 of 1009, and 100D's four records oldest first (4 writes).
        let fresh = try new(ws, "felica-standard", Self.other, "f.json")
        let r = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(fresh)", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"writes\": 5"), "\(r.stdout)")
        let back = try ws.run(["dump", "--device", "sim:\(fresh)"])
        for line in expected.dropFirst(2) { #expect(back.stdout.contains(line + "\n"), "\(line)") }
        let again = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(fresh)"])
        #expect(again.stderr.contains("already holds"), "\(again.stderr)")
    }

    @Test func standardRestoreRefusesACardWithOtherServicesAndLeavesReadOnlyServicesAlone() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try new(ws, "felica-standard", Self.idm, "s.json")
        #expect(try ws.run(["dump", "-o", ws.path("d.json"), "--device", "sim:\(file)"]).status == 0)
        // The dump's read-only service 100B holds other data than the card's.
        let text = try String(contentsOfFile: ws.path("d.json"), encoding: .utf8)
        let marker = "\"code\": \"100B\""
        let range = try #require(text.range(of: marker))
        let zero = "\"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\""
        let edited =
            String(text[..<range.upperBound])
            + String(text[range.upperBound...]).replacing(
                zero, with: "\"11 11 11 11 11 11 11 11 11 11 11 11 11 11 11 11\"", maxReplacements: 1)
        try edited.write(toFile: ws.path("e.json"), atomically: true, encoding: .utf8)
        let r = try ws.run(["restore", ws.path("e.json"), "--device", "sim:\(file)"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("nothing written"))
        #expect(r.stderr.contains("Note: read-only services that differ were not written: 100B."))

        // A Lite-S is not a Standard card.
        let lite = try new(ws, "felica-lite-s", Self.other, "l.json")
        let wrong = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(lite)"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("is not a FeliCa Standard card"))
    }

    /// Flipper `.nfc`: a Lite-S converts both ways unchanged; a Standard card's dump saved as `.nfc` says what the
    /// format cannot hold, and the file reads back as a card `dump` lists the same services and blocks of.
    @Test func flipperFilesForBothCards() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let lite = try new(ws, "felica-lite-s", Self.idm, "l.json")
        #expect(try ws.run(["write", "--uri", "https://felica.example/f", "--device", "sim:\(lite)"]).status == 0)
        let toNFC = try ws.run(["tag", "convert", lite, ws.path("l.nfc")])
        #expect(toNFC.status == 0, "\(toNFC.stderr)")
        #expect(!toNFC.stderr.contains("Warning"))
        #expect(try String(contentsOfFile: ws.path("l.nfc"), encoding: .utf8).contains("Device type: FeliCa\n"))
        #expect(try ws.run(["tag", "convert", ws.path("l.nfc"), ws.path("back.json")]).status == 0)
        #expect(
            try String(contentsOfFile: ws.path("back.json"), encoding: .utf8)
                == (try String(contentsOfFile: lite, encoding: .utf8)))
        #expect(
            try ws.run(["read", "--device", "sim:\(ws.path("l.nfc"))"]).stdout.contains("https://felica.example/f"))

        let standard = try new(ws, "felica-standard", Self.idm, "s.json")
        let saved = try ws.run(["dump", "-o", ws.path("s.nfc"), "--device", "sim:\(standard)"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stderr.contains("the blocks of 1008 (services with a key)"), "\(saved.stderr)")
        let a = try ws.run(["dump", "--device", "sim:\(standard)"])
        let b = try ws.run(["dump", "--device", "sim:\(ws.path("s.nfc"))"])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(
            a.stdout.components(separatedBy: "\n").dropFirst(2) == b.stdout.components(separatedBy: "\n").dropFirst(2))
    }
}
