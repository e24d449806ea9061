import Foundation
import Testing

/// `opennfc dump`, `restore` and Flipper export of a MIFARE DESFire EV1 with random ID on `sim:`: identification
/// finds it behind its random UID (`08…`, ISO/IEC 14443-3 §6.5.4); the real UID comes from GetCardUID when a key
/// is given, else the dump says it could not learn it (docs/TAG-FILES.md, DESFire).
@Suite struct DumpDESFireRandomIDTests {
    static let zero = ["--key", "0000000000000000", "--cipher", "des"]

    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A desfire-ev1 tag file holding "hi" (application 000001, DES zero keys) with random ID switched on through
    /// SetConfiguration.
    func randomIDCard(_ ws: Workspace, uid: String, name: String) throws {
        let made = try ws.run(["tag", "new", "--chip", "desfire-ev1", "--uid", uid, "--text", "hi", "-o", name])
        #expect(made.status == 0, "\(made.stderr)")
        let on = try ws.run(
            ["desfire", "configure", "--random-id", "--yes"] + Self.zero + ["--device", "sim:\(name)"])
        #expect(on.status == 0, "\(on.stderr)")
    }

    /// Without a key the dump cannot learn the real UID: saved as zeros with `randomID: true`, one warning.
    @Test func dumpWithoutAKeyWarnsAndSavesRandomIDWithAnUnknownUID() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try randomIDCard(ws, uid: "04112233445566", name: "c.json")
        let r = try ws.run(["dump", "-o", "d.json", "--device", "sim:c.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let warning = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("Warning:") })
        #expect(warning.hasPrefix("Warning: this DESFire shows a random ID (08"), "\(r.stderr)")
        #expect(warning.hasSuffix("); its real UID needs a key: pass --keys."))
        #expect(r.stderr.contains("Random ID: saved with UID 00000000000000 (not learned) and randomID true.\n"))
        let saved = try json(try TagFixture.bytes(ws.path("d.json")))
        #expect(saved["uid"] as? String == "00000000000000")
        let section = try #require(saved["desfire"] as? [String: Any])
        #expect((section["configuration"] as? [String: Any])?["randomID"] as? Bool == true)
        // The saved card behaves as a random-ID DESFire again: found behind its random UID, its file readable.
        #expect(try ws.run(["read", "--device", "sim:d.json"]).stdout.contains("hi"))
    }

    /// With any key of the card (the PICC master key, or an application's key) GetCardUID gives the real UID.
    @Test(arguments: ["000000 0 des 0000000000000000", "000001 0 des 0000000000000000"])
    func dumpWithAKeySavesTheRealUID(keyLine: String) throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try randomIDCard(ws, uid: "04112233445566", name: "c.json")
        try (keyLine + "\n").write(toFile: ws.path("keys.txt"), atomically: true, encoding: .utf8)
        let r = try ws.run(["dump", "--keys", "keys.txt", "-o", "d.json", "--device", "sim:c.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("Warning"), "\(r.stderr)")
        #expect(r.stderr.contains("Random ID: saved with its real UID 04112233445566 (GetCardUID).\n"), "\(r.stdout)")
        let saved = try json(try TagFixture.bytes(ws.path("d.json")))
        #expect(saved["uid"] as? String == "04112233445566")
        let section = try #require(saved["desfire"] as? [String: Any])
        #expect((section["configuration"] as? [String: Any])?["randomID"] as? Bool == true)
        // The ATQA saved is the card's double-size one: the single-size ATQA belongs to each random UID.
        let activation = try #require(section["activation"] as? [String: Any])
        #expect(activation["atqa"] as? String == "03 44")
        // Restoring it onto a card without random ID writes the files and says random ID is not turned on.
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "-o", "plain.json"]).status == 0)
        let restored = try ws.run(["restore", "d.json", "--device", "sim:plain.json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stderr.contains("Not restored: random ID (the dump's card shows one; "), "\(restored.stdout)")
        let listing = try ws.run(["dump", "--keys", "keys.txt", "--device", "sim:c.json"])
        #expect(
            listing.stdout.contains("Random ID: the real UID is 04112233445566 (GetCardUID)\n"), "\(listing.stdout)")
        // Flipper has no random-ID field: the .nfc export holds the real UID, fixed, and says so.
        let flipper = try ws.run(["tag", "convert", "d.json", "d.nfc"])
        #expect(flipper.status == 0)
        #expect(flipper.stderr.contains("Warning: d.nfc: Flipper's Mifare DESFire format has no random ID: "))
        let nfc = try String(contentsOf: URL(fileURLWithPath: ws.path("d.nfc")), encoding: .utf8)
        #expect(nfc.contains("UID: 04 11 22 33 44 55 66\n"))
    }

    /// `restore` onto a random-ID card finds it as a DESFire (identification behind the random UID) and writes.
    @Test func restoreOntoARandomIDCard() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let source = try ws.run(["tag", "new", "--chip", "desfire-ev1", "--uri", "https://example.com", "-o", "s.json"])
        #expect(source.status == 0)
        #expect(try ws.run(["dump", "-o", "d.json", "--device", "sim:s.json"]).status == 0)
        let blank = try ws.run(["tag", "new", "--chip", "desfire-ev1", "--uid", "04AABBCCDDEEFF", "-o", "t.json"])
        #expect(blank.status == 0)
        let on = try ws.run(["desfire", "configure", "--random-id", "--yes"] + Self.zero + ["--device", "sim:t.json"])
        #expect(on.status == 0, "\(on.stderr)")
        let r = try ws.run(["restore", "d.json", "--device", "sim:t.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("Restored 'd.json' to desfire-ev1 08"), "\(r.stderr)")
        #expect(try ws.run(["read", "--device", "sim:t.json"]).stdout.contains("URI: https://example.com"))
        let saved = try json(try TagFixture.bytes(ws.path("t.json")))
        #expect(saved["uid"] as? String == "04AABBCCDDEEFF")
    }
}
