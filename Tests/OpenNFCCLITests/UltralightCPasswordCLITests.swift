import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc password auth|set|remove --key` on a MIFARE Ultralight C (MF0ICU2 3DES authentication, AUTH0/AUTH1, key
/// pages), and `read`/`write`/`dump --key` reaching its protected pages: on `sim:` and, as a binary, over the real
/// pcscd against `opennfc emulate --save` of an Ultralight C tag file.
@Suite struct UltralightCPasswordCLITests {
    static let factory = "49454D4B41455242214E4143554F5946"
    static let key = "000102030405060708090A0B0C0D0E0F"

    func newTag(_ ws: Workspace, _ name: String) throws {
        let made = try ws.run([
            "tag", "new", "--chip", "ultralight-c", "--uid", "04C1C2C3C4C5C6", "--text", "ticket 1", "-o", name,
        ])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// The whole life of a key, run on any device string: set, refuse without it, read/write/dump with it, remove.
    func keyLifecycle(_ ws: Workspace, device: [String], first: Bool = false) throws {
        let check = { try ws.run(["password", "auth", "--key", Self.factory] + device) }
        let factory = first ? try CLIRunner.firstAgainstEmulated(check) : try check()
        #expect(factory.status == 0, "\(factory.stderr)")
        #expect(factory.stdout == "3DES key accepted by mifare-ultralight-c 04C1C2C3C4C5C6 (mutual authentication).\n")
        let set = try ws.run(
            ["password", "set", "--key", Self.key, "--from-page", "4", "--protect-reads"] + device)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(
            set.stdout
                == "3DES key set on mifare-ultralight-c 04C1C2C3C4C5C6: pages 4–47 need it for reading and writing; "
                + "it counts from the next activation.\n")
        // From the next activation on, the old key is refused and the pages need the new one.
        let old = try ws.run(["password", "auth", "--key", Self.factory] + device)
        #expect(old.status == 1)
        #expect(old.stderr.contains("refused the key 49454D4B41455242214E4143554F5946: it has another 3DES key"))
        // Without the key the READ of page 3 wraps at AUTH0 to page 0: the reader notices and names the protected page
        // rather than calling the tag unformatted.
        let locked = try ws.run(["read"] + device)
        #expect(locked.status == 1)
        #expect(locked.stderr.contains("page 4"), "\(locked.stderr)")
        #expect(!locked.stderr.contains("not NDEF formatted"), "\(locked.stderr)")
        let read = try ws.run(["read", "--key", Self.key] + device)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("ticket 1"))
        let write = try ws.run(["write", "--text", "ticket 2", "--key", Self.key] + device)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout.contains("read back and verified"))
        // A dump with the key reads every page and saves the key (which never reads back) in pages 2Ch–2Fh.
        let dump = try ws.run(["dump", "--key", Self.key, "-o", "copy.json"] + device)
        #expect(dump.status == 0, "\(dump.stderr)")
        let shown = try ws.run(["tag", "show", "copy.json"]).stdout
        #expect(shown.contains("AUTH0 04h"))
        #expect(shown.contains("key \(Self.key)"))
        #expect(try ws.run(["read", "--key", Self.key, "--device", "sim:copy.json"]).stdout.contains("ticket 2"))
        // An NTAG password option on an Ultralight C, and a wrong-length key, say what to give instead.
        let ntag = try ws.run(["password", "auth", "--password", "12345678"] + device)
        #expect(ntag.status == 1)
        #expect(ntag.stderr.contains("it authenticates with a 16-byte 3DES key, give --key"))
        #expect(try ws.run(["password", "auth", "--key", "0011"] + device).status == 64)
    }

    @Test func keySetCheckedUsedAndRemovedOnSim() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newTag(ws, "c.json")
        let device = ["--device", "sim:c.json"]
        try keyLifecycle(ws, device: device)
        // The key pages and AUTH0 need the current key once protected: without --current-key the write is refused.
        let noCurrent = try ws.run(["password", "set", "--key", Self.factory] + device)
        #expect(noCurrent.status == 1)
        let changed = try ws.run(
            ["password", "set", "--key", Self.factory, "--current-key", Self.key, "--from-page", "16"] + device)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("pages 16–47 need it for writing"))
        #expect(try ws.run(["read"] + device).stdout.contains("ticket 2"))  // writes only are protected now
        let removed = try ws.run(["password", "remove", "--key", Self.factory] + device)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(
            try ws.run(["tag", "show", "c.json"]).stdout.contains("AUTH0 30h (no protection), key \(Self.factory)"))
        // --key on another chip.
        let ntag = try ws.run(["tag", "new", "--chip", "ntag215", "-o", "n.json"])
        #expect(ntag.status == 0)
        let other = try ws.run(["read", "--key", Self.key, "--device", "sim:n.json"])
        #expect(other.status == 1)
        #expect(other.stderr.contains("--key is the 3DES key of a MIFARE Ultralight C"))
    }

    /// As a binary over pcscd: `opennfc emulate` presents the Ultralight C on the vsmartcard reader, where the
    /// profile probe chooses the ACR122U pass-through (`FF 00 00 00 Lc D4 42 …`, PN532 InCommunicateThru) and the
    /// 3DES frames travel in it; `--save` writes the new key, AUTH0 and message back to the tag file. With
    /// `emulate --reader pcsc` (no ACS forms, as a PC/SC 2.02 reader of another maker) the same frames travel in the
    /// PC/SC 2.02 transparent session (`FF C2`).
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1",
            "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running (scripts/test starts it)"),
        arguments: ["acs", "pcsc"])
    func keyLifecycleThroughPCSCAndSave(reader: String) throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newTag(ws, "card.json")
        let (emulator, _) = try CLIRunner.start([
            "emulate", "--slot", "1", "--reader", reader, "--save", ws.path("card.json"),
        ])
        defer { if emulator.isRunning { emulator.terminate() } }
        let device = ["--device", "pcsc:00 01"]
        try keyLifecycle(ws, device: device, first: true)
        let traced = try ws.run(["password", "auth", "--key", Self.key, "--trace"] + device)
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(traced.stderr.contains("AUTHENTICATE (Ultralight C, 3DES) part 1"))
        emulator.terminate()
        emulator.waitUntilExit()
        #expect(emulator.terminationStatus == 0)
        let saved = try ws.run(["tag", "show", "card.json"]).stdout
        #expect(saved.contains("AUTH0 04h"))
        #expect(saved.contains("key \(Self.key)"))
        #expect(try ws.run(["read", "--device", "sim:card.json"]).status == 1)
        #expect(try ws.run(["read", "--key", Self.key, "--device", "sim:card.json"]).stdout.contains("ticket 2"))
    }
}
