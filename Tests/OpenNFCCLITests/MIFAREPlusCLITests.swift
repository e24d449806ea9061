import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc tag new|show`, `dump --keys` and `restore` on a MIFARE Plus through `sim:`, running the binary.
@Suite struct MIFAREPlusCLITests {
    /// A new chip (SL0, as NXP ships it) turned into an SL3 card by editing its tag file.
    func newSL3Card(_ ws: Workspace, _ name: String, chip: String = "mifare-plus-ev1-2k", uid: String) throws {
        let made = try ws.run(["tag", "new", "--chip", chip, "--uid", uid, "-o", name])
        #expect(made.status == 0, "\(made.stderr)")
        let path = ws.path(name)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"securityLevel\": 0"))
        try text.replacingOccurrences(of: "\"securityLevel\": 0", with: "\"securityLevel\": 3")
            .write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func newChipsOfEveryKindShowTheirLevelAndSignature() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        for (chip, uid, sectors) in [
            ("mifare-plus-ev1-2k", "04112233445566", 32), ("mifare-plus-ev2-4k", "04112233445566", 40),
            ("mifare-plus-ev1-4k-4b", "0FB2C3D4", 40),
        ] {
            let made = try ws.run(["tag", "new", "--chip", chip, "--uid", uid, "-o", "\(chip).json"])
            #expect(made.status == 0, "\(made.stderr)")
            let shown = try ws.run(["tag", "show", "\(chip).json"]).stdout
            #expect(shown.contains("security level 0"), "\(shown)")
            #expect(shown.contains("valid for the simulator's test key"))
            #expect(shown.contains("Sector \(sectors - 1): AES key A FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"))
        }
        let ndef = try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--text", "x", "-o", "n.json"])
        #expect(ndef.status != 0 && ndef.stderr.contains("security level 0"))
        let short = try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "A1B2C3D4", "-o", "s.json"])
        #expect(short.status == 64 && short.stderr.contains("7-byte UID"))
    }

    @Test func dumpWithAKeyFileThenRestore() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newSL3Card(ws, "src.json", uid: "04A1B2C3D4E5F6")
        // Sector 1's keys become the MAD key; a Write puts data into block 4 through the dump/restore path.
        let path = ws.path("src.json")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let mad = "00112233445566778899AABBCCDDEEFF"  // in no default list
        text = text.replacingOccurrences(
            of: "\"4002\": \"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"", with: "\"4002\": \"\(mad)\"")
        text = text.replacingOccurrences(
            of: "\"4003\": \"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"", with: "\"4003\": \"\(mad)\"")
        let zero = String(repeating: "00 ", count: 15) + "00"
        if let r = text.range(of: "\"\(zero)\"") {
            // block 1: the first all-zero data block
            text.replaceSubrange(r, with: "\"" + String(repeating: "42 ", count: 15) + "42\"")
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try "# sector 1\n\(mad)\n".write(toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let listed = try ws.run(["dump", "--keys", "keys.txt", "--device", "sim:src.json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("MIFARE Plus EV1 2K, UID 04A1B2C3D4E5F6, security level 3"))
        #expect(listed.stdout.contains("Sector 1: AES key A \(mad), key B \(mad)"))
        let saved = try ws.run(["dump", "--keys", "keys.txt", "-o", "d.json", "--device", "sim:src.json"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let shown = try ws.run(["tag", "show", "d.json"]).stdout
        #expect(shown.contains("Card keys: 9000 ? (unknown)"))
        // Without the key file sector 1 stays closed.
        let closed = try ws.run(["dump", "--device", "sim:src.json"])
        #expect(closed.stdout.contains("Sectors not read") && closed.stdout.contains(": 1\n"))
        try newSL3Card(ws, "dst.json", uid: "04010203040506")
        var dst = try String(contentsOfFile: ws.path("dst.json"), encoding: .utf8)
        dst = dst.replacingOccurrences(
            of: "\"4003\": \"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"", with: "\"4003\": \"\(mad)\"")
        try dst.write(toFile: ws.path("dst.json"), atomically: true, encoding: .utf8)
        let restored = try ws.run(["restore", "d.json", "--device", "sim:dst.json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stderr.contains("95 data blocks written"), "\(restored.stderr)")
        #expect(
            try String(contentsOfFile: ws.path("dst.json"), encoding: .utf8).contains(
                String(repeating: "42 ", count: 15) + "42"))
        // A card in SL0 cannot take data.
        #expect(
            try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "04999999999999", "-o", "sl0.json"])
                .status == 0)
        let refused = try ws.run(["restore", "d.json", "--device", "sim:sl0.json"])
        #expect(refused.status != 0 && refused.stderr.contains("security level 0"))
    }
}

extension MIFAREPlusCLITests {
    /// `opennfc emulate` presenting a MIFARE Plus in SL1 through the real pcscd: PC/SC readers see a MIFARE Classic
    /// (the ATR's card name, the Part 3 pseudo-APDUs with Crypto1 run against the chip), so `classic` and `dump` work
    /// on it as on a Classic, and `--save` keeps what they wrote in the Plus's own tag file.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1",
            "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running (scripts/test starts it)"))
    func securityLevel1ThroughEmulateIsAClassicToPCSC() throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let ws = try Workspace()
        defer { ws.cleanup() }
        let made = try ws.run([
            "tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "04A1B2C3D4E5F7", "-o", "card.json",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let path = ws.path("card.json")
        try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "\"securityLevel\": 0", with: "\"securityLevel\": 1")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let (emulator, _) = try CLIRunner.start(["emulate", "--slot", "1", "--save", path])
        defer { if emulator.isRunning { emulator.terminate() } }
        let device = ["--device", "pcsc:00 01"]
        let ff = ["--key", "FFFFFFFFFFFF"]
        let w = try CLIRunner.firstAgainstEmulated {
            try ws.run(
                ["classic", "write", "--block", "8", "--data", "0102030405060708090A0B0C0D0E0F10"] + ff + device)
        }
        #expect(w.status == 0, "\(w.stderr)")
        let r = try ws.run(["classic", "read", "--block", "8"] + ff + device)
        #expect(r.stdout == "  8  01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10\n", "\(r.stderr)")
        #expect(
            try ws.run(["classic", "value", "--block", "9", "--set", "50"] + ff + device).stdout
                == "Block 9: value 50.\n")
        let dumped = try ws.run(["dump", "-o", "copy.json"] + device)
        #expect(dumped.status == 0, "\(dumped.stderr)")
        let copied = try ws.run(["classic", "read", "--block", "8"] + ff + ["--device", "sim:copy.json"])
        #expect(copied.stdout == "  8  01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10\n", "\(copied.stderr)")
        emulator.terminate()
        emulator.waitUntilExit()
        #expect(emulator.terminationStatus == 0)
        // The emulated chip was saved as the MIFARE Plus it is, still in SL1, with the block written over PC/SC.
        #expect(try ws.run(["tag", "show", "card.json"]).stdout.contains("security level 1"))
        let saved = try ws.run(["classic", "read", "--block", "8"] + ff + ["--device", "sim:card.json"])
        #expect(saved.stdout == "  8  01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10\n", "\(saved.stderr)")
    }
}

extension MIFAREPlusCLITests {
    /// `opennfc send --trace` names MIFARE Plus frames, native and ISO-wrapped, and the chip's status bytes.
    @Test func sendTraceNamesTheCommandsAndTheStatus() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let made = try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "04A1B2C3D4E5F8", "-o", "p.json"])
        #expect(made.status == 0, "\(made.stderr)")
        let zeros = String(repeating: "00", count: 16)
        let r = try ws.run([
            "send", "3C00", "9070000003004000" + "00", "A80000" + zeros, "--device", "sim:\(ws.path("p.json"))",
            "--trace",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let all = r.stdout + r.stderr
        #expect(all.contains("# Read_Sig"), "\(all)")
        #expect(all.contains("# MIFARE Plus OK, 56 bytes"))
        // SL0 takes no authentication; WritePerso refuses block 0.
        #expect(all.contains("# AuthenticateFirst key 4000 (ISO-wrapped)"))
        #expect(all.contains("# MIFARE Plus 0B: command not allowed in the current security level or state"))
        #expect(all.contains("# WritePerso block 0, 1 block"))
        #expect(all.contains("# MIFARE Plus 09: invalid block number"))
    }
}

extension MIFAREPlusCLITests {
    /// `opennfc info` on a MIFARE Plus: the chip and its memory come from the family's `DumpFamily` entry in SL0 and
    /// SL3; in SL1 the card is a MIFARE Classic to the reader.
    @Test func infoNamesTheChipAndItsMemory() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try newSL3Card(ws, "sl3.json", chip: "mifare-plus-ev2-4k", uid: "04A1B2C3D4E5F9")
        let r = try ws.run(["info", "--device", "sim:\(ws.path("sl3.json"))"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("Chip:       mifare-plus-ev2-4k (MIFARE Plus, security level 0 or 3)\n"), "\(r.stdout)")
        #expect(r.stdout.contains("Memory:     40 sectors, 256 blocks of 16 bytes\n"), "\(r.stdout)")
        let made = try ws.run([
            "tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "04A1B2C3D4E5FA", "-o", "sl0.json",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let sl0 = try ws.run(["info", "--device", "sim:\(ws.path("sl0.json"))"])
        #expect(sl0.stdout.contains("Chip:       mifare-plus-ev1-2k (MIFARE Plus, security level 0 or 3)\n"))
        #expect(sl0.stdout.contains("Memory:     32 sectors, 128 blocks of 16 bytes\n"), "\(sl0.stdout)")
    }
}
