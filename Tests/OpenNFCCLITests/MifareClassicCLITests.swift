import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc classic auth|read|write|value|trailer|format|block0`, `dump --keys`, `restore` and the NDEF commands
/// (`read`, `write`, `format`, NXP AN1305) on a MIFARE Classic through `sim:`, running the binary.
@Suite struct MifareClassicCLITests {
    static let ff = "FFFFFFFFFFFF"

    func newCard(_ ws: Workspace, _ name: String, uid: String, _ extra: [String] = [], magic: String? = nil) throws {
        let made = try ws.run(["tag", "new", "--chip", "mifare-classic-1k", "--uid", uid, "-o", name] + extra)
        #expect(made.status == 0, "\(made.stderr)")
        if let magic {
            let path = ws.path(name)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("\"magic\": \"none\""))
            try text.replacingOccurrences(of: "\"magic\": \"none\"", with: "\"magic\": \"\(magic)\"")
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    @Test func newCardsOfEveryModelShowTheirSectors() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        for (chip, sectors) in [("mifare-classic-mini", 5), ("mifare-classic-1k", 16), ("mifare-classic-4k", 40)] {
            let made = try ws.run(["tag", "new", "--chip", chip, "--uid", "C0FFEE01", "-o", "\(chip).json"])
            #expect(made.status == 0, "\(made.stderr)")
            let shown = try ws.run(["tag", "show", "\(chip).json"])
            #expect(shown.stdout.contains("\(sectors) sectors"))
            #expect(shown.stdout.contains("Sector \(sectors - 1): key A FFFFFFFFFFFF key B FFFFFFFFFFFF access FF0780"))
        }
    }

    /// The CLI's `sim:` reader performs Crypto1, so the NDEF commands work on a Classic (the phone's does not).
    @Test func ndefReadWriteAndFormatThroughCrypto1() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "c.json", uid: "C0FFEE02", ["--uri", "https://classic.example"])
        let read = try ws.run(["read", "--device", "sim:c.json"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("https://classic.example"))
        let write = try ws.run(["write", "--uri", "https://other.example", "--device", "sim:c.json"])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try ws.run(["read", "--device", "sim:c.json"]).stdout.contains("https://other.example"))
        let formatted = try ws.run(["format", "--device", "sim:c.json"])
        #expect(formatted.status == 0, "\(formatted.stderr)")
        #expect(formatted.stdout.contains("empty NDEF message"))
        // A blank card (transport keys) is NFC formatted from scratch by 'format' too.
        try newCard(ws, "blank.json", uid: "C0FFEE12")
        #expect(try ws.run(["format", "--device", "sim:blank.json"]).status == 0)
        #expect(try ws.run(["write", "--text", "fresh", "--device", "sim:blank.json"]).status == 0)
        #expect(try ws.run(["read", "--device", "sim:blank.json"]).stdout.contains("fresh"))
    }

    @Test func blocksAndValueOperations() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "c.json", uid: "C0FFEE03")
        let key = ["--key", Self.ff, "--device", "sim:c.json"]
        let w = try ws.run(["classic", "write", "--block", "4", "--data", "000102030405060708090A0B0C0D0E0F"] + key)
        #expect(w.status == 0, "\(w.stderr)")
        #expect(w.stderr == "Wrote block 4.\n")
        let r = try ws.run(["classic", "read", "--block", "4"] + key)
        #expect(r.stdout == "  4  00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F\n")
        #expect(
            try ws.run(["classic", "value", "--block", "5", "--set", "100"] + key).stdout == "Block 5: value 100.\n")
        #expect(try ws.run(["classic", "value", "--block", "5", "--dec", "30"] + key).stdout == "Block 5: value 70.\n")
        #expect(
            try ws.run(["classic", "value", "--block", "5", "--inc", "5", "--to", "6"] + key).stdout
                == "Block 6: value 75.\n")
        #expect(
            try ws.run(["classic", "value", "--block", "6", "--restore", "--to", "4"] + key).stdout
                == "Block 4: value 75.\n")
        #expect(try ws.run(["classic", "value", "--block", "5"] + key).stdout == "Block 5: value 70.\n")
        // The value block format on the card: value, inverse, value, address 05 FA 05 FA (MF1S50yyX §8.6.2.1).
        let raw = try ws.run(["classic", "read", "--block", "5"] + key)
        #expect(raw.stdout == "  5  46 00 00 00 B9 FF FF FF 46 00 00 00 05 FA 05 FA\n")
        // A data block is no value block: the reader names the broken byte.
        let notValue = try ws.run(["classic", "value", "--block", "8"] + key)
        #expect(notValue.status == 1)
        #expect(notValue.stderr.contains("byte 4 is not the inverse of byte 0"))
        // Trailers, block 0 and TRANSFER across sectors go through their own doors (usage errors, exit 64).
        let zero = String(repeating: "00", count: 16)
        #expect(try ws.run(["classic", "write", "--block", "7", "--data", zero] + key).status == 64)
        #expect(try ws.run(["classic", "write", "--block", "0", "--data", zero] + key).status == 64)
        #expect(try ws.run(["classic", "value", "--block", "5", "--inc", "1", "--to", "8"] + key).status == 64)
        #expect(try ws.run(["classic", "read", "--block", "4", "--device", "sim:c.json"]).status == 64)
        // A wrong key is a failure saying which sector and key.
        let wrong = try ws.run(["classic", "read", "--block", "4", "--key", "A0A1A2A3A4A5", "--device", "sim:c.json"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("sector 1 with key A"))
    }

    @Test func trailersRefuseLockingWithoutYesAndKeysAreSearched() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "c.json", uid: "C0FFEE07")
        let key = ["--key", Self.ff, "--device", "sim:c.json"]
        #expect(
            try ws.run(["classic", "write", "--block", "4", "--data", "0102030405060708090A0B0C0D0E0F10"] + key).status
                == 0)
        // Condition 110 for the trailer freezes access bits and keys: decoded, named, refused without --yes.
        let frozen = ["classic", "trailer", "--sector", "1", "--access", "0,0,0,6"] + key
        let refused = try ws.run(frozen)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("no key can ever write the access bits again"))
        #expect(refused.stderr.contains("neither key can ever be changed again"))
        #expect(refused.stderr.contains("--yes"))
        let readOnly = try ws.run(["classic", "trailer", "--sector", "1", "--access", "2,2,2,6"] + key)
        #expect(readOnly.stderr.contains("block group 0 (condition 010) becomes read-only for good"))
        // The transport conditions with a new key A are written without --yes.
        let changed = try ws.run(["classic", "trailer", "--sector", "1", "--new-key-a", "A0A1A2A3A4A5"] + key)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stderr.hasPrefix("Sector 1: key A A0A1A2A3A4A5, key B FFFFFFFFFFFF, access FF0780, GPB 69"))
        let old = try ws.run(["classic", "read", "--block", "4"] + key)
        #expect(old.status == 1)
        try "# site keys\nA0A1A2A3A4A5\n".write(toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let found = try ws.run(["classic", "auth", "--sector", "1", "--keys", "keys.txt", "--device", "sim:c.json"])
        #expect(found.stderr == "Sector 1 authenticated with key A A0A1A2A3A4A5.\n")
        let sector = try ws.run(["classic", "read", "--sector", "1", "--keys", "keys.txt", "--device", "sim:c.json"])
        #expect(sector.status == 0, "\(sector.stderr)")
        #expect(sector.stdout.contains("  4  01 02 03"))
        #expect(
            sector.stdout.contains(
                "  7  00 00 00 00 00 00 FF 07 80 69 FF FF FF FF FF FF  trailer (access C1C2C3 0 0 0 1"))
        // --yes writes the frozen conditions; afterwards the sector cannot be put back.
        #expect(try ws.run(frozen.map { $0 == Self.ff ? "A0A1A2A3A4A5" : $0 } + ["--yes"]).status == 0)
        let format = try ws.run(["classic", "format", "--keys", "keys.txt", "--device", "sim:c.json"])
        #expect(format.status == 1)
        #expect(format.stderr.contains("Sector 1: kept: its access bits (trailer condition 110)"))
        #expect(format.stderr.contains("Sector 2: transport configuration"))
        let bad = try ws.run(["classic", "auth", "--keys", "missing.txt", "--device", "sim:c.json"])
        #expect(bad.stderr.contains("cannot read the key file 'missing.txt'"))
    }

    /// A Classic NAK is explained with MF1S50yyX §9.3's meanings, not Type 2's; key files with CRLF line ends read.
    @Test func classicNAKsGetClassicMeaningsAndCRLFKeyFilesRead() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "c.json", uid: "C0FFEE0E")
        let key = ["--key", Self.ff, "--device", "sim:c.json"]
        // Condition 100 for the data blocks (read A or B, write B only; trailer 011 keeps key B a key): key A is NAKed.
        #expect(try ws.run(["classic", "trailer", "--sector", "1", "--access", "4,4,4,3"] + key).status == 0)
        let refused = try ws.run(
            ["classic", "write", "--block", "4", "--data", String(repeating: "AB", count: 16)] + key)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "Error: the tag refused to write block 4: WRITE of block 4 refused (NAK 4) (invalid operation: the "
                + "access conditions refuse it with this key, the block is outside the authenticated sector, or it "
                + "is not a value block)\n")
        #expect(!refused.stderr.contains("authentication limit"))
        let withB = try ws.run(
            ["classic", "write", "--block", "4", "--data", String(repeating: "AB", count: 16), "--key-type", "b"] + key)
        #expect(withB.status == 0, "\(withB.stderr)")
        try "# site keys\r\nA0A1A2A3A4A5\r\n\r\nFFFFFFFFFFFF\r\n".write(
            toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let found = try ws.run(["classic", "auth", "--sector", "1", "--keys", "keys.txt", "--device", "sim:c.json"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stderr == "Sector 1 authenticated with key A FFFFFFFFFFFF.\n")
        try "FFFFFFFFFFFF\r\nzz\r\n".write(toFile: ws.path("bad.txt"), atomically: true, encoding: .utf8)
        let bad = try ws.run(["classic", "auth", "--keys", "bad.txt", "--device", "sim:c.json"])
        #expect(bad.stderr.contains("bad.txt:2: expected a 6-byte key as 12 hex digits, found 'zz'"))
    }

    /// `opennfc lock` on a Classic (NXP AN1305 §6.5): refused without --yes; a sector whose key B no key of the
    /// dictionary opens is refused before anything is written; with its key every NDEF sector and the MAD are frozen.
    @Test func lockMakesTheNDEFSectorsAndTheMADReadOnlyForGood() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "c.json", uid: "C0FFEE0F", ["--text", "keep me"])
        let device = ["--device", "sim:c.json"]
        let unconfirmed = try ws.run(["lock"] + device)
        #expect(unconfirmed.status == 1)
        #expect(unconfirmed.stderr.contains("--yes"))
        // Sector 3 gets a key B no dictionary has (key A stays the NFC Forum key, GPB 40: read/write).
        let rekey = try ws.run(
            [
                "classic", "trailer", "--sector", "3", "--key-type", "b", "--key", Self.ff, "--new-key-a",
                "D3F7D3F7D3F7", "--new-key-b", "665544332211", "--access", "0,0,0,3", "--gpb", "40",
            ] + device)
        #expect(rekey.status == 0, "\(rekey.stderr)")
        let before = try ws.run(["tag", "show", "c.json"]).stdout
        let refused = try ws.run(["lock", "--yes"] + device)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "no known key B opens NDEF sector 3 (its trailer, block 15, is written with key B); nothing was locked")
        )
        #expect(try ws.run(["tag", "show", "c.json"]).stdout == before)
        try "665544332211\n".write(toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let locked = try ws.run(["lock", "--yes", "--keys", "keys.txt"] + device)
        #expect(locked.status == 0, "\(locked.stderr)")
        #expect(locked.stderr == "Locked mifare-classic C0FFEE0F: the NDEF message is now read-only for good.\n")
        let shown = try ws.run(["tag", "show", "c.json"]).stdout
        #expect(shown.contains("Sector 0: key A A0A1A2A3A4A5 key B FFFFFFFFFFFF access 078F0F"))
        #expect(shown.contains("GPB C1"))
        #expect(shown.contains("Sector 1: key A D3F7D3F7D3F7 key B FFFFFFFFFFFF access 078F0F"))
        #expect(shown.contains("Sector 3: key A D3F7D3F7D3F7 key B 665544332211 access 078F0F"))
        #expect(shown.contains("Sector 15: key A D3F7D3F7D3F7 key B FFFFFFFFFFFF access 078F0F"))
        let read = try ws.run(["read"] + device)
        #expect(read.stdout.contains("keep me"))
        #expect(read.stdout.contains("read-only"))
        let write = try ws.run(["write", "--text", "changed"] + device)
        #expect(write.status == 1)
        #expect(write.stderr.contains("read-only"))
        // The trailers are frozen: not even 'classic format' puts the sectors back.
        let format = try ws.run(["classic", "format", "--keys", "keys.txt"] + device)
        #expect(format.status == 1)
        #expect(format.stderr.contains("Sector 1: kept: its access bits (trailer condition 110)"))
        #expect(try ws.run(["read"] + device).stdout.contains("keep me"))
        // --keys belongs to a Classic.
        let ntag = try ws.run(["tag", "new", "--chip", "ntag215", "--text", "n", "-o", "n.json"])
        #expect(ntag.status == 0)
        #expect(try ws.run(["lock", "--yes", "--keys", "keys.txt", "--device", "sim:n.json"]).status == 64)
    }

    /// A key the dump did not learn stays unknown: `??` in the tag file and the Flipper file, "?" in `tag show`, no
    /// authentication with it on `sim:`; `restore` keeps the card's own key there, or refuses naming the sector.
    @Test func unknownKeysStayUnknownAndRestoreKeepsTheCardsKey() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "src.json", uid: "C0FFEE10", ["--text", "half known"])
        // Sector 2's key B becomes one no dictionary has (not readable: trailer condition 011); key A stays D3F7….
        let rekey = [
            "classic", "trailer", "--sector", "2", "--key-type", "b", "--key", Self.ff, "--new-key-a", "D3F7D3F7D3F7",
            "--access", "0,0,0,3", "--gpb", "40",
        ]
        #expect(try ws.run(rekey + ["--new-key-b", "665544332211", "--device", "sim:src.json"]).status == 0)
        let dumped = try ws.run(["dump", "-o", "d.json", "--device", "sim:src.json"])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        #expect(
            try ws.run(["tag", "show", "d.json"]).stdout.contains("Sector 2: key A D3F7D3F7D3F7 key B ? (unknown)"))
        let text = try String(contentsOfFile: ws.path("d.json"), encoding: .utf8)
        #expect(text.contains("\"D3 F7 D3 F7 D3 F7 7F 07 88 40 ?? ?? ?? ?? ?? ??\""))
        #expect(try ws.run(["tag", "convert", "d.json", "d.nfc"]).status == 0)
        let nfc = try String(contentsOfFile: ws.path("d.nfc"), encoding: .utf8)
        #expect(nfc.contains("Block 11: D3 F7 D3 F7 D3 F7 7F 07 88 40 ?? ?? ?? ?? ?? ??\n"))
        #expect(try ws.run(["tag", "convert", "d.nfc", "back.json"]).status == 0)
        #expect(try String(contentsOfFile: ws.path("back.json"), encoding: .utf8) == text)
        // No key opens an unknown key's slot on the simulated card, zeros included.
        let zeros = try ws.run([
            "classic", "auth", "--sector", "2", "--key-type", "b", "--key", "000000000000", "--device", "sim:d.json",
        ])
        #expect(zeros.status == 1)
        // Restore onto a fresh card keeps the card's key B (FFFFFFFFFFFF) in sector 2 instead of writing zeros.
        try newCard(ws, "dst.json", uid: "C0FFEE11")
        let restored = try ws.run(["restore", "d.json", "--device", "sim:dst.json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        let clone = try ws.run(["tag", "show", "dst.json"]).stdout
        #expect(clone.contains("Sector 2: key A D3F7D3F7D3F7 key B FFFFFFFFFFFF access 7F0788"))
        #expect(try ws.run(["read", "--device", "sim:dst.json"]).stdout.contains("half known"))
        // A card whose key B no key tried opens: refused before anything is written, naming sector and block.
        try newCard(ws, "dst2.json", uid: "C0FFEE12")
        let secret = [
            "classic", "trailer", "--sector", "2", "--key", Self.ff, "--new-key-a", Self.ff, "--new-key-b",
            "112233445566", "--access", "0,0,0,3", "--device", "sim:dst2.json",
        ]
        #expect(try ws.run(secret).status == 0)
        let before = try ws.run(["tag", "show", "dst2.json"]).stdout
        let refused = try ws.run(["restore", "d.json", "--device", "sim:dst2.json"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "sector 2 (trailer block 11): the dump does not know key B and no key tried opens the card's, so it "
                    + "cannot be kept; nothing was written"))
        #expect(try ws.run(["tag", "show", "dst2.json"]).stdout == before)
        try "112233445566\n".write(toFile: ws.path("k.txt"), atomically: true, encoding: .utf8)
        let kept = try ws.run(["restore", "d.json", "--keys", "k.txt", "--device", "sim:dst2.json"])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(
            try ws.run(["tag", "show", "dst2.json"]).stdout.contains(
                "Sector 2: key A D3F7D3F7D3F7 key B 112233445566 access 7F0788"))
    }

    @Test func formatGoesBackToTransportOrToNDEF() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "c.json", uid: "C0FFEE08", ["--text", "old"])
        let reset = try ws.run(["classic", "format", "--device", "sim:c.json"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stderr.contains("Sector 0: transport configuration (opened with key B FFFFFFFFFFFF)"))
        let shown = try ws.run(["tag", "show", "c.json"])
        #expect(shown.stdout.contains("Sector 1: key A FFFFFFFFFFFF key B FFFFFFFFFFFF access FF0780"))
        #expect(try ws.run(["read", "--device", "sim:c.json"]).status == 1)
        let ndef = try ws.run(["classic", "format", "--ndef", "--device", "sim:c.json"])
        #expect(ndef.status == 0, "\(ndef.stderr)")
        #expect(ndef.stderr.hasSuffix("NFC formatted: MAD in sector 0, NDEF (03 E1) in sectors 1-15, empty message.\n"))
        #expect(try ws.run(["write", "--text", "new", "--device", "sim:c.json"]).status == 0)
        #expect(try ws.run(["read", "--device", "sim:c.json"]).stdout.contains("new"))
    }

    @Test func block0OfMagicCardsOnly() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "gen2.json", uid: "C0FFEE09", magic: "gen2")
        try newCard(ws, "gen1a.json", uid: "C0FFEE0A", magic: "gen1a")
        try newCard(ws, "genuine.json", uid: "C0FFEE0B")
        let unconfirmed = try ws.run(["classic", "block0", "--uid", "11223344", "--device", "sim:gen2.json"])
        #expect(unconfirmed.status == 1)
        #expect(unconfirmed.stderr.contains("repeat with --yes"))
        let gen2 = try ws.run(["classic", "block0", "--uid", "11223344", "--yes", "--device", "sim:gen2.json"])
        #expect(
            gen2.stderr == "Block 0 written (gen2 write with key A): 11 22 33 44 44 08 04 00 62 63 64 65 66 67 68 69.\n"
        )
        #expect(try ws.run(["tag", "show", "gen2.json"]).stdout.contains("UID: 11 22 33 44"))
        let gen1a = try ws.run(["classic", "block0", "--uid", "55667788", "--yes", "--device", "sim:gen1a.json"])
        #expect(gen1a.stderr.hasPrefix("Block 0 written (gen1a backdoor): 55 66 77 88 CC 08 04 00"))
        let genuine = try ws.run(["classic", "block0", "--uid", "11223344", "--yes", "--device", "sim:genuine.json"])
        #expect(genuine.status == 1)
        #expect(genuine.stderr.contains("neither a gen1a nor a gen2/CUID magic card"))
        let badBCC = try ws.run([
            "classic", "block0", "--data", "11223344000804006263646566676869", "--yes", "--device", "sim:gen2.json",
        ])
        #expect(badBCC.status == 64)
        #expect(badBCC.stderr.contains("BCC 44"))
    }

    @Test func dumpWithKeysAndRestoreOntoAMagicCard() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "src.json", uid: "C0FFEE04", ["--text", "dump me"])
        try newCard(ws, "dst.json", uid: "C0FFEE05", magic: "gen2")
        // Sector 2 gets keys no dictionary has.
        let secret = try ws.run([
            "classic", "trailer", "--sector", "2", "--key-type", "b", "--key", Self.ff, "--new-key-a", "112233445566",
            "--new-key-b", "665544332211", "--access", "0,0,0,3", "--device", "sim:src.json",
        ])
        #expect(secret.status == 0, "\(secret.stderr)")
        let listing = try ws.run(["dump", "--device", "sim:src.json"])
        #expect(listing.stdout.contains("Sector 1: key A D3F7D3F7D3F7, key B FFFFFFFFFFFF"))
        #expect(listing.stdout.contains("Sector 2: key A ?, key B ?"))
        #expect(
            listing.stdout.contains(
                "08  \(String(repeating: "-- ", count: 15))--" + String(repeating: " ", count: 20)
                    + "sector 2: not read (no key)"))
        #expect(
            listing.stdout.contains(
                "Sectors not read (no key of the dictionary opens them; give theirs with --keys FILE): 2"))
        let partial = try ws.run(["dump", "-o", "partial.json", "--device", "sim:src.json"])
        #expect(partial.status == 0, "\(partial.stderr)")
        #expect(partial.stderr.contains("Sectors not read"))
        try "112233445566\n665544332211\n".write(toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let full = try ws.run(["dump", "--keys", "keys.txt", "-o", "backup.json", "--device", "sim:src.json"])
        #expect(full.stderr == "Saved mifare-classic-1k C0FFEE04 (64 blocks, keys in the trailers) to backup.json.\n")
        #expect(
            try ws.run(["tag", "show", "backup.json"]).stdout.contains(
                "Sector 2: key A 112233445566 key B 665544332211"))
        let restored = try ws.run(["restore", "backup.json", "--block0", "--device", "sim:dst.json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(
            restored.stderr.hasPrefix(
                "Restored 'backup.json' to MIFARE Classic C0FFEE05: 64 blocks written, block 0 by gen2"))
        // The clone: same block 0 (UID), same keys, same message.
        let clone = try ws.run(["tag", "show", "dst.json"]).stdout
        #expect(clone.contains("UID: C0 FF EE 04"))
        #expect(clone.contains("Sector 2: key A 112233445566 key B 665544332211 access 7F0788"))
        #expect(try ws.run(["read", "--device", "sim:dst.json"]).stdout.contains("dump me"))
        // A partial dump restores what it read and says what it skipped.
        try newCard(ws, "dst2.json", uid: "C0FFEE0C")
        let some = try ws.run(["restore", "partial.json", "--device", "sim:dst2.json"])
        #expect(some.status == 0, "\(some.stderr)")
        #expect(some.stderr.contains("Sectors skipped (not read in the dump): 2"))
        #expect(some.stderr.contains("Block 0 (UID) not written"))
        let badKeys = try ws.run(["dump", "--keys", "bad.txt", "--device", "sim:src.json"])
        #expect(badKeys.status == 1)
        try "FFFFFFFFFFFF\nzz\n".write(toFile: ws.path("bad.txt"), atomically: true, encoding: .utf8)
        let bad = try ws.run(["dump", "--keys", "bad.txt", "--device", "sim:src.json"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("bad.txt:2: expected a 6-byte key as 12 hex digits, found 'zz'"))
    }
}
extension MifareClassicCLITests {
    /// `opennfc emulate` presenting a Classic through the real pcscd; `classic`, `dump --keys` and `restore` against
    /// it as against any PC/SC reader.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1",
            "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running (scripts/test starts it)"))
    func classicCommandsAndDumpThroughPCSC() throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newCard(ws, "card.json", uid: "C0FFEE0D", ["--text", "over pcsc"])
        let (emulator, _) = try CLIRunner.start(["emulate", "--slot", "1", "--save", ws.path("card.json")])
        defer { if emulator.isRunning { emulator.terminate() } }
        let device = ["--device", "pcsc:00 01"]
        let read = try CLIRunner.firstAgainstEmulated { try ws.run(["read"] + device) }
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("over pcsc"))
        let key = ["--key", Self.ff] + device
        let w = try ws.run(
            ["classic", "write", "--block", "8", "--data", "0102030405060708090A0B0C0D0E0F10", "--key-type", "b"] + key)
        #expect(w.status == 0, "\(w.stderr)")
        let r = try ws.run(["classic", "read", "--block", "8", "--key", "D3F7D3F7D3F7"] + device)
        #expect(r.stdout == "  8  01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10\n", "\(r.stderr)")
        #expect(
            try ws.run(["classic", "value", "--block", "9", "--set", "50", "--key-type", "b"] + key).stdout
                == "Block 9: value 50.\n")
        #expect(
            try ws.run(["classic", "value", "--block", "9", "--dec", "8", "--key-type", "b"] + key).stdout
                == "Block 9: value 42.\n")
        #expect(
            try ws.run(["classic", "value", "--block", "9", "--restore", "--to", "10", "--key-type", "b"] + key).stdout
                == "Block 10: value 42.\n")
        let dumped = try ws.run(["dump", "-o", "copy.json"] + device)
        #expect(dumped.status == 0, "\(dumped.stderr)")
        #expect(
            try ws.run(["tag", "show", "copy.json"]).stdout.contains("Sector 1: key A D3F7D3F7D3F7 key B FFFFFFFFFFFF"))
        emulator.terminate()
        emulator.waitUntilExit()
        #expect(emulator.terminationStatus == 0)
        let saved = try ws.run([
            "classic", "value", "--block", "10", "--key-type", "b", "--key", Self.ff, "--device", "sim:card.json",
        ])
        #expect(saved.stdout == "Block 10: value 42.\n")
    }
}
