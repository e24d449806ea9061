import Foundation
import Testing

/// The `opennfc` binary with Type 1 (Topaz) tags on `sim:`: tag files, NDEF commands, dump/restore, raw frames.
@Suite struct Type1CLITests {
    func newTag(_ ws: Workspace, _ name: String, chip: String = "topaz512") throws -> String {
        let r = try ws.run(["tag", "new", "--chip", chip, "--uid", "11223344", "-o", name])
        #expect(r.status == 0, "\(r.stderr)")
        return ws.path(name)
    }

    @Test func tagNewShowAndConvert() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json")
        let show = try ws.run(["tag", "show", file])
        #expect(show.status == 0)
        #expect(show.stdout.contains("Product: Topaz 512, 64 blocks (512 bytes), HR0 12 HR1 4C, UID0-6 11223344000000"))
        #expect(show.stdout.contains("Capability container: E1 10 3F 00: NDEF mapping 1.0, 512-byte memory"))
        let small = try newTag(ws, "s.json", chip: "topaz96")
        #expect(try ws.run(["tag", "show", small]).stdout.contains("HR0 11 HR1 48"))
        // Flipper's documented formats have no Type 1 device type.
        let nfc = try ws.run(["tag", "convert", file, ws.path("t.nfc")])
        #expect(nfc.status == 1)
        #expect(nfc.stderr.contains("not 'topaz512'"))
        let bad = try ws.run(["tag", "new", "--chip", "topaz512", "--uid", "112233", "-o", "b.json"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("topaz512 has a 7 or 4-byte UID, not 3 bytes"))
    }

    /// The Topaz datasheets' block 0 holds UID0–UID6: `tag new` takes the whole 7-byte UID (as the factory does),
    /// the activation and the tag file's root `uid` stay UID0–UID3 (what RID reports), and both sides refuse the
    /// same lengths with the same words; a random UID has all 7 bytes.
    @Test func aTopazTakesItsSevenByteUIDAsTheFactoryDoes() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let r = try ws.run(["tag", "new", "--chip", "topaz512", "--uid", "11223344556677", "-o", "t.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let show = try ws.run(["tag", "show", ws.path("t.json")])
        #expect(show.stdout.contains("UID0-6 11223344556677"), "\(show.stdout)")
        let random = try ws.run(["tag", "new", "--chip", "topaz96", "-o", "r.json"])
        #expect(random.status == 0, "\(random.stderr)")
        let line = try ws.run(["tag", "show", ws.path("r.json")]).stdout.split(separator: "\n").first {
            $0.contains("UID0-6")
        }
        let uid = line.flatMap { $0.split(separator: " ").last }.map(String.init) ?? ""
        #expect(uid.count == 14 && !uid.hasSuffix("000000"), "\(line ?? "")")
        let five = try ws.run(["tag", "new", "--chip", "topaz512", "--uid", "1122334455", "-o", "b.json"])
        #expect(five.status == 64)
        #expect(five.stderr.contains("topaz512 has a 7 or 4-byte UID, not 5 bytes"))
    }

    @Test(arguments: ["topaz512", "topaz96"])
    func writeReadLockFormat(chip: String) throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json", chip: chip)
        let w = try ws.run(["write", "--uri", "https://topaz.example/1", "--device", "sim:\(file)"])
        #expect(w.status == 0, "\(w.stderr)")
        let r = try ws.run(["read", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("https://topaz.example/1"))
        let traced = try ws.run(["read", "--trace", "--device", "sim:\(file)"])
        #expect(traced.stderr.contains("RALL (UID 11223344)"))
        let f = try ws.run(["format", "--device", "sim:\(file)"])
        #expect(f.status == 0, "\(f.stderr)")
        let tlv = chip == "topaz512" ? 22 : 12
        #expect(try ws.run(["tag", "show", file]).stdout.contains("TLV 03h at byte \(tlv): 0 bytes"))
        #expect(try ws.run(["write", "--text", "kept", "--device", "sim:\(file)"]).status == 0)
        let l = try ws.run(["lock", "--yes", "--device", "sim:\(file)"])
        #expect(l.status == 0, "\(l.stderr)")
        let again = try ws.run(["write", "--text", "no", "--device", "sim:\(file)"])
        #expect(again.status == 1)
        #expect(try ws.run(["read", "--device", "sim:\(file)"]).stdout.contains("kept"))
        #expect(try ws.run(["tag", "show", file]).stdout.contains("Locked blocks: 01h"))
    }

    @Test func dumpAndRestore() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let src = try newTag(ws, "src.json")
        #expect(
            try ws.run(["write", "--text", String(repeating: "t", count: 300), "--device", "sim:\(src)"]).status == 0)
        let listing = try ws.run(["dump", "--device", "sim:\(src)"])
        #expect(listing.status == 0)
        #expect(listing.stdout.hasPrefix("Tag:      type1, UID 11223344, HR0 12 HR1 4C, 64 blocks\n00  11 22 33 44"))
        #expect(listing.stdout.contains("0E  00 00 00 00 00 00 00 00  ........  LOCK0-1, OTP0-5"))
        let d = try ws.run(["dump", "-o", "copy.json", "--device", "sim:\(src)"])
        #expect(d.stderr == "Saved topaz512 11223344 (64 blocks) to copy.json.\n")
        let blank = try newTag(ws, "blank.json")
        let rs = try ws.run(["restore", "copy.json", "--device", "sim:\(blank)"])
        #expect(rs.status == 0, "\(rs.stderr)")
        #expect(rs.stderr.hasPrefix("Restored the data blocks of 'copy.json' to topaz512 11223344:"))
        #expect(try ws.run(["read", "--device", "sim:\(blank)"]).stdout.contains(String(repeating: "t", count: 300)))
        let again = try ws.run(["restore", "copy.json", "--device", "sim:\(blank)"])
        #expect(again.stderr.contains("nothing written"))
        let other = try newTag(ws, "small.json", chip: "topaz96")
        let refused = try ws.run(["restore", "copy.json", "--device", "sim:\(other)"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is a dump of topaz512"))
    }

    @Test func sendDecodesType1Frames() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json")
        let r = try ws.run(["send", "78000000000000", "01080011223344", "5318AB11223344", "--device", "sim:\(file)"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout == """
                124C11223344  # HR0 12 HR1 4C, UID0-3 11223344
                08E1
                18AB  # stored

                """)
        let t = try CLIRunner.run(
            ["tag", "send", file, "-"], stdin: Data("ACTIVATE\n02 01 0000000000000000 11223344\n".utf8))
        #expect(t.stdout == "UID 11223344 ATQA 0C00 HR 124C\n01E1103F000103F230\n")
    }
}
