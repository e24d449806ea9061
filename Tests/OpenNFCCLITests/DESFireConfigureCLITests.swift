import Foundation
import Testing

/// `opennfc desfire configure|uid|change-file-settings` on virtual DESFire EV1 tag files, running the binary.
@Suite struct DESFireConfigureCLITests {
    static let zero = ["--key", "0000000000000000", "--cipher", "des"]

    @Test func randomIDThroughTheCLI() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let made = try ws.run(
            ["tag", "new", "--chip", "desfire-ev1", "--uid", "04112233445566", "--text", "hi", "-o", "c.json"])
        #expect(made.status == 0, "\(made.stderr)")
        let dev = ["--device", "sim:c.json"]
        let refused = try ws.run(["desfire", "configure", "--random-id"] + Self.zero + dev)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("random ID cannot be undone on a DESFire EV1; repeat with --yes"))
        let done = try ws.run(
            ["desfire", "configure", "--random-id", "--yes", "--ats", "0575778102"] + Self.zero + dev)
        #expect(
            done.stdout
                == "Configured: ATS 0575778102 from the next activation; random ID on from the next activation.\n",
            "\(done.stderr)")
        let saved = try String(contentsOf: URL(fileURLWithPath: ws.path("c.json")), encoding: .utf8)
        #expect(saved.contains("\"uid\": \"04112233445566\""))
        #expect(saved.contains("\"randomID\": true") && saved.contains("\"ats\": \"05 75 77 81 02\""))
        // The card now shows a random UID; the desfire commands still find it, GetCardUID gives the real UID.
        let uid = try ws.run(["desfire", "uid"] + Self.zero + dev)
        #expect(uid.stdout == "UID 04112233445566\n", "\(uid.stderr)")
        #expect(try ws.run(["desfire", "list"] + dev).stdout.contains("Application 000001\n"))
        #expect(try ws.run(["read"] + dev).stdout.contains("hi"))
        let off = try ws.run(["desfire", "configure", "--disable-format", "--yes"] + Self.zero + dev)
        #expect(off.stdout == "Configured: FormatPICC disabled.\n", "\(off.stderr)")
        let format = try ws.run(["desfire", "format", "--yes"] + Self.zero + dev)
        #expect(format.status == 1)
        #expect(format.stderr.contains("not permitted"), "\(format.stderr)")
        let badATS = try ws.run(["desfire", "configure", "--ats", "0675"] + Self.zero + dev)
        #expect(badATS.status == 64)
    }

    @Test func changeFileSettingsFreeThenKeyed() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "--text", "hi", "-o", "f.json"]).status == 0)
        let dev = ["--app", "000001", "--device", "sim:f.json"]
        let frozen = try ws.run(["desfire", "change-file-settings", "--file", "2", "--access", "EEEF"] + dev)
        #expect(frozen.status == 1)
        #expect(frozen.stderr.contains("could never change again; repeat with --yes"), "\(frozen.stderr)")
        let free = try ws.run(["desfire", "change-file-settings", "--file", "2", "--access", "E00E"] + dev)
        #expect(free.stdout == "File 2 of application 000001: communication plain, access E00E.\n", "\(free.stderr)")
        let keyed = try ws.run(
            ["desfire", "change-file-settings", "--file", "2", "--new-comm", "mac", "--access", "E000"] + dev)
        #expect(keyed.stdout == "File 2 of application 000001: communication mac, access E000.\n", "\(keyed.stderr)")
        // The Change right is key 0 now: without its session the card refuses; with it the settings go enciphered.
        let closed = try ws.run(["desfire", "change-file-settings", "--file", "2", "--access", "EEEE"] + dev)
        #expect(closed.status == 1)
        #expect(closed.stderr.contains("authentication"), "\(closed.stderr)")
        let back = try ws.run(["desfire", "change-file-settings", "--file", "2", "--access", "EEEE"] + Self.zero + dev)
        #expect(back.stdout == "File 2 of application 000001: communication mac, access EEEE.\n", "\(back.stderr)")
        #expect(try ws.run(["read", "--device", "sim:f.json"]).stdout.contains("hi"))
    }
}
