import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc emulate` and `opennfc readers` as a user runs them; the real-pcscd part needs OPENNFC_E2E_PCSCD=1.
@Suite struct PCSCEmulateTests {
    @Test func badArgumentsAreUsageErrors() throws {
        let r = try CLIRunner.run(["emulate", "--vpcd", "nowhere", "t.json"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--vpcd takes <host:port>"))
        let both = try CLIRunner.run(["emulate", "--vpcd", "127.0.0.1:35963", "--slot", "1", "t.json"])
        #expect(both.status == 64)
        let slot = try CLIRunner.run(["emulate", "--slot", "2", "t.json"])
        #expect(slot.status == 64)
        #expect(slot.stderr.contains("--slot takes a whole number from 0 to 1"))
    }

    @Test func missingTagFileNamesIt() throws {
        let r = try CLIRunner.run(["emulate", "/nonexistent/tag.json"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/nonexistent/tag.json"))
    }

    @Test func nothingListeningSaysStartPCSCD() throws {
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("t.json").path
        #expect(try CLIRunner.run(["tag", "new", "--chip", "ntag213", "-o", file]).status == 0)
        // Port 9 (discard) is closed on loopback.
        let r = try CLIRunner.run(["emulate", "--vpcd", "127.0.0.1:9", file])
        #expect(r.status == 1)
        #expect(r.stderr.contains("nothing listens on 127.0.0.1:9"))
        #expect(r.stderr.contains("scripts/pcscd up"))
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1",
            "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running (scripts/test starts it)"))
    func emulateReadWriteSaveThroughPCSC() throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("poster.json").path
        let made = try CLIRunner.run([
            "tag", "new", "--chip", "ntag215", "--uid", "04A1B2C3D4E580", "--text", "hello vpcd", "-o", file,
        ])
        #expect(made.status == 0)

        let (emulator, err) = try CLIRunner.start(["emulate", "--slot", "1", "--save", file])
        defer { if emulator.isRunning { emulator.terminate() } }

        // `read` waits (in SCardGetStatusChange) until the emulated tag is on the reader.
        let read = try CLIRunner.firstAgainstEmulated {
            try CLIRunner.run(["read", "--device", "pcsc:00 01", "--json"])
        }
        #expect(read.status == 0)
        #expect(read.stdout.contains("hello vpcd"))
        let readers = try CLIRunner.run(["readers", "--json"])
        #expect(readers.status == 0)
        #expect(readers.stdout.contains("\"chip\": \"NTAG215\""))
        #expect(readers.stdout.contains("\"uid\": \"04A1B2C3D4E580\""))
        let write = try CLIRunner.run(["write", "--text", "written over PC/SC", "--device", "pcsc:00 01"])
        #expect(write.status == 0)

        emulator.terminate()  // SIGTERM: the emulator saves the tag and exits 0
        emulator.waitUntilExit()
        #expect(emulator.terminationStatus == 0)
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("Saved \(file)"))
        let shown = try CLIRunner.run(["tag", "show", "--json", file])
        #expect(shown.stdout.contains("written over PC/SC"))
    }
}
