import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCDevices
import OpenNFCSystem
import Testing

/// Backend selection from the environment: device strings, configuration files, the idle rule.
@Suite struct EnvironmentDeviceTests {
    func tempFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("opencorenfc-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func noDeviceGivesAClearMessage() {
        #expect(throws: DeviceError.self) { try NFCSystem.configured([:]) }
        do {
            _ = try NFCSystem.configured([:])
        } catch {
            #expect(error.message.contains("OPENCORENFC_DEVICE=sim:<tagfile>"))
            #expect(error.message.contains("pcsc"))
        }
        let system = NFCSystem.fromEnvironment(["OPENCORENFC_DEVICE": "nonsense:x"])
        #expect(system.frontend == nil)
        #expect(throws: DeviceError.self) { try NFCSystem.configured(["OPENCORENFC_PROFILE": "android"]) }
        #expect(throws: DeviceError.self) {
            try NFCSystem.configured(["OPENCORENFC_DEVICE": "sim:/nonexistent/tag.json"])
        }
        #expect(throws: DeviceError.self) { try NFCSystem.configured(["OPENCORENFC_DEVICE": "sim:"]) }
    }

    @Test func simDeviceWithATagFileAndPlistFilesReadsAtOnce() async throws {
        let ndef = try tempFile("poster.ndef", [0xD1, 0x01, 0x05, 0x55, 0x04] + Array("a.io".utf8))
        let info = try tempFile(
            "Info.plist",
            PropertyList.dictionary([("NFCReaderUsageDescription", .string("Reads posters."))]).binaryEncoded)
        let entitlements = try tempFile(
            "App.entitlements",
            PropertyList.dictionary([("com.apple.developer.nfc.readersession.formats", .array([.string("TAG")]))])
                .xmlEncoded)
        let system = try NFCSystem.configured([
            "OPENCORENFC_DEVICE": "sim:\(ndef)", "OPENCORENFC_INFO_PLIST": info,
            "OPENCORENFC_ENTITLEMENTS": entitlements,
        ])
        #expect(system.configuration.usageDescription == "Reads posters.")
        let app = NDEFMessageRecorder()
        NFCSystem.$current.withValue(system) {
            NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin()
        }
        let error = await app.invalidation()
        #expect((error as? NFCReaderError)?.code == .readerSessionInvalidationErrorFirstNDEFTagRead)
        #expect(app.messages.count == 1)
    }

    /// The idle detector jumps the virtual clock to the 60 s deadline once nothing can happen: the timeout arrives
    /// after the one-second quiet spell of wall time, not after a minute.
    @Test func emptyFieldTimesOutThroughTheIdleDetector() async {
        let system = NFCSystem.fromEnvironment(["OPENCORENFC_DEVICE": "sim:empty", "OPENCORENFC_PROFILE": "desktop"])
        let app = TagSessionRecorder()
        NFCSystem.$current.withValue(system) {
            NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app).begin()
        }
        #expect(!system.isIdle, "an API call was just made")
        let error = await app.invalidation()
        #expect((error as? NFCReaderError)?.code == .readerSessionInvalidationErrorSessionTimeout)
        #expect(app.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout)])
    }

    @Test func registryAcceptsNewSchemes() throws {
        DeviceRegistry.register(
            DeviceScheme(name: "test-null", help: "nothing") { (_: String) throws(DeviceError) -> OpenedDevice in
                throw DeviceError("test-null has no reader")
            })
        #expect(DeviceRegistry.names.contains("test-null"))
        #expect(DeviceRegistry.names.contains("sim"))
        #expect(throws: DeviceError("test-null has no reader")) { try DeviceRegistry.open("test-null:anything") }
    }
}
