import Foundation
import Testing

/// `opennfc password set|auth|remove` on a simulated NTAG215.
@Suite struct PasswordTests {
    @Test func setProtectsWritesAuthChecksPackRemoveRestores() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag215)
        let set = try ws.run([
            "password", "set", "--password", "12345678", "--pack", "8080", "--auth-limit", "3", "--trace", "--device",
            "sim:\(file)",
        ])
        #expect(set.status == 0)
        #expect(
            set.stdout
                == "Password set on ntag215 04A1B2C3D4E5F6: pages 4–134 need it for writing; PACK 8080; 3 wrong tries "
                + "before the tag seals.\n")
        // The secret first, AUTH0 last (CFG0 = page 131).
        let writes = set.stderr.split(separator: "\n").filter { $0.hasPrefix("> A2") }.map { String($0.prefix(14)) }
        #expect(writes == ["> A28512345678", "> A28680800000", "> A28403000000", "> A28304000004"])

        let w = try ws.run(["write", "--uri", "https://x.example", "--device", "sim:\(file)"])
        #expect(w.status == 1)
        #expect(w.stderr.hasPrefix("Error: the tag refused to write the message: WRITE page "))

        let ok = try ws.run(["password", "auth", "--password", "12345678", "--pack", "8080", "--device", "sim:\(file)"])
        #expect(ok.status == 0)
        #expect(ok.stdout == "Password accepted by ntag215 04A1B2C3D4E5F6; PACK 8080.\n")
        let wrongPack = try ws.run([
            "password", "auth", "--password", "12345678", "--pack", "1234", "--device", "sim:\(file)",
        ])
        #expect(wrongPack.status == 1)
        #expect(
            wrongPack.stderr == "Error: the tag accepted the password but answered PACK 8080, not 1234\n")
        let wrong = try ws.run(["password", "auth", "--password", "00000000", "--device", "sim:\(file)"])
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr
                == "Error: the tag refused to accept the password: PWD_AUTH refused: wrong password, or the try limit "
                + "is reached (NAK 0)\n")

        let rm = try ws.run(["password", "remove", "--password", "12345678", "--device", "sim:\(file)"])
        #expect(rm.status == 0)
        #expect(rm.stdout == "Password removed from ntag215 04A1B2C3D4E5F6: no page needs a password now.\n")
        let w2 = try ws.run(["write", "--uri", "https://x.example", "--device", "sim:\(file)"])
        #expect(w2.status == 0)
    }

    @Test func protectedReadsAreNotedByDump() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("secret.example"))
        let set = try ws.run([
            "password", "set", "--password", "CAFEBABE", "--from-page", "16", "--protect-reads", "--device",
            "sim:\(file)",
        ])
        #expect(set.status == 0)
        let d = try ws.run(["dump", "--device", "sim:\(file)"])
        #expect(d.status == 0)
        #expect(d.stdout.contains("\n10  -- -- -- --        protected (password)\n"), "\(d.stdout)")
        #expect(
            d.stdout.contains(
                "Note: pages 16–44 are password-protected (PROT) and were not read; give --password to read them\n"))
        let full = try ws.run(["dump", "--password", "CAFEBABE", "--device", "sim:\(file)"])
        #expect(!full.stdout.contains("protected (password)"))
        #expect(full.stdout.contains("\n29  04 00 00 10  ....  CFG0 (AUTH0 = 10)\n"), "\(full.stdout)")
    }

    @Test func badOptionsAndWrongChips() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213)
        let short = try ws.run(["password", "set", "--password", "1234", "--device", "sim:\(file)"])
        #expect(short.status == 64)
        #expect(short.stderr.hasPrefix("Error: --password takes 4 bytes (8 hex digits), not 2\n"))
        let missing = try ws.run(["password", "auth", "--device", "sim:\(file)"])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("Error: missing --password (4 bytes as 8 hex digits)\n"))
        let limit = try ws.run([
            "password", "set", "--password", "12345678", "--auth-limit", "9", "--device", "sim:\(file)",
        ])
        #expect(limit.status == 64)
        let t4 = try ws.run(["tag", "new", "--chip", "type4", "--uid", "04112233445566", "-o", "t4.json"])
        #expect(t4.status == 0)
        let r = try ws.run(["password", "auth", "--password", "12345678", "--device", "sim:t4.json"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: the tag is iso7816; passwords are for NTAG21x and Ultralight EV1 tags\n")
    }
}
