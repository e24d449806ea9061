import Foundation
import Testing

/// `opennfc desfire auth|read|write|change-key` on a virtual DESFire EV1 tag file.
@Suite struct DESFireCLITests {
    @Test func authenticateReadWriteAndChangeAKey() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "--text", "hi", "-o", "d.json"]).status == 0)
        let zero = "0000000000000000"
        let auth = try ws.run([
            "desfire", "auth", "--app", "000001", "--key", zero, "--cipher", "des", "--device", "sim:d.json",
        ])
        #expect(auth.status == 0)
        #expect(auth.stderr == "Authenticated with key 0 (des) of application 000001; key version 0.\n")
        // The CC file (1) is free: read plain, 15 bytes starting 00 0F 20.
        let cc = try ws.run([
            "desfire", "read", "--app", "000001", "--file", "1", "--length", "15", "--device", "sim:d.json",
        ])
        #expect(cc.status == 0)
        #expect(cc.stdout.hasPrefix("000F20"))
        let wrote = try ws.run([
            "desfire", "write", "--app", "000001", "--key", zero, "--cipher", "des", "--file", "2", "--offset", "0",
            "--data", "0000", "--device", "sim:d.json",
        ])
        #expect(wrote.status == 0)
        #expect(wrote.stderr == "Wrote 2 bytes to file 2 at offset 0.\n")

        let refused = try ws.run([
            "desfire", "change-key", "--app", "000001", "--key", zero, "--cipher", "des", "--new-key",
            "00112233445566778899AABBCCDDEEFF", "--new-cipher", "2k3des", "--device", "sim:d.json",
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("repeat with --yes"))
        let changed = try ws.run([
            "desfire", "change-key", "--app", "000001", "--key", zero, "--cipher", "des", "--new-key",
            "00112233445566778899AABBCCDDEEFF", "--new-cipher", "2k3des", "--yes", "--device", "sim:d.json",
        ])
        #expect(changed.status == 0, "\(changed.stderr)")
        let old = try ws.run([
            "desfire", "auth", "--app", "000001", "--key", zero, "--cipher", "des", "--device", "sim:d.json",
        ])
        #expect(old.status == 1)
        let new = try ws.run([
            "desfire", "auth", "--app", "000001", "--key", "00112233445566778899AABBCCDDEEFF", "--cipher", "2k3des",
            "--device", "sim:d.json",
        ])
        #expect(new.status == 0, "\(new.stderr)")
        let file = try String(contentsOf: URL(fileURLWithPath: ws.path("d.json")), encoding: .utf8)
        #expect(file.contains("\"type\": \"2k3des\""))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let r = try ws.run([
            "desfire", "read", "--app", "0001", "--file", "1", "--length", "1", "--device", "sim:empty",
        ])
        #expect(r.status == 64 || r.status == 1)
        let c = try ws.run(["desfire", "auth", "--key", "00", "--cipher", "rc4", "--device", "sim:empty"])
        #expect(c.status == 64)
        #expect(c.stderr.hasPrefix("Error: --cipher must be des, 2k3des, 3k3des or aes, not 'rc4'"))
    }
}
