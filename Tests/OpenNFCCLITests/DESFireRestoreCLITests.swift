import Foundation
import Testing

/// `restore` of a desfire-ev1 dump: a value file's limited credit value and the PICC master key (only with
/// `--yes`), running the binary on `sim:` tag files.
@Suite struct DESFireRestoreCLITests {
    static let zero = ["--key", "0000000000000000", "--cipher", "des"]
    static let aes = "F0E1D2C3B4A5968778695A4B3C2D1E0F"
    static let other = "0F1E2D3C4B5A69788796A5B4C3D2E1F0"

    static func piccKey(_ ws: Workspace, _ file: String, to key: String) throws {
        let r = try ws.run(
            ["desfire", "change-key", "--new-key", key, "--new-cipher", "aes", "--yes", "--device", "sim:\(file)"]
                + zero)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func limitedCreditAndThePICCMasterKey() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "--text", "hi", "-o", "s.json"]).status == 0)
        let dev = ["--app", "000001", "--device", "sim:s.json"]
        let made = try ws.run(
            [
                "desfire", "create-file", "--file", "5", "--type", "value", "--upper", "100", "--value", "80",
                "--limited-credit",
            ] + dev)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try ws.run(["desfire", "value", "--file", "5", "--debit", "30"] + dev).status == 0)
        try Self.piccKey(ws, "s.json", to: Self.aes)
        try "000000 0 aes \(Self.aes)\n".write(toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let dumped = try ws.run(["dump", "--keys", "keys.txt", "-o", "d.json", "--device", "sim:s.json"])
        #expect(dumped.status == 0, "\(dumped.stderr)")

        try DumpDESFireTests.blank.write(toFile: ws.path("blank.json"), atomically: true, encoding: .utf8)
        let target = ["--device", "sim:blank.json"]
        let refused = try ws.run(["restore", "d.json"] + target)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "Error: 'd.json' sets the PICC master key to its aes key, and a card whose PICC master key is lost "
                + "is locked for good; repeat with --yes\n")
        #expect(try ws.run(["desfire", "list"] + target).stdout.contains("0 application(s)"))  // nothing written

        let restored = try ws.run(["restore", "d.json", "--yes", "--json"] + target)
        #expect(restored.status == 0, "\(restored.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: restored.stdoutBytes) as? [String: Any])
        #expect(result["keysChanged"] as? Int == 1)  // the PICC master key (the application's key stayed zero)
        let app = ["--app", "000001"] + target
        #expect(try ws.run(["desfire", "value", "--file", "5"] + app).stdout == "50\n")
        #expect(try ws.run(["desfire", "list"] + app).stdout.contains("limits 0…100, limited credit 30\n"))
        #expect(try ws.run(["desfire", "auth", "--key", Self.aes] + target).status == 0)
        #expect(try ws.run(["desfire", "auth"] + Self.zero + target).status == 1)
        #expect(try ws.run(["read"] + target).stdout.contains("hi"))
        // Again: the card already has that key, nothing to change.
        let again = try ws.run(["restore", "d.json", "--yes", "--json"] + target)
        let second = try #require(try JSONSerialization.jsonObject(with: again.stdoutBytes) as? [String: Any])
        #expect(second["keysChanged"] as? Int == 0, "\(again.stderr)")

        // A card whose PICC master key is another one: --keys gives it.
        try DumpDESFireTests.blank.write(toFile: ws.path("b2.json"), atomically: true, encoding: .utf8)
        try Self.piccKey(ws, "b2.json", to: Self.other)
        let unknown = try ws.run(["restore", "d.json", "--yes", "--device", "sim:b2.json"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("PICC master key is none of the keys given"), "\(unknown.stderr)")
        try "000000 0 aes \(Self.other)\n".write(toFile: ws.path("k2.txt"), atomically: true, encoding: .utf8)
        let known = try ws.run(["restore", "d.json", "--yes", "--keys", "k2.txt", "--device", "sim:b2.json"])
        #expect(known.status == 0, "\(known.stderr)")
        #expect(try ws.run(["desfire", "auth", "--key", Self.aes, "--device", "sim:b2.json"]).status == 0)
    }
}
