import Foundation
import OpenNFCTestSupport
import Testing

/// The `opennfc` binary with ISO 15693 (Type 5) tags on `sim:`: tag files for every chip, Flipper `.nfc` export and
/// import, dump/restore, raw requests with `--trace` decoding, and the `iso15693` operations (AFI, DSFID, NXP EAS,
/// privacy, passwords) with their `--yes` guard on permanent locks.
@Suite struct Type5CLITests {
    static let uids: [String: String] = [
        "icode-slix": "E004010812345678", "icode-slix2": "E004010912345678", "st25dv04k": "E002240012345678",
        "st25dv64k": "E002260012345678", "tagit-hfi-plus": "E007800012345678",
    ]

    func newTag(_ ws: Workspace, _ name: String, chip: String = "icode-slix", text: String? = nil) throws -> String {
        var args = ["tag", "new", "--chip", chip, "--uid", Self.uids[chip]!, "-o", name]
        if let text { args += ["--text", text] }
        let r = try ws.run(args)
        #expect(r.status == 0, "\(r.stderr)")
        return ws.path(name)
    }

    @Test(arguments: ["icode-slix", "icode-slix2", "st25dv04k", "st25dv64k", "tagit-hfi-plus"])
    func tagNewShowAndFlipperRoundTrip(chip: String) throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json", chip: chip, text: "vicinity")
        let show = try ws.run(["tag", "show", file])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("System: DSFID 00, AFI 00"))
        let nfc = try ws.run(["tag", "convert", file, ws.path("t.nfc")])
        if chip == "st25dv64k" {
            // 2048 blocks: more than Flipper's block count holds.
            #expect(nfc.status == 1)
            #expect(nfc.stderr.contains("at most 256"))
            return
        }
        #expect(nfc.status == 0, "\(nfc.stderr)")
        let text = try String(contentsOfFile: ws.path("t.nfc"), encoding: .utf8)
        #expect(text.contains("Device type: \(chip.hasPrefix("icode") ? "SLIX" : "ISO15693-3")"))
        #expect(
            text.contains(
                "UID: \(stride(from: 0, to: 16, by: 2).map { i in String(Array(Self.uids[chip]!)[i..<i + 2]) }.joined(separator: " "))"
            ))
        let back = try ws.run(["tag", "convert", ws.path("t.nfc"), ws.path("back.json")])
        #expect(back.status == 0, "\(back.stderr)")
        let r = try ws.run(["tag", "show", ws.path("back.json")])
        #expect(r.stdout == show.stdout.replacingOccurrences(of: file, with: ws.path("back.json")))
    }

    @Test func afiAndDSFIDWriteAndLock() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json")
        let w = try ws.run(["iso15693", "write-afi", "12", "--device", "sim:\(file)"])
        #expect(w.status == 0, "\(w.stderr)")
        #expect(w.stdout == "AFI 12 written to E004010812345678.\n")
        #expect(try ws.run(["iso15693", "write-dsfid", "5A", "--device", "sim:\(file)"]).status == 0)
        // Locks are permanent: refused without --yes, nothing sent.
        let noYes = try ws.run(["iso15693", "lock-afi", "--device", "sim:\(file)"])
        #expect(noYes.status == 64)
        #expect(noYes.stderr.contains("permanent") && noYes.stderr.contains("--yes"))
        #expect(try ws.run(["iso15693", "lock-afi", "--yes", "--device", "sim:\(file)"]).status == 0)
        let info = try ws.run(["iso15693", "info", "--device", "sim:\(file)"])
        #expect(info.stdout.hasPrefix("UID E004010812345678, DSFID 5A, AFI 12, 28 blocks of 4 bytes, no block locked"))
        let again = try ws.run(["iso15693", "write-afi", "34", "--device", "sim:\(file)"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("error 12 (block locked, content cannot change)"))
        #expect(try ws.run(["tag", "show", file]).stdout.contains("AFI 12 (locked)"))
        // Tag-it HF-I Plus needs the Option flag on writes: the CLI sets it.
        let tagit = try newTag(ws, "ti.json", chip: "tagit-hfi-plus")
        let t = try ws.run(["iso15693", "write-dsfid", "01", "--device", "sim:\(tagit)", "--trace"])
        #expect(t.status == 0, "\(t.stderr)")
        #expect(t.stderr.contains("> 6229"))
        #expect(t.stderr.contains("WRITE DSFID 01 (addressed to E007800012345678, Option)"))
    }

    @Test func nxpCommandsAreGuarded() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let slix = try newTag(ws, "s.json")
        #expect(try ws.run(["iso15693", "eas", "lock", "--device", "sim:\(slix)"]).status == 64)
        #expect(try ws.run(["iso15693", "eas", "protect-afi", "--device", "sim:\(slix)"]).status == 64)
        let st = try newTag(ws, "st.json", chip: "st25dv04k")
        let notNXP = try ws.run(["iso15693", "privacy", "disable", "--password", "0F0F0F0F", "--device", "sim:\(st)"])
        #expect(notNXP.status == 1)
        #expect(notNXP.stderr.contains("not NXP (04)"))
        #expect(try ws.run(["iso15693", "signature", "--device", "sim:\(st)"]).status == 1)
        let lock = try ws.run([
            "iso15693", "password", "--id", "read", "--password", "00000000", "--lock", "--device", "sim:\(slix)",
        ])
        #expect(lock.status == 64)
        let badID = try ws.run([
            "iso15693", "password", "--id", "nope", "--password", "00000000", "--device", "sim:\(slix)",
        ])
        #expect(badID.status == 64)
        #expect(badID.stderr.contains("--id is read, write, privacy, destroy or eas"))
        let badCondition = try ws.run([
            "iso15693", "protect", "--pointer", "8", "--condition", "FF", "--read-password", "00000000",
            "--write-password", "00000000", "--device", "sim:\(slix)",
        ])
        #expect(badCondition.status == 64)
        // The SLIX has only the EAS/AFI password: the chip refuses the read password's ID.
        let rnd = try ws.run([
            "iso15693", "password", "--id", "read", "--password", "00000000", "--device", "sim:\(slix)", "--trace",
        ])
        #expect(rnd.status == 1)
        #expect(rnd.stderr.contains("GET RANDOM NUMBER (NXP)"))
        #expect(rnd.stderr.contains("error 0F"))
    }

    @Test func easOnTheVirtualSLIX() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let slix = try newTag(ws, "s.json")
        let dev = "sim:\(slix)"
        let set = try ws.run(["iso15693", "eas", "set", "--device", dev, "--trace"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "EAS set on E004010812345678.\n")
        #expect(set.stderr.contains("SET EAS (NXP) (addressed to E004010812345678)"))
        #expect(set.stderr.contains("frames: 1\n"))  // the minimum: one request (docs/PROCEDURES.md)
        let alarm = try ws.run(["iso15693", "eas", "alarm", "--device", dev])
        #expect(alarm.status == 0, "\(alarm.stderr)")
        #expect(alarm.stdout.hasPrefix("EAS alarm answer: ") && alarm.stdout.count == 18 + 64 + 1)
        #expect(try ws.run(["tag", "show", slix]).stdout.contains("NXP: EAS set"))
        #expect(try ws.run(["iso15693", "eas", "reset", "--device", dev]).status == 0)
        let silent = try ws.run(["iso15693", "eas", "alarm", "--device", dev])
        #expect(silent.stdout == "EAS is not set on E004010812345678: no alarm.\n")
        // Password protection of EAS is permanent; afterwards EAS changes need the EAS/AFI password.
        let protect = try ws.run(["iso15693", "eas", "protect-eas", "--yes", "--password", "00000000", "--device", dev])
        #expect(protect.status == 0, "\(protect.stderr)")
        let refused = try ws.run(["iso15693", "eas", "set", "--device", dev])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("error 0F"))
        #expect(try ws.run(["iso15693", "eas", "set", "--password", "00000000", "--device", dev]).status == 0)
        let lock = try ws.run(["iso15693", "eas", "lock", "--yes", "--password", "00000000", "--device", dev])
        #expect(lock.status == 0, "\(lock.stderr)")
        #expect(try ws.run(["tag", "show", slix]).stdout.contains("NXP: EAS set (locked), password protects EAS"))
    }

    @Test func passwordsPageProtectionSignatureAndPrivacyOnTheVirtualSLIX2() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "s2.json", chip: "icode-slix2", text: "guarded")
        let dev = "sim:\(file)"
        let change = try ws.run([
            "iso15693", "password", "--id", "write", "--password", "00000000", "--new", "11223344", "--device", dev,
            "--trace",
        ])
        #expect(change.status == 0, "\(change.stderr)")
        #expect(change.stdout == "write password accepted; new password written (E004010912345678).\n")
        #expect(change.stderr.contains("frames: 3\n"))  // GET RANDOM NUMBER, SET PASSWORD, WRITE PASSWORD
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"write\": \"11223344\""))
        // The old password is wrong now: the chip goes mute, so the command reports silence.
        let old = try ws.run(["iso15693", "password", "--id", "write", "--password", "00000000", "--device", dev])
        #expect(old.status == 1)
        #expect(old.stderr.contains("did not answer while trying to present the write password"))
        // High page from block 16: reads and writes need the passwords.
        let protect = try ws.run([
            "iso15693", "protect", "--pointer", "16", "--condition", "30", "--read-password", "00000000",
            "--write-password", "11223344", "--device", dev, "--trace",
        ])
        #expect(protect.status == 0, "\(protect.stderr)")
        #expect(protect.stderr.contains("PROTECT PAGE (NXP)"))
        #expect(protect.stderr.contains("frames: 5\n"))  // a fresh random per password: 2 + 2 + PROTECT PAGE
        let info = try ws.run(["iso15693", "info", "--device", dev])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("NXP: protection pointer 16 (block), condition 30, locked: nothing; features: "))
        #expect(info.stdout.contains("originality signature, privacy, destroy"))
        let dump = try ws.run(["dump", "-o", ws.path("d.json"), "--device", dev])
        #expect(dump.status == 1)
        #expect(dump.stderr.contains("error 0F"))
        // The message lies in the low page. Detection's read-ahead (blocks 1–64) crosses into the protected high
        // page and is refused; the reader asks again for only the blocks it needs, so the message still reads.
        let read = try ws.run(["read", "--device", dev, "--trace"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("guarded"))
        #expect(read.stderr.contains("READ MULTIPLE BLOCKS"))
        let signature = try ws.run(["iso15693", "signature", "--device", dev, "--json"])
        #expect(signature.status == 0, "\(signature.stderr)")
        #expect(signature.stdout.contains("\"result\": \""))
        // Privacy mode: the tag no longer answers any inventory, so it is not found at all.
        let privacy = try ws.run(["iso15693", "privacy", "enable", "--password", "0F0F0F0F", "--device", dev])
        #expect(privacy.status == 0, "\(privacy.stderr)")
        #expect(privacy.stdout == "Privacy mode enabled on E004010912345678.\n")
        #expect(try ws.run(["iso15693", "info", "--device", dev]).status != 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"privacy\": true"))
    }

    @Test func st25dvConfigurationInInfo() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let st = try newTag(ws, "st.json", chip: "st25dv04k")
        let info = try ws.run(["iso15693", "info", "--device", "sim:\(st)", "--trace"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(
            info.stdout.contains("\nST25DV: ENDA1 0F, ENDA2 0F, ENDA3 0F, RFA1SS 03, RFA2SS 03, RFA3SS 03, RFA4SS 03"))
        #expect(info.stderr.contains("READ CONFIGURATION 05 (ST)"))
    }

    @Test func dumpAndRestore() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json", chip: "icode-slix2", text: "dump me")
        let listing = try ws.run(["dump", "--device", "sim:\(file)"])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(
            listing.stdout.contains(
                "Tag:      icode-slix2, UID E004010912345678, 80 blocks of 4 bytes, DSFID 00, AFI 00"))
        let d = try ws.run(["dump", "-o", ws.path("d.json"), "--device", "sim:\(file)"])
        #expect(d.status == 0, "\(d.stderr)")
        #expect(d.stderr == "Saved icode-slix2 E004010912345678 (80 blocks) to \(ws.path("d.json")).\n")
        let other = try newTag(ws, "o.json", chip: "icode-slix2", text: "something else entirely")
        let r = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(other)"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("Restored '\(ws.path("d.json"))' to icode-slix2 E004010912345678:"))
        let shown = try ws.run(["tag", "show", other])
        #expect(shown.stdout == (try ws.run(["tag", "show", file])).stdout.replacingOccurrences(of: file, with: other))
        // Another chip is refused.
        let slix = try newTag(ws, "s.json")
        let wrong = try ws.run(["restore", ws.path("d.json"), "--device", "sim:\(slix)"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("restore writes only to the same chip"))
    }

    @Test func sendAndTraceDecodeISO15693() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json")
        let r = try ws.run(["send", "222B78563412080104E0", "222078563412080104E0FF", "--device", "sim:\(file)"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("000F78563412080104E0"))
        #expect(lines[0].hasSuffix("# info flags 0F, UID E004010812345678"))
        #expect(lines[1] == "0110  # error 10: block not available")
        let t = try ws.run(["send", "0223000F", "--device", "sim:\(file)", "--trace"])
        #expect(t.stderr.contains("> 0223000F  # READ MULTIPLE BLOCKS 0–15 (non-addressed)"))
        #expect(t.stderr.contains("# 64 bytes"))
    }
}

/// `opennfc emulate` of a Type 5 tag and the tag commands over the real pcscd (needs OPENNFC_E2E_PCSCD=1).
@Suite struct Type5PCSCCLITests {
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1",
            "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running (scripts/test starts it)"))
    func emulatedType5ThroughPCSC() throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = ws.path("slix2.json")
        let made = try ws.run([
            "tag", "new", "--chip", "icode-slix2", "--uid", "E004010912345678", "--text", "hello vicinity", "-o", file,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let (emulator, _) = try CLIRunner.start(["emulate", "--slot", "1", "--save", file])
        defer { if emulator.isRunning { emulator.terminate() } }

        let read = try CLIRunner.firstAgainstEmulated { try ws.run(["read", "--device", "pcsc:00 01", "--json"]) }
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("hello vicinity"))
        let readers = try ws.run(["readers"])
        #expect(readers.stdout.contains("ICODE SLI (ISO 15693 part 3)"))
        #expect(readers.stdout.contains("transparent session"))
        #expect(readers.stdout.contains("UID: E0:04:01:09:12:34:56:78"))
        let write = try ws.run(["write", "--text", "written over FF C2", "--device", "pcsc:00 01", "--trace"])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stderr.contains("WRITE SINGLE BLOCK"))
        let afi = try ws.run(["iso15693", "write-afi", "3D", "--device", "pcsc:00 01"])
        #expect(afi.status == 0, "\(afi.stderr)")
        let info = try ws.run(["iso15693", "info", "--device", "pcsc:00 01"])
        #expect(info.stdout.hasPrefix("UID E004010912345678, DSFID 00, AFI 3D, 80 blocks of 4 bytes"), "\(info.stderr)")
        let dump = try ws.run(["dump", "-o", ws.path("d.json"), "--device", "pcsc:00 01"])
        #expect(dump.status == 0, "\(dump.stderr)")
        // The NXP custom commands travel in the FF C2 transparent session to the emulated SLIX2.
        let eas = try ws.run(["iso15693", "eas", "set", "--device", "pcsc:00 01", "--trace"])
        #expect(eas.status == 0, "\(eas.stderr)")
        #expect(eas.stderr.contains("SET EAS (NXP)"))
        let signature = try ws.run(["iso15693", "signature", "--device", "pcsc:00 01"])
        #expect(signature.status == 0, "\(signature.stderr)")
        #expect(signature.stdout.hasPrefix("Signature of E004010912345678: ") && signature.stdout.count == 31 + 64 + 1)
        let password = try ws.run([
            "iso15693", "password", "--id", "read", "--password", "00000000", "--new", "CAFE0001", "--device",
            "pcsc:00 01",
        ])
        #expect(password.status == 0, "\(password.stderr)")
        let nxpInfo = try ws.run(["iso15693", "info", "--device", "pcsc:00 01"])
        #expect(nxpInfo.stdout.contains("\nNXP: protection pointer 0 (block), condition 00"), "\(nxpInfo.stderr)")

        emulator.terminate()
        emulator.waitUntilExit()
        #expect(emulator.terminationStatus == 0)
        let shown = try ws.run(["tag", "show", "--json", file])
        #expect(shown.stdout.contains("written over FF C2"))
        #expect(shown.stdout.contains("\"afi\": \"3D\""))
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.contains("\"eas\": true") && saved.contains("\"read\": \"CAFE0001\""))
        let dumped = try ws.run(["tag", "show", "--json", ws.path("d.json")])
        #expect(dumped.stdout.contains("written over FF C2"))
    }
}
