import Foundation
import Testing

/// `opennfc lock`: refuses without --yes, then locks for good.
@Suite struct LockTests {
    @Test func lockRefusesWithoutYesThenLocksForGood() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("final.example"))
        let before = try TagFixture.bytes(ws.path(file))
        let no = try ws.run(["lock", "--device", "sim:\(file)"])
        #expect(no.status == 1)
        #expect(
            no.stderr
                == "Error: locking makes the tag read-only for good and cannot be undone; run again with --yes to "
                + "lock it\n")
        #expect(try TagFixture.bytes(ws.path(file)) == before)

        let yes = try ws.run(["lock", "--yes", "--device", "sim:\(file)"])
        #expect(yes.status == 0)
        #expect(yes.stderr == "Locked ntag213 04A1B2C3D4E5F6: the NDEF message is now read-only for good.\n")
        let r = try ws.run(["read", "--device", "sim:\(file)"])
        #expect(r.stdout.contains("NDEF:     read-only, "))
        #expect(r.stdout.hasSuffix("  URI: https://final.example\n"))
        let w = try ws.run(["write", "--uri", "https://other.example", "--device", "sim:\(file)"])
        #expect(w.status == 1)
        #expect(w.stderr == "Error: the tag (ntag213, UID 04A1B2C3D4E5F6) is read-only: it cannot be written\n")
        let f = try ws.run(["format", "--device", "sim:\(file)"])
        #expect(f.status == 1)
        #expect(f.stderr.hasPrefix("Error: cannot format the tag: "))
    }
}
