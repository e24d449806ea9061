import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc emulate --pn532` as a process, and `opennfc --device pn532:` plus a Core NFC program with
/// `OPENCORENFC_DEVICE=pn532:` against it: the driver and the virtual PN532 meet over a real pseudo-terminal.
@Suite struct PN532CLITests {
    static var example: URL {
        CLIRunner.binary.deletingLastPathComponent().appendingPathComponent("opencorenfc-example")
    }

    /// Starts the emulator and returns it with the device path it printed (waiting for that line, at most 30 s).
    func start(_ arguments: [String]) throws -> (Process, String) {
        let p = Process()
        p.executableURL = CLIRunner.binary
        p.arguments = ["emulate", "--pn532"] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try ChildSignals.run(p)
        let got = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var line = ""
        DispatchQueue.global().async {
            var data = Data()
            while let byte = try? out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
                if byte == Data([0x0A]) { break }
                data += byte
            }
            line = String(decoding: data, as: UTF8.self)
            got.signal()
        }
        guard got.wait(timeout: .now() + 30) == .success, line.hasPrefix("/dev/") else {
            p.terminate()
            throw CLIRunnerError(description: "emulate --pn532 printed no device path: '\(line)'")
        }
        return (p, line)
    }

    struct CLIRunnerError: Error, CustomStringConvertible { var description: String }

    @Test func writeAndReadThroughTheVirtualPN532AndSave() throws {
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tag = dir.appendingPathComponent("ntag.json").path
        #expect(
            try CLIRunner.run(["tag", "new", "--chip", "ntag215", "--uid", "04A1B2C3D4E580", "--text", "hi", "-o", tag])
                .status == 0)
        let link = dir.appendingPathComponent("pn532").path
        let (emulator, path) = try start(["--save", "--link", link, tag])
        defer { if emulator.isRunning { emulator.terminate() } }
        #expect(FileManager.default.fileExists(atPath: link))
        let w = try CLIRunner.run(["write", "--text", "via PN532", "--device", "pn532:\(link)"], timeout: 60)
        #expect(w.status == 0, "\(w.stderr)")
        let r = try CLIRunner.run(["read", "--device", "pn532:\(path)"], timeout: 60)
        #expect(r.status == 0 && r.stdout.contains("Text (en, utf-8): via PN532"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("ntag215, UID 04A1B2C3D4E580"))
        // Core NFC code, unchanged, on the same device.
        let p = Process()
        p.executableURL = Self.example
        p.environment = ["OPENCORENFC_DEVICE": "pn532:\(path)", "OPENCORENFC_PROFILE": "desktop"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0 && String(decoding: text, as: UTF8.self) == "Text via PN532\n")
        let probe = try CLIRunner.run(["readers", "--probe", "--port", path], timeout: 60)
        #expect(probe.stdout.contains("pn532:\(path)  PN532 v1.6"))
        // SIGTERM ends the emulation and --save writes the tag back.
        emulator.terminate()
        emulator.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: link))
        let again = try CLIRunner.run(["read", "--device", "sim:\(tag)"])
        #expect(again.stdout.contains("via PN532"), "\(again.stdout)\(again.stderr)")
    }

    /// A Core NFC tag reader session (`opencorenfc-example tag`) on `OPENCORENFC_DEVICE=pn532:` finds a MIFARE Plus
    /// EV1 (SL0, as NXP ships it) behind the virtual PN532 as `NFCMiFareTag` `.plus` and sends it GetVersion with `sendMiFareCommand`.
    @Test func aCoreNFCTagSessionFindsAMIFAREPlusThroughThePN532() throws {
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tag = dir.appendingPathComponent("plus.json").path
        let made = try CLIRunner.run([
            "tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", "04112233445566", "-o", tag,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let (emulator, path) = try start([tag])
        defer { if emulator.isRunning { emulator.terminate() } }
        let p = Process()
        p.executableURL = Self.example
        p.arguments = ["tag"]
        p.environment = ["OPENCORENFC_DEVICE": "pn532:\(path)", "OPENCORENFC_PROFILE": "desktop"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
        #expect(text.hasPrefix("MIFARE plus, UID 04112233445566\nGetVersion AF04"), "\(text)")
    }

    @Test func badDeviceStringsAndMissingPortsAreClearErrors() throws {
        let r = try CLIRunner.run(["read", "--device", "pn532:/dev/ttyUSB0:12345"], timeout: 30)
        #expect(r.status != 0 && r.stderr.contains("not a PN532 serial speed"), "\(r.stderr)")
        let m = try CLIRunner.run(["read", "--device", "pn532:/dev/does-not-exist"], timeout: 30)
        #expect(m.status != 0 && m.stderr.contains("cannot open /dev/does-not-exist"), "\(m.stderr)")
        let u = try CLIRunner.run(["emulate", "--link", "/tmp/x", "a.json"], timeout: 30)
        #expect(u.status == 64 && u.stderr.contains("--link goes with --pn532"))
    }
}
