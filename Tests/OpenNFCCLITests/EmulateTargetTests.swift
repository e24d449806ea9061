import Foundation
import Testing

/// `opennfc emulate --device pn532:…` refuses a tag a PN532 in target mode cannot present, and its hint lists the
/// registered chips that it can present, asked of the chip registry (no device is opened for the refusal).
@Suite struct EmulateTargetTests {
    @Test func aTagThatIsNotAnISODEPACardIsRefusedWithTheRegisteredChipsThatAre() throws {
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tag = dir.appendingPathComponent("ntag.json").path
        #expect(try CLIRunner.run(["tag", "new", "--chip", "ntag215", "-o", tag]).status == 0)
        let r = try CLIRunner.run(["emulate", "--device", "pn532:/dev/null", tag])
        #expect(r.status != 0)
        #expect(r.stderr.contains("a ntag215 is not an ISO-DEP card"), "\(r.stderr)")
        let hint = r.stderr.components(separatedBy: "(as a new ").last?.components(separatedBy: " is)").first ?? ""
        let chips = Set(hint.replacingOccurrences(of: " or ", with: ", ").components(separatedBy: ", "))
        // ISO/IEC 14443-4 A chips as they ship; the NFC-B Type 4 card, NFC-A level-3 chips and other technologies
        // are not.
        for chip in ["type4", "desfire-ev1", "mifare-plus-ev1-2k", "mifare-plus-ev2-4k-4b"] {
            #expect(chips.contains(chip), "\(chip) in \(hint)")
        }
        for chip in ["type4b", "ntag215", "mifare-classic-1k", "topaz512", "icode-slix", "felica-lite-s"] {
            #expect(!chips.contains(chip), "\(chip) in \(hint)")
        }
    }
}
