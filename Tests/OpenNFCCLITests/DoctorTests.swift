import Foundation
import Testing

/// `opennfc doctor`: the configuration rules Core NFC enforces, checked on files written here, through the built
/// binary (stdout, stderr and exit status compared).
@Suite struct DoctorTests {
    /// A small app: files written into a fresh directory, paths printed relative to it.
    struct App {
        let dir: URL
        init() throws { dir = try CLIRunner.temporaryDirectory() }
        /// Line breaks of the files written (CRLF: as a Windows editor saves them).
        var lineBreak = "\n"
        func write(_ name: String, _ text: String) throws {
            let text = text.replacingOccurrences(of: "\n", with: lineBreak)
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        func run(_ args: [String]) throws -> CLIRunner.Result {
            try CLIRunner.run(["doctor"] + args, currentDirectory: dir)
        }
        func cleanup() { try? FileManager.default.removeItem(at: dir) }
    }

    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>

        """
    }

    static let soundInfo = plist(
        """
        <key>NFCReaderUsageDescription</key>
        <string>Reads your transit card balance.</string>
        <key>com.apple.developer.nfc.readersession.iso7816.select-identifiers</key>
        <array>
        <string>A0000002471001</string>
        <string>D2760000850101</string>
        </array>
        <key>com.apple.developer.nfc.readersession.felica.systemcodes</key>
        <array>
        <string>0003</string>
        </array>
        """)

    static let soundEntitlements = plist(
        """
        <key>com.apple.developer.nfc.readersession.formats</key>
        <array>
        <string>TAG</string>
        </array>
        """)

    static let soundSource = """
        import CoreNFC

        final class Reader: NSObject, NFCTagReaderSessionDelegate {
            var session: NFCTagReaderSession?
            let aid = Data([0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])

            func begin() {
                session = NFCTagReaderSession(pollingOption: [.iso14443, .iso18092], delegate: self)
                session?.alertMessage = "Hold the card near the top of the iPhone."
                session?.begin()
            }

            func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
                if case .iso7816(let tag) = tags[0] {
                    let select = NFCISO7816APDU(
                        instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
                        data: aid, expectedResponseLength: 256)
                    tag.sendCommand(apdu: select) { _, _, _, _ in }
                }
            }

            func balance(_ tag: NFCFeliCaTag) {
                tag.polling(systemCode: Data([0x00, 0x03]), requestCode: .systemCode, timeSlot: .max1) { _, _, _ in }
            }
        }

        """

    @Test func soundConfigurationExitsZero() throws {
        let app = try App()
        defer { app.cleanup() }
        try app.write("Info.plist", Self.soundInfo)
        try app.write("App.entitlements", Self.soundEntitlements)
        try app.write("Sources/Reader.swift", Self.soundSource)
        let r = try app.run([
            "--info-plist", "Info.plist", "--entitlements", "App.entitlements", "--sources", "Sources",
        ])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(
            r.stdout
                == "No problems found (checked Info.plist, App.entitlements, 1 source file(s) in Sources).\n")
    }

    @Test(arguments: ["\n", "\r\n"])
    func everyRuleReportsFileLineAndFix(lineBreak: String) throws {
        // The same lines whether the files have LF or CRLF line breaks.
        var app = try App()
        app.lineBreak = lineBreak
        defer { app.cleanup() }
        try app.write(
            "Info.plist",
            Self.plist(
                """
                <key>com.apple.developer.nfc.readersession.iso7816.select-identifiers</key>
                <array>
                <string>D2760000850101</string>
                <string>A0000002471001</string>
                </array>
                """))
        try app.write(
            "App.entitlements",
            Self.plist(
                """
                <key>com.apple.developer.nfc.readersession.formats</key>
                <array>
                <string>NDEF</string>
                </array>
                """))
        try app.write(
            "Src/Reader.swift",
            """
            final class Reader {
                let passport = Data([0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])
                func begin() {
                    session = NFCTagReaderSession(pollingOption: [.iso14443, .iso18092], delegate: self)
                    // NFCNDEFReaderSession( in a comment is not a session
                    session?.alertMessage = "No MIFARE Classic here, this is only text"
                }
                func run(_ tag: NFCISO7816Tag) {
                    let raw = NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00, 0x07,
                        0xF0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x00]))!
                    tag.sendCommand(apdu: raw) { _, _, _, _ in }
                }
                func felica(_ tag: NFCFeliCaTag) {
                    tag.polling(systemCode: Data([0x12, 0xFC]), requestCode: .systemCode, timeSlot: .max1) { _, _, _ in }
                }
                func classic(_ tag: NFCMiFareTag) {
                    tag.sendMiFareCommand(commandPacket: Data([0x60, 0x04, 0xFF, 0xFF])) { _, _ in }
                }
            }

            """)
        let r = try app.run(["--info-plist", "Info.plist", "--entitlements", "App.entitlements", "--sources", "Src"])
        #expect(r.status == 1)
        #expect(r.stderr == "")
        let fmt = "com.apple.developer.nfc.readersession.formats"
        let aids = "com.apple.developer.nfc.readersession.iso7816.select-identifiers"
        let codes = "com.apple.developer.nfc.readersession.felica.systemcodes"
        let expected = """
            Info.plist:10: error: NFCReaderUsageDescription is missing: iOS terminates the app when it starts an NFC \
            reader session
                fix: add <key>NFCReaderUsageDescription</key> with a <string> saying in one sentence why the app reads \
            tags
            Src/Reader.swift:4: error: NFCTagReaderSession is created here, but \(fmt) does not list TAG, so the \
            session is invalidated at once
                fix: add <string>TAG</string> to \(fmt) at App.entitlements:5
            Src/Reader.swift:9: error: the app SELECTs AID F0010203040506 here, but \(aids) does not declare it, so \
            Core NFC fails the command with a security violation
                fix: add <string>F0010203040506</string> to \(aids) in Info.plist:5
            Src/Reader.swift:13: error: the app reads FeliCa tags here, but the Info.plist has no \(codes), so Core \
            NFC never delivers a FeliCa tag
                fix: add <key>\(codes)</key> to Info.plist with the system codes, e.g. 12FC
            Src/Reader.swift:17: error: the app expects MIFARE Classic here (a MIFARE Classic AUTHENTICATE command \
            (0x60)); Core NFC does not support MIFARE Classic (NFCMiFareFamily has no Classic case and there is no \
            Crypto1 authentication)
                fix: use MIFARE DESFire, Ultralight/NTAG or an ISO 7816 card, or read Classic cards on a PC/SC reader
            App.entitlements:7: advice: App Store processing rejects the NDEF format for apps whose minimum iOS is 13 \
            or later (ITMS-90778)
                fix: list TAG instead of NDEF; TAG also covers NFCNDEFReaderSession
            Info.plist:7: advice: the generic NDEF application D2760000850101 is listed before A0000002471001; Core \
            NFC selects the first listed AID a card answers and reports it as initialSelectedAID
                fix: list the app's own AIDs first and the NDEF application AIDs last
            5 problems, 2 advice (checked Info.plist, App.entitlements, 1 source file(s) in Src).

            """
        #expect(r.stdout == expected)
    }

    @Test func keysInTheWrongFileAndBadValues() throws {
        let app = try App()
        defer { app.cleanup() }
        try app.write(
            "Info.plist",
            Self.plist(
                """
                <key>NFCReaderUsageDescription</key>
                <string>   </string>
                <key>com.apple.developer.nfc.readersession.formats</key>
                <array>
                <string>TAG</string>
                </array>
                <key>com.apple.developer.nfc.readersession.felica.systemcodes</key>
                <array>
                <string>FFFF</string>
                <string>12F</string>
                </array>
                <key>com.apple.developer.nfc.readersession.iso7816.select-identifiers</key>
                <array>
                <string>A000000003101001</string>
                <string>XYZ</string>
                </array>
                """))
        try app.write(
            "App.entitlements",
            Self.plist(
                """
                <key>com.apple.developer.nfc.readersession.formats</key>
                <string>TAG</string>
                <key>NFCReaderUsageDescription</key>
                <string>Reads tags.</string>
                """))
        let r = try app.run(["--info-plist", "Info.plist", "--entitlements", "App.entitlements"])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").filter { !$0.hasPrefix("    fix:") }
        let expected: [String] = [
            "Info.plist:7: error: com.apple.developer.nfc.readersession.formats is an entitlement, but it is in "
                + "the Info.plist where iOS never looks for it",
            "App.entitlements:7: error: NFCReaderUsageDescription belongs in the Info.plist, but it is in the "
                + "entitlements file where Core NFC never reads it",
            "Info.plist:5: error: NFCReaderUsageDescription is empty: iOS terminates the app when it starts an "
                + "NFC reader session",
            "App.entitlements:5: error: com.apple.developer.nfc.readersession.formats is a string, not an array "
                + "of strings",
            "Info.plist:18: error: 'A000000003101001' is a payment AID; Core NFC does not deliver tags through "
                + "payment AIDs in reader sessions",
            "Info.plist:19: error: 'XYZ' in com.apple.developer.nfc.readersession.iso7816.select-identifiers is "
                + "not an AID in hex",
            "Info.plist:13: error: 'FFFF' uses the FF wildcard, which Core NFC does not accept",
            "Info.plist:14: error: '12F' in com.apple.developer.nfc.readersession.felica.systemcodes is not a "
                + "system code (4 hex digits)",
            "8 problems, 0 advice (checked Info.plist, App.entitlements).",
        ]
        #expect(lines.map(String.init) == expected)
    }

    @Test func ndefSessionAndObjectiveCSources() throws {
        let app = try App()
        defer { app.cleanup() }
        try app.write("App.entitlements", Self.plist("<key>other</key>\n<true/>"))
        try app.write(
            "src/Scanner.m",
            """
            - (void)scan {
                self.session = [[NFCNDEFReaderSession alloc] initWithDelegate:self queue:nil invalidateAfterFirstRead:YES];
                [self.session beginSession];
            }

            """)
        try app.write("src/Tag.swift", "let s = NFCTagReaderSession(pollingOption: .pace, delegate: self)\n")
        let r = try app.run(["--entitlements", "App.entitlements", "--sources", "src", "--json"])
        #expect(r.status == 1)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["sound"] as? Bool == false)
        #expect(json["problems"] as? Int == 1)
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings[0]["file"] as? String == "App.entitlements")
        #expect(findings[0]["line"] as? Int == 7)
        #expect(
            (findings[0]["message"] as? String)?.hasPrefix(
                "com.apple.developer.nfc.readersession.formats is missing") == true)
        #expect(json["checked"] as? [String] == ["App.entitlements", "2 source file(s) in src"])
    }

    @Test func paceNeedsItsFormatAndBinaryPlistsHaveNoLines() throws {
        let app = try App()
        defer { app.cleanup() }
        let ent: [String: Any] = ["com.apple.developer.nfc.readersession.formats": ["TAG"]]
        let data = try PropertyListSerialization.data(fromPropertyList: ent, format: .binary, options: 0)
        try data.write(to: app.dir.appendingPathComponent("bin.entitlements"))
        try app.write("Tag.swift", "let s = NFCTagReaderSession(pollingOption: [.pace], delegate: self)\n")
        let r = try app.run(["--entitlements", "bin.entitlements", "--sources", "Tag.swift"])
        #expect(r.status == 1)
        #expect(
            r.stdout.hasPrefix(
                "Tag.swift:1: error: this NFCTagReaderSession polls with .pace, but "
                    + "com.apple.developer.nfc.readersession.formats does not list PACE\n"
                    + "    fix: add <string>PACE</string> to com.apple.developer.nfc.readersession.formats at "
                    + "bin.entitlements\n"))
    }

    @Test func adviceAloneKeepsExitZero() throws {
        let app = try App()
        defer { app.cleanup() }
        try app.write("empty/README.txt", "nothing here\n")
        let r = try app.run(["--sources", "empty"])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                empty: advice: no Core NFC reader session is created in the 0 source file(s) scanned
                    fix: point --sources at the directory holding the code that creates NFCNDEFReaderSession or \
                NFCTagReaderSession
                0 problems, 1 advice (checked 0 source file(s) in empty).

                """)
    }

    @Test func badInputIsOneLineError() throws {
        let app = try App()
        defer { app.cleanup() }
        let none = try app.run([])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("Error: give at least one of --info-plist, --entitlements and --sources\n"))
        let missing = try app.run(["--info-plist", "nope.plist"])
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "Error: cannot read the Info.plist 'nope.plist': no such file\n")
        try app.write("bad.plist", "<plist><dict><key>x</key>")
        let bad = try app.run(["--info-plist", "bad.plist"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("Error: the Info.plist 'bad.plist' is not a valid property list: "))
        #expect(bad.stderr.split(separator: "\n").count == 1)
        let dir = try app.run(["--sources", "missing-dir"])
        #expect(dir.status == 1)
        #expect(dir.stderr == "Error: sources directory 'missing-dir' does not exist\n")
    }
}
