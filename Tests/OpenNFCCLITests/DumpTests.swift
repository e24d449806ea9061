import Foundation
import Testing

/// `opennfc dump`: the memory map, and tag files (.json, .nfc) that load again.
@Suite struct DumpTests {
    @Test func listsEveryPageWithItsMeaning() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("example.com"))
        let before = try TagFixture.bytes(ws.path(file))
        let r = try ws.run(["dump", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Tag:      ntag213, UID 04A1B2C3D4E5F6, 45 pages")
        // The one memory map: pages in hex, the zero pages of user memory collapsed into `*`.
        for line in [
            "00  04 A1 B2 9F  ....  UID 0–2, BCC0", "03  E1 10 12 00  ....  capability container",
            "04  01 03 A0 0C  ....  user memory", "*", "28  00 00 00 BD  ....  dynamic lock bytes",
            "29  04 00 00 FF  ....  CFG0 (AUTH0 = FF)", "2B  00 00 00 00  ....  PWD (never readable)",
        ] {
            #expect(lines.contains(line), "missing: \(line)\n\(r.stdout)")
        }
        #expect(lines.count < 40, "\(r.stdout)")
        #expect(lines.last == "Note: PWD and PACK never read back from a chip: they are shown and saved as zeros")
        #expect(try TagFixture.bytes(ws.path(file)) == before)
    }

    @Test func savesTagFilesThatLoadAgain() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag215, message: TagFixture.uriMessage("copy.example"))
        for name in ["copy.json", "copy.nfc"] {
            let d = try ws.run(["dump", "-o", name, "--device", "sim:\(file)"])
            #expect(d.status == 0)
            // Data on stdout, messages on stderr: a dump saved to a file prints nothing on stdout.
            #expect(d.stdout.isEmpty)
            #expect(d.stderr.contains("Saved ntag215 04A1B2C3D4E5F6 (135 pages) to \(name).\n"))
            #expect(
                d.stderr.contains("Note: PWD and PACK never read back from a chip: they are shown and saved as zeros\n")
            )
            let r = try ws.run(["read", "--raw", "--device", "sim:\(name)"])
            #expect(r.stdout == "D1010D5504636F70792E6578616D706C65\n")
        }
        let json = try ws.run(["dump", "--json", "--device", "sim:\(file)"])
        let o = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        #expect(o["chip"] as? String == "ntag215")
        #expect(((o["type2"] as? [String: Any])?["pages"] as? [Any])?.count == 135)
        // Hex without spaces, as every --json; and what it prints loads again as a tag file.
        let pages = try #require((o["type2"] as? [String: Any])?["pages"] as? [String])
        #expect(pages[0] == "04A1B29F")
        #expect(!json.stdout.contains("04 A1"))
        try json.stdoutBytes.write(to: ws.dir.appendingPathComponent("again.json"))
        #expect(
            try ws.run(["read", "--raw", "--device", "sim:again.json"]).stdout == "D1010D5504636F70792E6578616D706C65\n"
        )
    }

    @Test func badOptions() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213)
        let ext = try ws.run(["dump", "-o", "x.bin", "--device", "sim:\(file)"])
        #expect(ext.status == 64)
        #expect(ext.stderr.hasPrefix("Error: -o takes a .json or .nfc file, not 'x.bin'\n"))
        #expect(!FileManager.default.fileExists(atPath: ws.path("x.bin")))
        let both = try ws.run(["dump", "-o", "x.json", "--json", "--device", "sim:\(file)"])
        #expect(both.status == 64)
        let t4 = try ws.run(["tag", "new", "--chip", "type4", "--uid", "04112233445566", "-o", "t4.json"])
        #expect(t4.status == 0)
        let r = try ws.run(["dump", "--password", "12345678", "--device", "sim:t4.json"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("Error: --password is for Type 2 tags\n"))
    }
}
