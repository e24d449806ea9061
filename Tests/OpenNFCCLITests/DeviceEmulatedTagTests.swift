import Foundation
import OpenNFCTestSupport
import Testing

/// Every tag command through `--device pcsc` on a tag that `opennfc emulate` serves on the vsmartcard reader
/// "Virtual PCD 00 01": the same commands as on `sim:`, over pcscd and the ACR122U-style pass-through.
/// Runs when scripts/test started pcscd (OPENNFC_E2E_PCSCD) and the binary has `emulate`.
@Suite(
    .enabled(if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] != nil),
    .enabled(if: (try? CLIRunner.run(["help", "emulate"]).status) == 0)
)
struct DeviceEmulatedTagTests {
    @Test func commandsOverPCSC() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        // The slot lock the other emulator tests take: one card on slot 01 at a time.
        let slotLock = SlotLock()
        defer { withExtendedLifetime(slotLock) {} }
        let file = try ws.tag("card.json", TagFixture.ntag215, message: TagFixture.uriMessage("pcsc.example"))
        let (emulator, _) = try CLIRunner.start(["emulate", "--slot", "1", "--save", ws.path(file)])
        defer { if emulator.isRunning { emulator.terminate() } }
        let device = ["--device", "pcsc:PCD 00 01", "--timeout", "20"]

        let read = try CLIRunner.firstAgainstEmulated { try ws.run(["read", "--raw"] + device) }
        #expect(read.status == 0)
        #expect(read.stdout == "D1010D5504706373632E6578616D706C65\n")
        let send = try ws.run(["send", "60"] + device)
        #expect(send.stdout == "0004040201001103  # NTAG215\n")
        let dump = try ws.run(["dump"] + device)
        #expect(dump.stdout.hasPrefix("Tag:      ntag215, UID 04A1B2C3D4E5F6, 135 pages\n"))
        let pw = try ws.run(["password", "set", "--password", "12345678"] + device)
        #expect(pw.status == 0)
        let refused = try ws.run(["write", "--uri", "https://no.example"] + device)
        #expect(refused.status == 1)
        #expect(try ws.run(["password", "remove", "--password", "12345678"] + device).status == 0)
        let write = try ws.run(["write", "--uri", "https://yes.example"] + device)
        #expect(write.status == 0)
        let lock = try ws.run(["lock", "--yes"] + device)
        #expect(lock.status == 0)
        let after = try ws.run(["read"] + device)
        #expect(after.stdout.contains("NDEF:     read-only, "))
        #expect(after.stdout.hasSuffix("  URI: https://yes.example\n"))

        emulator.terminate()
        emulator.waitUntilExit()
        // The emulator saved the card: the simulated tag file shows what the commands did over PC/SC.
        let saved = try ws.run(["read", "--device", "sim:\(file)"])
        #expect(saved.stdout.contains("NDEF:     read-only, "))
    }
}
