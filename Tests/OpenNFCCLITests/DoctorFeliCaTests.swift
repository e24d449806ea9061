import Foundation
import Testing

/// `opennfc doctor` on FeliCa: the system codes the sources poll against the Info.plist's
/// `com.apple.developer.nfc.readersession.felica.systemcodes` (docs/DIFFERENCES.md "FeliCa").
@Suite struct DoctorFeliCaTests {
    static let key = "com.apple.developer.nfc.readersession.felica.systemcodes"

    static func info(_ codes: [String]) -> String {
        DoctorTests.plist(
            """
            <key>NFCReaderUsageDescription</key>
            <string>Reads your transit card.</string>
            <key>\(key)</key>
            <array>
            \(codes.map { "<string>\($0)</string>" }.joined(separator: "\n"))
            </array>
            """)
    }

    static let entitlements = DoctorTests.plist(
        """
        <key>com.apple.developer.nfc.readersession.formats</key>
        <array>
        <string>TAG</string>
        </array>
        """)

    static let source = """
        import CoreNFC

        final class Reader: NSObject, NFCTagReaderSessionDelegate {
            func start() {
                NFCTagReaderSession(pollingOption: .iso18092, delegate: self)?.begin()
            }
            func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
                guard case .feliCa(let tag) = tags[0] else { return }
                tag.polling(systemCode: Data([0x00, 0x03]), requestCode: .noRequest, timeSlot: .max1) { _, _, _ in }
                tag.polling(systemCode: Data([0xFF, 0xFF]), requestCode: .noRequest, timeSlot: .max1) { _, _, _ in }
                tag.polling(systemCode: Data([0xFE, 0x00]), requestCode: .noRequest, timeSlot: .max1) { _, _, _ in }
            }
        }
        """

    func findings(_ codes: [String]) throws -> [String] {
        let app = try DoctorTests.App()
        defer { app.cleanup() }
        try app.write("Info.plist", Self.info(codes))
        try app.write("App.entitlements", Self.entitlements)
        try app.write("Src/Reader.swift", Self.source)
        let r = try app.run(["--info-plist", "Info.plist", "--entitlements", "App.entitlements", "--sources", "Src"])
        return r.stdout.split(separator: "\n").filter { $0.contains("error:") }.map(String.init)
    }

    @Test func undeclaredAndWildcardPollsAreErrors() throws {
        let lines = try findings(["FE00"])
        #expect(
            lines == [
                "Src/Reader.swift:9: error: the app polls system code 0003 here, but \(Self.key) does not declare it, "
                    + "so polling(systemCode:) fails with 2 (missing required entitlement) and a tag that has only "
                    + "this system code is never delivered",
                "Src/Reader.swift:10: error: the app polls the wildcard system code FFFF here; Core NFC fails "
                    + "polling(systemCode:) with 3 (invalid parameter) for a code with FF",
            ])
    }

    @Test func aListWithNoValidEntryEndsTheSessionAtBegin() throws {
        let lines = try findings(["FFFF"])
        #expect(
            lines.contains {
                $0.hasPrefix("Src/Reader.swift:")
                    && $0.hasSuffix(
                        "no entry of \(Self.key) is a valid system code, so a tag session polling .iso18092 ends at "
                            + "begin() with 2 (missing required entitlement)")
            })
    }
}
