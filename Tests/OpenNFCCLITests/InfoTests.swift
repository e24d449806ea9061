import Foundation
import Testing

/// `opennfc info`: every chip `opennfc tag new --help` lists, blank (no message) as `tag new` makes it, identified
/// with only its technology's fields; a non-NDEF tag is described, not an error; nothing is written.
@Suite struct InfoTests {
    /// The chips of `tag new --help` ("Chip: a|b|…").
    static func chips() throws -> [String] {
        let help = try CLIRunner.run(["tag", "new", "--help"]).stdout
        guard let line = help.split(separator: "\n").first(where: { $0.contains("--chip <chip>") }),
            let list = line.split(separator: "Chip: ").last
        else { return [] }
        return list.trimmingCharacters(in: CharacterSet(charactersIn: ". ")).split(separator: "|").map(String.init)
    }

    @Test func everyChipOfTagNewIsIdentifiedBlank() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let chips = try Self.chips()
        #expect(chips.count >= 20)
        for chip in chips {
            let made = try ws.run(["tag", "new", "--chip", chip, "-o", "\(chip).json"])
            #expect(made.status == 0, "\(chip): \(made.stderr)")
            let before = try Data(contentsOf: ws.dir.appendingPathComponent("\(chip).json"))
            let r = try ws.run(["info", "--device", "sim:\(chip).json"])
            #expect(r.status == 0, "\(chip): \(r.stderr)")
            #expect(r.stdout.contains("Chip:       "), "\(chip): \(r.stdout)")
            #expect(r.stdout.contains("NDEF:       "), "\(chip): \(r.stdout)")
            let technology = r.stdout.split(separator: "\n").first { $0.hasPrefix("Technology:") } ?? ""
            let fields = Set(r.stdout.split(separator: "\n").map { String($0.prefix { $0 != ":" }) })
            if technology.contains("NFC-A") {
                #expect(
                    fields.isSuperset(of: ["UID", "ATQA", "SAK"]) || fields.isSuperset(of: ["UID", "HR"]), "\(chip)")
                #expect(!fields.contains("DSFID") && !fields.contains("IDm"), "\(chip)")
            } else if technology.contains("NFC-B") {
                #expect(fields.isSuperset(of: ["PUPI", "ATQB"]) && !fields.contains("ATQA"), "\(chip)")
            } else if technology.contains("NFC-F") {
                #expect(fields.isSuperset(of: ["IDm", "PMm"]) && !fields.contains("ATQA"), "\(chip)")
            } else if technology.contains("NFC-V") {
                #expect(fields.isSuperset(of: ["UID", "DSFID", "IC maker"]) && !fields.contains("SAK"), "\(chip)")
            } else {
                Issue.record("\(chip): no technology line in \(r.stdout)")
            }
            let j = try ws.run(["info", "--json", "--device", "sim:\(chip).json"])
            let parsed = try JSONSerialization.jsonObject(with: j.stdoutBytes) as? [[String: Any]]
            #expect(parsed?.first?["chip"] as? String != nil, "\(chip): \(j.stdout)")
            #expect(try Data(contentsOf: ws.dir.appendingPathComponent("\(chip).json")) == before, "\(chip)")
        }
    }

    /// An ICODE SLIX2 announces its originality signature (GET NXP SYSTEM INFORMATION, SL2S2602 §9.5.14): `info`
    /// reads it with READ SIGNATURE (`BD`); a FeliCa card polled without a system code gets its systems from
    /// Request System Code (`0C`).
    @Test func theSLIX2SignatureAndFeliCaSystemCodes() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "icode-slix2", "-o", "slix2.json"]).status == 0)
        let slix2 = try ws.run(["info", "--trace", "--device", "sim:slix2.json"])
        #expect(slix2.status == 0, "\(slix2.stderr)")
        let signature = slix2.stdout.split(separator: "\n").first { $0.hasPrefix("Signature:") } ?? ""
        #expect(signature.contains("(NXP originality, not verified)"), "\(slix2.stdout)")
        #expect(signature.split(separator: " ").dropFirst().first?.count == 64, "\(signature)")
        #expect(slix2.stderr.contains("READ SIGNATURE"), "\(slix2.stderr)")
        #expect(try ws.run(["tag", "new", "--chip", "icode-slix", "-o", "slix.json"]).status == 0)
        let slix = try ws.run(["info", "--device", "sim:slix.json"])
        #expect(!slix.stdout.contains("Signature:"), "\(slix.stdout)")
        for chip in ["felica-lite-s", "felica-standard"] {
            #expect(try ws.run(["tag", "new", "--chip", chip, "-o", "\(chip).json"]).status == 0)
            let r = try ws.run(["info", "--json", "--device", "sim:\(chip).json"])
            let o = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]]
            let codes = (o?.first?["systemCodes"] as? [String]) ?? (o?.first?["systemCode"]).map { ["\($0)"] }
            #expect(codes?.isEmpty == false, "\(chip): \(r.stdout)")
        }
    }

    @Test func ntagDetailsAndAnUnformattedTag() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try ws.tag("blank.json", TagFixture.ntag213, formatted: false)
        try ws.tag("poster.json", TagFixture.ntag215, message: TagFixture.uriMessage("example.com"))
        let r = try ws.run(["info", "--device", "sim:blank.json+poster.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.hasPrefix("Tag 1 of 2\nTechnology: NFC-A (ISO/IEC 14443-3 Type A)\nUID:        04A1B2C3D4E5F6\n"))
        #expect(r.stdout.contains("ATQA:       0044\nSAK:        00\nChip:       ntag213 (NFC Forum Type 2)\n"))
        #expect(r.stdout.contains("Memory:     45 pages of 4 bytes (180 bytes)\n"))
        #expect(r.stdout.contains("NDEF:       not formatted: "))
        #expect(r.stdout.contains("Tag 2 of 2\n"))
        #expect(
            r.stdout.contains("NDEF:       read/write, capacity 492 bytes, message: 16 bytes\nLock:       not locked\n")
        )
        #expect(r.stdout.contains("Password:   none (AUTH0 FFh: no page protected)\n"))
        #expect(r.stdout.contains("Signature:  "))
    }

    @Test func classicKeysByRange() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "mifare-classic-1k", "-o", "c.json"]).status == 0)
        let r = try ws.run(["info", "--device", "sim:c.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Keys:       key A FFFFFFFFFFFF opens sectors 0-15\n"), "\(r.stdout)")
        #expect(r.stdout.contains("Memory:     16 sectors, 64 blocks of 16 bytes\n"))
    }
}
