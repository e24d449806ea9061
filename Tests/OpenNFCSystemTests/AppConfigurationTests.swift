import Foundation
import OpenNFCSystem
import Testing

@Suite struct AppConfigurationTests {
    static let info = PropertyList.dictionary([
        ("CFBundleIdentifier", .string("com.example.scanner")),
        ("NFCReaderUsageDescription", .string("Reads inventory tags.")),
        (
            "com.apple.developer.nfc.readersession.iso7816.select-identifiers",
            .array([.string("A0000002471001"), .string("zz"), .string("D2760000850101")])
        ),
        ("com.apple.developer.nfc.readersession.felica.systemcodes", .array([.string("FE00"), .string("FFFF")])),
    ])
    static let entitlements = PropertyList.dictionary([
        ("com.apple.developer.nfc.readersession.formats", .array([.string("TAG")]))
    ])

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("opencorenfc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test(arguments: [false, true])
    func readsRealFiles(binary: Bool) throws {
        let infoPath = try write(binary ? Self.info.binaryEncoded : Self.info.xmlEncoded, "Info.plist")
        let entPath = try write(
            binary ? Self.entitlements.binaryEncoded : Self.entitlements.xmlEncoded, "App.entitlements")
        let c = try AppConfiguration(infoPlistPath: infoPath, entitlementsPath: entPath, profile: .iphone)
        #expect(c.usageDescription == "Reads inventory tags.")
        #expect(c.readerSessionFormats == ["TAG"])
        #expect(c.validSelectIdentifiers.map(\.text) == ["A0000002471001", "D2760000850101"])
        #expect(c.validSystemCodes.map(\.text) == ["FE00"])
        #expect(c.ndefSessionRefusal == nil)
        #expect(c.tagSessionRefusal(pace: false) == nil)
        #expect(c.tagSessionRefusal(pace: true) != nil)
        #expect(c.usageDescriptionProblem == nil)
    }

    @Test func missingFileAndWrongTypesAreClearErrors() throws {
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration(infoPlistPath: "/nonexistent/Info.plist", entitlementsPath: nil, profile: .iphone)
        }
        let bad = PropertyList.dictionary([("NFCReaderUsageDescription", .integer(3))])
        #expect(throws: ConfigurationError("Info.plist: NFCReaderUsageDescription is not a string")) {
            try AppConfiguration(infoPlist: bad, entitlements: nil, profile: .iphone)
        }
        let path = try write(Array("<plist><dict><key>x</key></dict></plist>".utf8), "Broken.plist")
        do {
            _ = try AppConfiguration(infoPlistPath: path, entitlementsPath: nil, profile: .iphone)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix(path))
            #expect(error.message.contains("line 1"))
        }
    }

    @Test func iphoneProfileGatesAndDesktopDoesNot() {
        let none = AppConfiguration.empty(.iphone)
        #expect(none.usageDescriptionProblem?.contains("NFCReaderUsageDescription") == true)
        #expect(
            none.ndefSessionRefusal
                == .securityViolation(
                    "missing entitlement com.apple.developer.nfc.readersession.formats with NDEF or TAG"))
        #expect(none.tagSessionRefusal(pace: false) != nil)
        let ndefOnly = AppConfiguration(readerSessionFormats: ["NDEF"])
        #expect(ndefOnly.ndefSessionRefusal == nil)
        #expect(ndefOnly.tagSessionRefusal(pace: false) != nil)
        let desktop = AppConfiguration.empty(.desktop)
        #expect(desktop.usageDescriptionProblem == nil)
        #expect(desktop.ndefSessionRefusal == nil)
        #expect(desktop.tagSessionRefusal(pace: true) == nil)
    }
}
