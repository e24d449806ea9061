import Foundation
import OpenNFCDevices
import OpenNFCRF
import OpenNFCSystem
import Testing

/// One device layer (docs/ARCHITECTURE.md, "Devices and device strings"): one grammar and one registry for
/// `OPENCORENFC_DEVICE` (the phone) and `opennfc --device` (tag commands).
@Suite struct DeviceLayerTests {
    /// A directory with two bare NDEF tag files (each loads as a factory NTAG215).
    func twoTagFiles() throws -> (String, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("opennfc-devices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let a = dir.appendingPathComponent("a.ndef")
        let b = dir.appendingPathComponent("b.ndef")
        try Data([0xD1, 0x01, 0x05, 0x55, 0x04] + Array("a.io".utf8)).write(to: a)
        try Data([0xD1, 0x01, 0x05, 0x55, 0x04] + Array("b.io".utf8)).write(to: b)
        return (a.path, b.path)
    }

    @Test func plusAndCommaSeparateTagFilesForBothUses() throws {
        let (a, b) = try twoTagFiles()
        for separator in ["+", ","] {
            let text = "sim:\(a)\(separator)\(b)"
            // The phone: both tags in the field at once.
            let phone = try DeviceRegistry.open(text, for: .phone)
            #expect(try phone.frontend.poll([.nfcA]).count == 2)
            #expect(phone.name == text)
            // A tag command: one after another, the next once the previous was released.
            let command = try DeviceRegistry.open(text, for: .command)
            let source = command.tagSource
            #expect(source.tagsRemaining == 2)
            let first = try #require(try source.waitForTag(timeout: .seconds(1)) { false })
            #expect(try command.frontend.poll([.nfcA]).map(\.handle) == [first.handle])
            try source.release()
            #expect(source.tagsRemaining == 1)
            #expect(try source.waitForTag(timeout: .seconds(1)) { false } != nil)
            try source.release()
            // Nothing more: the wait ends at the timeout on the virtual clock, at once.
            let before = command.nfcClock.now
            #expect(try source.waitForTag(timeout: .seconds(30)) { false } == nil)
            #expect(command.nfcClock.now.duration(since: before) == .seconds(30))
        }
    }

    @Test func malformedStringsAreUsageErrorsThatListTheSchemes() {
        for text in ["usb:1", "sim:", "sim:a.ndef+", "pcsc:"] {
            for use in [DeviceUse.phone, .command] {
                #expect(throws: DeviceError.self) { try DeviceRegistry.open(text, for: use) }
                do {
                    _ = try DeviceRegistry.open(text, for: use)
                } catch {
                    #expect(error.kind == .usage, "\(text)")
                }
            }
        }
        do {
            _ = try DeviceRegistry.open("usb:1")
        } catch {
            #expect(
                error.message.hasPrefix(
                    "unknown device 'usb:1'; use sim:<tagfile>[+<tagfile>…], pcsc, pcsc:<reader>, remote:[<port>]")
            )
        }
    }

    @Test func aSchemeRegisteredOnceReachesThePhoneAndTheCommands() throws {
        let (a, _) = try twoTagFiles()
        DeviceRegistry.register(
            DeviceScheme(name: "test-alias", usage: "test-alias:<tagfile>", help: "a tag file, as sim: opens it") {
                (argument: String, use: DeviceUse) throws(DeviceError) -> OpenedDevice in
                try DeviceRegistry.open("sim:\(argument)", for: use)
            })
        let phone = try DeviceRegistry.open("test-alias:\(a)")
        #expect(try phone.frontend.poll([.nfcA]).count == 1)
        let command = try DeviceRegistry.open("test-alias:\(a)", for: .command)
        #expect(command.tagSource.tagsRemaining == 1)
        #expect(DeviceRegistry.usage.hasSuffix(" or test-alias:<tagfile>"))
    }

    @Test func oneReaderMatcher() throws {
        let readers = ["ACS ACR122U 00 00", "Virtual PCD 00 00", "Virtual PCD 00 01"]
        #expect(try PCSCDevice.choose(nil, from: readers, one: false) == nil)
        #expect(try PCSCDevice.choose("acr122", from: readers, one: true) == "ACS ACR122U 00 00")
        #expect(try PCSCDevice.choose("Virtual PCD 00 01", from: readers, one: true) == "Virtual PCD 00 01")
        #expect(
            throws: DeviceError(
                "'Virtual' matches 2 PC/SC readers ('Virtual PCD 00 00', 'Virtual PCD 00 01'); give more of the name")
        ) {
            try PCSCDevice.choose("Virtual", from: readers, one: true)
        }
        #expect(
            throws: DeviceError(
                "3 PC/SC readers are connected ('ACS ACR122U 00 00', 'Virtual PCD 00 00', 'Virtual PCD 00 01'); choose one with --device pcsc:<reader>"
            )
        ) {
            try PCSCDevice.choose(nil, from: readers, one: true)
        }
        #expect(
            throws: DeviceError(
                "no PC/SC reader matches 'SCL'; the readers are 'ACS ACR122U 00 00', 'Virtual PCD 00 00', 'Virtual PCD 00 01'"
            )
        ) {
            try PCSCDevice.choose("SCL", from: readers, one: false)
        }
    }

    @Test func bothVariableNamesAreRead() {
        #expect(DeviceRegistry.fromEnvironment(["OPENNFC_DEVICE": "sim:empty"])?.variable == "OPENNFC_DEVICE")
        let both = DeviceRegistry.fromEnvironment(["OPENNFC_DEVICE": "pcsc", "OPENCORENFC_DEVICE": "sim:empty"])
        #expect(both?.variable == "OPENCORENFC_DEVICE")
        #expect(both?.device == "sim:empty")
        #expect(DeviceRegistry.fromEnvironment(["OPENCORENFC_DEVICE": ""]) == nil)
    }
}
