import Foundation
import Testing

/// `opennfc desfire create-file|value|record|list|format` and `dump --keys` / `restore` of the EV1 file types on
/// virtual DESFire EV1 tag files, running the binary.
@Suite struct DESFireFilesCLITests {
    static let zero = ["--key", "0000000000000000", "--cipher", "des"]
    static let k2 = "00112233445566778899AABBCCDDEEFF"

    @Test func valueAndRecordFilesThroughTheCLI() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "--text", "hi", "-o", "d.json"]).status == 0)
        let dev = ["--app", "000001", "--device", "sim:d.json"]
        let made = try ws.run(
            [
                "desfire", "create-file", "--file", "5", "--type", "value", "--upper", "1000", "--value", "100",
                "--limited-credit",
            ] + dev)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "Created value file 5 in application 000001.\n")
        #expect(try ws.run(["desfire", "value", "--file", "5"] + dev).stdout == "100\n")
        let debit = try ws.run(["desfire", "value", "--file", "5", "--debit", "30"] + dev)
        #expect(debit.stdout == "debit 30 on file 5 of application 000001 committed: value 70.\n", "\(debit.stderr)")
        let tooMuch = try ws.run(["desfire", "value", "--file", "5", "--limited-credit", "40"] + dev)
        #expect(tooMuch.status == 1)
        #expect(tooMuch.stderr.hasPrefix("Error: "))
        let dropped = try ws.run(["desfire", "value", "--file", "5", "--limited-credit", "30", "--no-commit"] + dev)
        #expect(dropped.stdout == "limited-credit 30 on file 5 not committed (dropped).\n")
        #expect(try ws.run(["desfire", "value", "--file", "5"] + dev).stdout == "70\n")

        // A cyclic record file, enciphered, key 0 only (the application has ISO file ids: --iso-id).
        let cyclic = try ws.run(
            [
                "desfire", "create-file", "--file", "6", "--type", "cyclic-record", "--record-size", "4",
                "--max-records", "3", "--iso-id", "E106", "--access", "0000", "--file-comm", "enc",
            ] + dev)
        #expect(cyclic.status == 0, "\(cyclic.stderr)")
        for record in ["01020304", "05060708", "090A0B0C"] {
            let w = try ws.run(["desfire", "record", "--file", "6", "--write", record] + Self.zero + dev)
            #expect(w.stdout == "record of 4 bytes on file 6 of application 000001 committed.\n", "\(w.stderr)")
        }
        let records = try ws.run(["desfire", "record", "--file", "6"] + Self.zero + dev)
        #expect(records.stdout == "05060708\n090A0B0C\n", "\(records.stderr)")  // cyclic: keeps 2
        let closed = try ws.run(["desfire", "record", "--file", "6"] + dev)
        #expect(closed.status == 1)
        #expect(closed.stderr.contains("authentication"))

        let list = try ws.run(["desfire", "list"] + dev)
        #expect(list.stdout.contains("  File 5: value, plain, access EEEE, limits 0…1000, limited credit 30\n"))
        #expect(list.stdout.contains("  File 6: cyclic-record, enc, access 0000, 2 of 3 records × 4 bytes\n"))
        let picc = try ws.run(["desfire", "list", "--device", "sim:d.json"])
        #expect(picc.stdout.contains("1 application(s)\nApplication 000001\n"), "\(picc.stdout)")

        let refused = try ws.run(["desfire", "format"] + Self.zero + ["--device", "sim:d.json"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("repeat with --yes"))
        let formatted = try ws.run(["desfire", "format", "--yes"] + Self.zero + ["--device", "sim:d.json"])
        #expect(formatted.status == 0, "\(formatted.stderr)")
        #expect(try ws.run(["desfire", "list", "--device", "sim:d.json"]).stdout.contains("0 application(s)"))
    }

    @Test func badFileOptionsAreUsageErrors() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let t = try ws.run(["desfire", "create-file", "--file", "1", "--type", "purse", "--device", "sim:x.json"])
        #expect(t.status == 64)
        #expect(t.stderr.contains("--type must be standard, backup, value, linear-record or cyclic-record"))
        let v = try ws.run(
            [
                "desfire", "create-file", "--file", "1", "--type", "value", "--upper", "5", "--value", "9",
                "--device", "sim:x.json",
            ])
        #expect(v.status == 64)
        let c = try ws.run(["desfire", "value", "--file", "1", "--credit", "1", "--debit", "1", "--device", "sim:x"])
        #expect(c.status == 64)
    }

    @Test func dumpWithKeysReadsWhatTheKeysOpenAndRestoreWritesFilesAndKeys() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "--text", "hi", "-o", "s.json"]).status == 0)
        let dev = ["--app", "000001", "--device", "sim:s.json"]
        #expect(
            try ws.run(
                [
                    "desfire", "create-file", "--file", "6", "--type", "linear-record", "--record-size", "3",
                    "--max-records", "4", "--iso-id", "E106", "--access", "0000", "--file-comm", "mac",
                ] + dev
            ).status == 0)
        #expect(try ws.run(["desfire", "record", "--file", "6", "--write", "AABBCC"] + Self.zero + dev).status == 0)
        #expect(
            try ws.run(
                ["desfire", "create-file", "--file", "7", "--type", "value", "--upper", "50", "--value", "12"] + dev
            )
            .status == 0)
        let changed = try ws.run(
            ["desfire", "change-key", "--new-key", Self.k2, "--new-cipher", "2k3des", "--yes"] + Self.zero + dev)
        #expect(changed.status == 0, "\(changed.stderr)")

        let without = try ws.run(["dump", "-o", "open.json", "--device", "sim:s.json"])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(
            without.stderr.contains("Not read: file 6 of application 000001 (needs key 0 of application 000001)"),
            "\(without.stderr)")
        #expect(without.stderr.contains("1 key(s) not given: saved as zeros."))

        // CRLF line breaks, as a Windows editor saves the file (the LF form: DESFireRestoreCLITests).
        try "# application 000001, key 0\r\n000001 0 2k3des \(Self.k2)\r\n".write(
            toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let listing = try ws.run(["dump", "--keys", "keys.txt", "--device", "sim:s.json"])
        #expect(listing.stdout.contains("keys known: 0"), "\(listing.stdout)\(listing.stderr)")
        #expect(listing.stdout.contains("    00  AA BB CC  ...  record 0\n"))
        #expect(listing.stdout.contains("  File 7: value 12 (0…50)"))
        let dumped = try ws.run(["dump", "--keys", "keys.txt", "-o", "d.json", "--device", "sim:s.json"])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        #expect(!dumped.stdout.contains("Not read"))
        let saved = try String(contentsOf: URL(fileURLWithPath: ws.path("d.json")), encoding: .utf8)
        #expect(saved.contains("\"records\": [") && saved.contains("AA BB CC"))

        let badKeys = try ws.run(["dump", "--keys", "nokeys.txt", "--device", "sim:s.json"])
        #expect(badKeys.status == 1)
        try "000001 0 rc4 00\n".write(toFile: ws.path("bad.txt"), atomically: true, encoding: .utf8)
        let bad = try ws.run(["dump", "--keys", "bad.txt", "--device", "sim:s.json"])
        #expect(bad.stderr.contains("'bad.txt' line 1: the cipher must be des, 2k3des, 3k3des or aes, not 'rc4'"))

        _ = try TagFixture.write(DumpDESFireTests.blank, to: ws.dir, name: "blank.json")
        let restored = try ws.run(["restore", "d.json", "--json", "--device", "sim:blank.json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: restored.stdoutBytes) as? [String: Any])
        #expect(result["filesCreated"] as? Int == 4)
        #expect(result["recordsWritten"] as? Int == 1)
        #expect(result["keysChanged"] as? Int == 1)
        let target = ["--app", "000001", "--device", "sim:blank.json"]
        let read = try ws.run(["desfire", "record", "--file", "6", "--key", Self.k2, "--cipher", "2k3des"] + target)
        #expect(read.stdout == "AABBCC\n", "\(read.stderr)")
        #expect(try ws.run(["desfire", "value", "--file", "7"] + target).stdout == "12\n")
        #expect(try ws.run(["desfire", "auth"] + Self.zero + target).status == 1)  // the key was set
        #expect(try ws.run(["read", "--device", "sim:blank.json"]).stdout.contains("hi"))
    }
}
