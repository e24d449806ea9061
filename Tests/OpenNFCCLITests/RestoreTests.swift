import Foundation
import Testing

/// `opennfc restore`: a dump's user memory onto a tag of the same chip, in a tear-safe order.
@Suite struct RestoreTests {
    @Test func restoresOntoTheSameChipInATearSafeOrder() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let source = try ws.tag("src.json", TagFixture.ntag213, message: TagFixture.uriMessage("dump.example"))
        #expect(try ws.run(["dump", "-o", "backup.nfc", "--device", "sim:\(source)"]).status == 0)
        try TagFixture.write(
            TagFixture.json(TagFixture.ntag213, uid: [0x04, 1, 2, 3, 4, 5, 6]), to: ws.dir, name: "dst.json")
        let r = try ws.run(["restore", "backup.nfc", "--trace", "--device", "sim:dst.json"])
        #expect(r.status == 0)
        #expect(
            r.stderr.contains("Restored the user memory of 'backup.nfc' to ntag213 04010203040506: 8 page writes.\n"))
        let writes = r.stderr.split(separator: "\n").filter { $0.hasPrefix("> A2") }.map { String($0.prefix(14)) }
        // Page 4 becomes an empty NDEF TLV first and gets its saved value (the Lock Control TLV) last.
        #expect(writes.first == "> A2040300FE00")
        #expect(writes.last == "> A2040103A00C")
        #expect(writes.count == 8)
        let read = try ws.run(["read", "--raw", "--device", "sim:dst.json"])
        #expect(read.stdout == "D1010D550464756D702E6578616D706C65\n")
        let again = try ws.run(["restore", "backup.nfc", "--device", "sim:dst.json"])
        #expect(
            again.stderr == "ntag213 04010203040506 already holds the user memory of 'backup.nfc'; nothing written.\n")
    }

    @Test(arguments: [("1k", 234, 600), ("2k", 512, 1500)])
    func ntagI2CPlusDumpsToATagFileAndRestores(size: String, pages: Int, textLength: Int) throws {
        // The whole memory as the chip has it: sector 0 through E9h (PT_I2C and the configuration registers after
        // PACK), and for the 2k sector 1 too, whose message here runs past sector 0 into it.
        let ws = try Workspace()
        defer { ws.cleanup() }
        let chip = "ntag-i2c-plus-\(size)"
        let text = String(repeating: "i2c ", count: textLength / 4)
        let made = try ws.run(["tag", "new", "--chip", chip, "--uid", "04A1A2A3A4A5A6", "--text", text, "-o", "s.json"])
        #expect(made.status == 0, "\(made.stderr)")
        let empty = try ws.run(["tag", "new", "--chip", chip, "--uid", "04010203040506", "-o", "d.json"])
        #expect(empty.status == 0, "\(empty.stderr)")
        let dump = try ws.run(["dump", "-o", "backup.json", "--device", "sim:s.json"])
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(dump.stderr.contains("Saved \(chip) 04A1A2A3A4A5A6 (\(pages) pages) to backup.json.\n"))
        let r = try ws.run(["restore", "backup.json", "--device", "sim:d.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let original = try ws.run(["read", "--raw", "--device", "sim:s.json"])
        #expect(original.status == 0)
        #expect(try ws.run(["read", "--raw", "--device", "sim:d.json"]).stdout == original.stdout)
        #expect(try ws.run(["read", "--raw", "--device", "sim:backup.json"]).stdout == original.stdout)
    }

    @Test func refusesAnotherChipAndBadFiles() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let source = try ws.tag("src.json", TagFixture.ntag213, message: TagFixture.uriMessage("a.example"))
        #expect(try ws.run(["dump", "-o", "backup.json", "--device", "sim:\(source)"]).status == 0)
        let other = try ws.tag("other.json", TagFixture.ntag215)
        let before = try TagFixture.bytes(ws.path(other))
        let r = try ws.run(["restore", "backup.json", "--device", "sim:\(other)"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "Error: 'backup.json' is a dump of ntag213, but the tag in the field is ntag215 (UID "
                + "04A1B2C3D4E5F6); restore writes only to the same chip\n")
        #expect(try TagFixture.bytes(ws.path(other)) == before)
        let missing = try ws.run(["restore", "none.json", "--device", "sim:\(other)"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("Error: "))
        #expect(missing.stderr.contains("none.json"))
        let noArg = try ws.run(["restore", "--device", "sim:\(other)"])
        #expect(noArg.status == 64)
        #expect(noArg.stderr.hasPrefix("Error: missing expected argument '<file>'\n"))
        let t4 = try ws.run(["tag", "new", "--chip", "type4", "--uid", "04112233445566", "-o", "t4.json"])
        #expect(t4.status == 0)
        let wrong = try ws.run(["restore", "t4.json", "--device", "sim:\(other)"])
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr.hasPrefix("Error: 't4.json' is a dump of a type4 tag, but the tag in the field is ntag215 ("))
        #expect(wrong.stderr.split(separator: "\n").count == 1)
    }

    @Test func aLockedCapabilityContainerCannotBeUndone() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let source = try ws.tag("src.json", TagFixture.ntag213, message: TagFixture.uriMessage("a.example"))
        #expect(try ws.run(["dump", "-o", "open.json", "--device", "sim:\(source)"]).status == 0)
        #expect(try ws.run(["lock", "--yes", "--device", "sim:\(source)"]).status == 0)
        let r = try ws.run(["restore", "open.json", "--device", "sim:\(source)"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: cannot restore the memory: the tag's capability container E1 10 12 0F"))
    }
}
