import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc desfire …`, `dump --keys` and `restore` run as binaries over the real pcscd against `opennfc emulate`
/// of an AES-keyed DESFire EV1 tag file, the `--save`d tag files checked afterwards.
@Suite struct DESFirePCSCCLITests {
    static let k0 = "000102030405060708090A0B0C0D0E0F"
    static let k1 = "A0A1A2A3A4A5A6A7A8A9AAABACADAEAF"
    static func spaced(_ hex: String) -> String {
        stride(from: 0, to: hex.count, by: 2).map { i -> String in
            let a = hex.index(hex.startIndex, offsetBy: i)
            return String(hex[a..<hex.index(a, offsetBy: 2)])
        }.joined(separator: " ")
    }
    static let contents = (0..<32).map { String(format: "%02X", $0) }.joined()

    /// PICC master key AES ``k0``; application 000042 with AES keys 0 (``k0``) and 1 (``k1``): file 1 enciphered
    /// (read key 1, write/change key 0), file 2 an enciphered value with limited credit, file 3 a MACed linear
    /// record file.
    static var card: String {
        let key = { (k: String) in "{\"type\": \"aes\", \"value\": \"\(spaced(k))\"}" }
        return """
            {"format": "opennfc-tag", "version": 1, "chip": "desfire-ev1", "uid": "04D1E5F1A2B3C4", "desfire": {
              "masterKey": \(key(k0)),
              "applications": [{"aid": "00 00 42", "keySettings": "0F", "keyCount": "82",
                "keys": [\(key(k0)), \(key(k1))],
                "files": [
                  {"number": 1, "communication": "03", "accessRights": "10 00", "data": ["\(spaced(contents))"]},
                  {"number": 2, "communication": "03", "accessRights": "00 00", "type": "value", "value": 250,
                   "lowerLimit": 0, "upperLimit": 900, "limitedCredit": true},
                  {"number": 3, "communication": "01", "accessRights": "00 00", "type": "linear-record",
                   "recordSize": 6, "maxRecords": 4, "records": ["65 6E 74 72 79 31"]}]}]}}
            """
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1",
            "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running (scripts/test starts it)"))
    func desfireCommandsDumpAndRestoreThroughPCSC() throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let ws = try Workspace()
        defer { ws.cleanup() }
        try Self.card.write(toFile: ws.path("card.json"), atomically: true, encoding: .utf8)
        let device = ["--device", "pcsc:00 01"]
        let app = ["--app", "000042"] + device
        let (emulator, _) = try CLIRunner.start(["emulate", "--slot", "1", "--save", ws.path("card.json")])
        defer { if emulator.isRunning { emulator.terminate() } }

        let auth = try CLIRunner.firstAgainstEmulated {
            try ws.run(["desfire", "auth", "--key-no", "1", "--key", Self.k1] + app)
        }
        #expect(
            auth.stderr.hasSuffix("Authenticated with key 1 (aes) of application 000042; key version 0.\n"),
            "\(auth.stderr)")
        let read = try ws.run(
            ["desfire", "read", "--key-no", "1", "--key", Self.k1, "--file", "1", "--length", "32", "--comm", "enc"]
                + app)
        #expect(read.stdout == Self.contents + "\n", "\(read.stderr)")
        let debit = try ws.run(["desfire", "value", "--file", "2", "--key", Self.k0, "--debit", "50"] + app)
        #expect(debit.stdout == "debit 50 on file 2 of application 000042 committed: value 200.\n", "\(debit.stderr)")
        let record = try ws.run(
            ["desfire", "record", "--file", "3", "--key", Self.k0, "--write", "656E74727932"] + app)
        #expect(record.stdout == "record of 6 bytes on file 3 of application 000042 committed.\n", "\(record.stderr)")
        let records = try ws.run(["desfire", "record", "--file", "3", "--key", Self.k0] + app)
        #expect(records.stdout == "656E74727931\n656E74727932\n", "\(records.stderr)")
        let created = try ws.run(
            ["desfire", "create-file", "--file", "4", "--type", "backup", "--size", "8", "--access", "EEEE"] + app)
        #expect(created.stdout == "Created backup file 4 in application 000042.\n", "\(created.stderr)")
        let list = try ws.run(["desfire", "list"] + app)
        #expect(list.stdout.contains("  File 2: value, enc, access 0000, limits 0…900, limited credit 50\n"))
        #expect(list.stdout.contains("  File 4: backup, plain, access EEEE, 8 bytes\n"), "\(list.stdout)")

        try "000000 0 aes \(Self.k0)\n000042 0 aes \(Self.k0)\n000042 1 aes \(Self.k1)\n".write(
            toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let dumped = try ws.run(["dump", "--keys", "keys.txt", "-o", "copy.json"] + device)
        #expect(dumped.status == 0, "\(dumped.stderr)")
        #expect(!dumped.stdout.contains("Not read"), "\(dumped.stdout)")
        emulator.terminate()
        emulator.waitUntilExit()
        #expect(emulator.terminationStatus == 0)

        // The --save'd tag file holds what the commands did.
        let sim = ["--app", "000042", "--device", "sim:card.json"]
        #expect(try ws.run(["desfire", "value", "--file", "2", "--key", Self.k0] + sim).stdout == "200\n")
        #expect(
            try ws.run(["desfire", "record", "--file", "3", "--key", Self.k0] + sim).stdout
                == "656E74727931\n656E74727932\n")
        #expect(try ws.run(["desfire", "list"] + sim).stdout.contains("  File 4: backup"))

        // Restore the dump onto a blank DESFire through pcscd: the PICC master key needs --yes.
        try DumpDESFireTests.blank.write(toFile: ws.path("blank.json"), atomically: true, encoding: .utf8)
        let (second, _) = try CLIRunner.start(["emulate", "--slot", "1", "--save", ws.path("blank.json")])
        defer { if second.isRunning { second.terminate() } }
        let refused = try CLIRunner.firstAgainstEmulated { try ws.run(["restore", "copy.json"] + device) }
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("PICC master key") && refused.stderr.contains("--yes"), "\(refused.stderr)")
        let restored = try ws.run(["restore", "copy.json", "--yes", "--json"] + device)
        #expect(restored.status == 0, "\(restored.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: restored.stdoutBytes) as? [String: Any])
        #expect(result["filesCreated"] as? Int == 4)
        #expect(result["keysChanged"] as? Int == 3)  // key 1, key 0, the PICC master key
        #expect((result["notes"] as? [Any])?.isEmpty == true)
        let again = try ws.run(
            ["desfire", "read", "--key-no", "1", "--key", Self.k1, "--file", "1", "--length", "32", "--comm", "enc"]
                + app)
        #expect(again.stdout == Self.contents + "\n", "\(again.stderr)")
        #expect(try ws.run(["desfire", "auth", "--key", Self.k0] + device).status == 0)
        second.terminate()
        second.waitUntilExit()
        let copy = ["--app", "000042", "--device", "sim:blank.json"]
        #expect(try ws.run(["desfire", "value", "--file", "2", "--key", Self.k0] + copy).stdout == "200\n")
        #expect(try ws.run(["desfire", "list"] + copy).stdout.contains("limits 0…900, limited credit 50\n"))
    }
}
