import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc passport read --device pcsc` against `opennfc emulate` of a virtual passport and ID card through the real
/// pcscd and vsmartcard's vpcd: BAC, PACE and secure messaging over PC/SC, passive
/// authentication against the test CSCA, the tag file untouched by the read.
@Suite struct PassportPCSCTests {
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1",
            "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running (scripts/test starts it)"),
        arguments: ["passport", "id-card"])
    func aVirtualDocumentIsReadAndVerifiedThroughPCSC(_ chip: String) throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["passport", "pki", "-o", "pki"]).status == 0)
        #expect(
            try ws.run(["tag", "new", "--chip", chip, "--can", "123456", "--pki", "pki", "-o", "doc.json"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: ws.path("doc.json")))
        let (emulator, _) = try CLIRunner.start(["emulate", "--slot", "1", ws.path("doc.json")])
        defer { if emulator.isRunning { emulator.terminate() } }
        let password = chip == "passport" ? ["--mrz", "L898902C3,740812,120415"] : ["--can", "123456"]
        let read = try CLIRunner.firstAgainstEmulated {
            try ws.run(
                ["passport", "read"] + password + ["--csca", "pki", "--photo", "face.jpg", "--device", "pcsc:00 01"])
        }
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(read.stdout.contains("  Chain           passed"), "\(read.stdout)")
        #expect(read.stdout.contains("Result            verified"), "\(read.stdout)")
        let face = try Data(contentsOf: URL(fileURLWithPath: ws.path("face.jpg")))
        #expect(face.prefix(2) == Data([0xFF, 0xD8]))
        emulator.terminate()
        emulator.waitUntilExit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: ws.path("doc.json"))) == before)
    }
}
