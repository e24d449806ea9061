import Foundation
import Testing

/// `opennfc doctor`'s host card emulation checks (`CardSession`): the entitlements that make `CardSession()` trap,
/// and the AID prefixes that decide which SELECTs reach the app.
@Suite struct DoctorHCETests {
    typealias App = DoctorTests.App

    /// Entitlements with the reader formats (TAG) and these HCE keys.
    static func entitlements(_ hce: String) -> String {
        DoctorTests.plist(
            """
            <key>com.apple.developer.nfc.readersession.formats</key>
            <array>
            <string>TAG</string>
            </array>
            \(hce)
            """)
    }

    @Test func soundHCEEntitlementsPass() throws {
        let app = try App()
        defer { app.cleanup() }
        try app.write(
            "App.entitlements",
            Self.entitlements(
                """
                <key>com.apple.developer.nfc.hce</key>
                <true/>
                <key>com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes</key>
                <array>
                <string>F04C4F59414C</string>
                </array>
                """))
        try app.write("Info.plist", DoctorTests.soundInfo)
        let r = try app.run(["--info-plist", "Info.plist", "--entitlements", "App.entitlements"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("hce"))
    }

    @Test func everyHCERuleReportsFileLineAndFix() throws {
        let app = try App()
        defer { app.cleanup() }
        try app.write(
            "App.entitlements",
            Self.entitlements(
                """
                <key>com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes</key>
                <array>
                <string>F04C4F5941</string>
                <string>F04C4F59414C</string>
                <string>F0</string>
                <string>XYZ0</string>
                </array>
                """))
        try app.write(
            "Info.plist",
            DoctorTests.plist(
                """
                <key>NFCReaderUsageDescription</key>
                <string>Reads cards.</string>
                <key>com.apple.developer.nfc.hce</key>
                <true/>
                """))
        let r = try app.run(["--info-plist", "Info.plist", "--entitlements", "App.entitlements"])
        #expect(r.status == 1)
        let out = r.stdout
        #expect(
            out.contains(
                "Info.plist:7: error: com.apple.developer.nfc.hce is an entitlement; in Info.plist iOS ignores it and CardSession() traps"
            ))
        #expect(
            out.contains(
                "App.entitlements:16: error: com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes is set but com.apple.developer.nfc.hce is not true: CardSession() traps"
            ))
        #expect(out.contains("App.entitlements:13: error: 'F0' is 1 bytes; an AID prefix is at least a RID (5 bytes)"))
        #expect(
            out.contains(
                "App.entitlements:14: error: 'XYZ0' in com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes is not an AID prefix in hex"
            ))
        #expect(
            out.contains("App.entitlements:12: advice: 'F04C4F59414C' is already covered by the prefix 'F04C4F5941'"))
    }

    @Test func hceOnWithoutPrefixesTraps() throws {
        let app = try App()
        defer { app.cleanup() }
        try app.write(
            "App.entitlements",
            Self.entitlements(
                """
                <key>com.apple.developer.nfc.hce</key>
                <string>yes</string>
                """))
        let r = try app.run(["--entitlements", "App.entitlements"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("error: com.apple.developer.nfc.hce is a string, not a Boolean"))
    }
}
