import Foundation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// A plain executable written against the public API, pointed at devices from outside.
@Suite struct ExampleProgramTests {
    static var binary: URL { TestProcess.executable("opencorenfc-example") }

    func run(_ environment: [String: String], arguments: [String] = []) throws -> ProcessOutput {
        try TestProcess.run(Self.binary, arguments, environment: environment)
    }

    func tagFile(_ bytes: [UInt8]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("poster.ndef")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func withoutADeviceItSaysWhatToSet() throws {
        let r = try run([:])
        #expect(r.status == 1)
        #expect(r.stderr.contains("OpenCoreNFC: no NFC device configured. Set OPENCORENFC_DEVICE=sim:<tagfile>"))
        #expect(r.stderr.contains("NFC reading is not available on this device."))
    }

    @Test func readsTheTagFileItIsPointedAt() throws {
        let path = try tagFile([0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8))
        let r = try run(["OPENCORENFC_DEVICE": "sim:\(path)", "OPENCORENFC_PROFILE": "desktop"])
        #expect(r.status == 0)
        #expect(r.stdout == "URI https://example.com\n")
    }

    @Test func traceShowsTheSheetAndTheFrames() throws {
        let path = try tagFile([0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8))
        let r = try run([
            "OPENCORENFC_DEVICE": "sim:\(path)", "OPENCORENFC_PROFILE": "desktop", "OPENCORENFC_TRACE": "frames",
        ])
        #expect(r.status == 0)
        #expect(r.stderr.contains("sheet: shown: [Ready to Scan] Hold your iPhone near the tag."))
        #expect(r.stderr.contains("rf: → 60"))
        #expect(r.stderr.contains("system: session 1 invalidated (firstNDEFTagRead)"))
    }

    @Test func iphoneProfileWithoutUsageDescriptionTerminatesTheProgram() throws {
        let path = try tagFile([0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8))
        let r = try run(["OPENCORENFC_DEVICE": "sim:\(path)"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("NFCReaderUsageDescription"))
        #expect(r.stdout.isEmpty)
    }

    /// iOS traps (`fatalError`) in `CardSession()` without the HCE entitlement; so does a process here.
    @Test func cardSessionWithoutTheHCEEntitlementTrapsTheProcess() throws {
        let r = try run(["OPENCORENFC_DEVICE": "sim:empty"], arguments: ["card"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("CardSession: missing entitlement com.apple.developer.nfc.hce"))
        #expect(r.stdout.isEmpty)
    }

    /// `OPENCORENFC_HCE=ineligible`: `isEligible` is false, and the program says so instead of emulating.
    @Test func anIneligibleProcessIsToldByIsEligible() throws {
        let r = try run(
            ["OPENCORENFC_DEVICE": "sim:empty", "OPENCORENFC_PROFILE": "desktop", "OPENCORENFC_HCE": "ineligible"],
            arguments: ["card"])
        #expect(r.status == 1)
        #expect(r.stderr == "Card emulation is not available on this device.\n")
    }

    /// An empty field: the idle detector jumps the virtual clock to the 60 s limit after a second of quiet.
    @Test func emptyFieldTimesOut() throws {
        let r = try run(["OPENCORENFC_DEVICE": "sim:empty", "OPENCORENFC_PROFILE": "desktop"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("Session ended: Session timeout"))
    }
}
