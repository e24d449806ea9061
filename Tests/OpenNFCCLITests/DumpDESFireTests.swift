import Foundation
import Testing

/// `opennfc dump` and `opennfc restore` on MIFARE DESFire EV1: every application and standard data file.
@Suite struct DumpDESFireTests {
    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A blank EV1 as NXP ships it: a `desfire` section without applications (docs/TAG-FILES.md).
    static let blank = """
        {"format": "opennfc-tag", "version": 1, "chip": "desfire-ev1", "uid": "04A1B2C3D4E5F6", "desfire": {}}
        """

    @Test func dumpReproducesApplicationsFilesAndContentsAndLeavesTheSourceAlone() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let made = try ws.run(["tag", "new", "--chip", "desfire-ev1", "--uri", "https://example.com", "-o", "s.json"])
        #expect(made.status == 0)
        let before = try TagFixture.bytes(ws.path("s.json"))
        let r = try ws.run(["dump", "-o", "d.json", "--device", "sim:s.json"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("(1 application(s), 2 file(s)) to d.json"), "\(r.stderr)")
        #expect(try TagFixture.bytes(ws.path("s.json")) == before)
        let shownSource = try ws.run(["tag", "show", "--json", "s.json"])
        let shownDump = try ws.run(["tag", "show", "--json", "d.json"])
        #expect(shownDump.status == 0)
        let source = try json(shownSource.stdoutBytes)
        let dump = try json(shownDump.stdoutBytes)
        #expect((dump["applications"] as? [Any]).map { $0.count } == 1)
        #expect(NSDictionary(dictionary: dump).isEqual(to: source))
        // Contents: the files' `desfire` sections (applications, files, data, version, activation) are equal.
        let sourceSection = try #require(try json(before)["desfire"] as? [String: Any])
        let dumpSection = try #require(try json(try TagFixture.bytes(ws.path("d.json")))["desfire"] as? [String: Any])
        #expect(NSDictionary(dictionary: dumpSection).isEqual(to: sourceSection))
        let read = try ws.run(["read", "--device", "sim:d.json"])
        #expect(read.status == 0)
        #expect(read.stdout.contains("URI: https://example.com"))
        let listing = try ws.run(["dump", "--device", "sim:s.json"])
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("Application 000001: key settings 0F, key count 21, ISO DF E105"))
        #expect(listing.stdout.contains("  File 2 (ISO E104): standard, 4096 bytes, communication 00, access EEEE\n"))
        // The one memory map: the zero bytes after the message collapsed into `*`, the last line shown.
        #expect(
            listing.stdout.contains(
                "    *\n    0FF0  " + String(repeating: "00 ", count: 15) + "00  ................\n"))
    }

    @Test func restoreCreatesTheApplicationAndFilesOnABlankCard() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(
            try ws.run(["tag", "new", "--chip", "desfire-ev1", "--uri", "https://example.com", "-o", "s.json"]).status
                == 0)
        #expect(try ws.run(["dump", "-o", "d.json", "--device", "sim:s.json"]).status == 0)
        _ = try TagFixture.write(Self.blank, to: ws.dir, name: "blank.json")
        let empty = try ws.run(["read", "--device", "sim:blank.json"])
        #expect(!empty.stdout.contains("example.com"))
        let r = try ws.run(["restore", "d.json", "--json", "--device", "sim:blank.json"])
        #expect(r.status == 0)
        let result = try json(r.stdoutBytes)
        #expect(result["applicationsCreated"] as? Int == 1)
        #expect(result["filesCreated"] as? Int == 2)
        #expect(result["bytesWritten"] as? Int == 15 + 4096)
        let read = try ws.run(["read", "--device", "sim:blank.json"])
        #expect(read.status == 0)
        #expect(read.stdout.contains("URI: https://example.com"))
        // Again: everything exists, so only the contents are written.
        let again = try json(try ws.run(["restore", "d.json", "--json", "--device", "sim:blank.json"]).stdoutBytes)
        #expect(again["applicationsCreated"] as? Int == 0)
        #expect(again["filesCreated"] as? Int == 0)
    }

    @Test func aNonDESFireTargetIsRefusedInOneLine() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "-o", "d.json"]).status == 0)
        for chip in ["ntag215", "type4"] {
            #expect(try ws.run(["tag", "new", "--chip", chip, "-o", "\(chip).json"]).status == 0)
            let before = try TagFixture.bytes(ws.path("\(chip).json"))
            let r = try ws.run(["restore", "d.json", "--device", "sim:\(chip).json"])
            #expect(r.status == 1)
            #expect(r.stderr.hasPrefix("Error: 'd.json' is a dump of a desfire-ev1 tag, but the tag in the field is "))
            #expect(r.stderr.split(separator: "\n").count == 1)
            #expect(try TagFixture.bytes(ws.path("\(chip).json")) == before)
        }
    }
}
