import Foundation
import Testing

/// `opennfc tag new --chip passport|id-card`, `tag show` of an eMRTD and `opennfc passport pki`.
@Suite struct PassportTagNewCLITests {
    @Test func specimensHolderDataFaultsAndShow() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        for chip in ["passport", "id-card"] {
            let made = try ws.run(["tag", "new", "--chip", chip, "-o", "\(chip).json"])
            #expect(made.status == 0, "\(chip): \(made.stderr)")
            let show = try ws.run(["tag", "show", "\(chip).json"])
            #expect(show.status == 0 && show.stdout.contains("ANNA MARIA ERIKSSON"), "\(show.stdout)")
            #expect(show.stdout.contains("TEST"))
        }
        // Line 2's document number check digit is 8; the right one is 7.
        let mrz = "P<UTODOE<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<X1234567<8UTO9001011F3001019<<<<<<<<<<<<<<<2"
        let bad = try ws.run(["tag", "new", "--chip", "passport", "--mrz", mrz, "-o", "bad.json"])
        #expect(bad.status == 64 && bad.stderr.contains("line 2 column"), "\(bad.stderr)")
        let fields = try ws.run([
            "tag", "new", "--chip", "passport", "--document-number", "X1234567", "--surname", "Doe", "--given-names",
            "Jane", "--date-of-birth", "900101", "--date-of-expiry", "300101", "--sex", "F", "--can", "654321",
            "--fault", "cloned", "--fault", "tampered-dg", "--nfc", "a", "-o", "jane.json",
        ])
        #expect(fields.status == 0, "\(fields.stderr)")
        let show = try ws.run(["tag", "show", "jane.json"])
        // tampered-dg changed the surname's first letter after signing (DOE became XOE).
        #expect(show.stdout.contains("JANE XOE") && show.stdout.contains("CAN 654321"), "\(show.stdout)")
        #expect(
            show.stdout.contains("cloned:") && show.stdout.contains("tampered-dg:") && show.stdout.contains("NFC-A"))
        let wrongChip = try ws.run(["tag", "new", "--chip", "ntag215", "--can", "123456", "-o", "n.json"])
        #expect(wrongChip.status == 64 && wrongChip.stderr.contains("--can applies to --chip passport"))
    }

    @Test func sharedTestPKI() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let pki = try ws.run(["passport", "pki", "-o", "csca"])
        #expect(pki.status == 0, "\(pki.stderr)")
        for name in [
            "TEST-csca.cer", "TEST-csca-private-key.pk8", "TEST-document-signer.cer",
            "TEST-document-signer-private-key.pk8", "README-TEST-KEYS.txt",
        ] {
            #expect(FileManager.default.fileExists(atPath: ws.path("csca/\(name)")), "\(name)")
        }
        let csca = try Data(contentsOf: URL(fileURLWithPath: ws.path("csca/TEST-csca.cer")))
        #expect(String(decoding: csca, as: UTF8.self).contains("TEST CSCA UTO"))
        let a = try ws.run(["tag", "new", "--chip", "passport", "--pki", "csca", "-o", "a.json"])
        #expect(a.status == 0, "\(a.stderr)")
        let json = try String(contentsOfFile: ws.path("a.json"), encoding: .utf8)
        let ds = try Data(contentsOf: URL(fileURLWithPath: ws.path("csca/TEST-document-signer.cer")))
        let firstRow = ds.prefix(16).map { String(format: "%02X", $0) }.joined(separator: " ")
        #expect(json.contains(firstRow))
        let conflict = try ws.run([
            "tag", "new", "--chip", "passport", "--pki", "csca", "--fault", "unknown-csca", "-o", "b.json",
        ])
        #expect(conflict.status == 1 && conflict.stderr.contains("make their own PKI"), "\(conflict.stderr)")
    }
}
