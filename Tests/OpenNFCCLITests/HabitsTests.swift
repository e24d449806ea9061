import Foundation
import Testing

/// Messages and habits (docs/CLI.md, "Conventions"): did-you-mean for chips, device schemes and subcommands; chip
/// names case-folded; `ndef encode | ndef decode` both ways; `doctor --sources DIR` finds what DIR holds.
@Suite struct HabitsTests {
    @Test func didYouMeanAndCaseFolding() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let upper = try ws.run(["tag", "new", "--chip", "NTAG215", "-o", "t.json"])
        #expect(upper.status == 0, "\(upper.stderr)")
        let typo = try ws.run(["tag", "new", "--chip", "ntag2155", "-o", "t.json"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("Error: unknown chip 'ntag2155'; did you mean 'ntag215'? (choose from: "))
        let scheme = try ws.run(["read", "--device", "pcs"])
        #expect(scheme.status == 64)
        #expect(scheme.stderr.hasPrefix("Error: unknown device 'pcs'; did you mean 'pcsc'?"), "\(scheme.stderr)")
        let upperScheme = try ws.run(["read", "--raw", "--device", "SIM:t.json"])
        #expect(upperScheme.stderr.contains("holds no NDEF message"), "\(upperScheme.stderr)")
        let command = try ws.run(["raed"])
        #expect(command.status == 64)
        #expect(command.stderr.hasPrefix("Error: unknown command 'raed'; did you mean 'read'?\n"))
        let sub = try ws.run(["ndef", "decod"])
        #expect(sub.stderr.hasPrefix("Error: unknown command 'decod'; did you mean 'decode'?\n"))
        let far = try ws.run(["frobnicate"])
        #expect(far.stderr.hasPrefix("Error: unknown command 'frobnicate'\n"))
    }

    @Test func encodeAndDecodePipeBothWays() throws {
        let hex = try CLIRunner.run(["ndef", "encode", "--uri", "https://example.com"])
        let binary = try CLIRunner.run(["ndef", "encode", "--uri", "https://example.com", "--binary"])
        #expect(binary.stdoutBytes.first == 0xD1)
        #expect(BatchTests.hex(Array(binary.stdoutBytes)) + "\n" == hex.stdout)
        for input in [Data(hex.stdout.utf8), binary.stdoutBytes] {
            let d = try CLIRunner.run(["ndef", "decode", "-"], stdin: input)
            #expect(d.status == 0, "\(d.stderr)")
            #expect(d.stdout.contains("URI: https://example.com"), "\(d.stdout)")
        }
        // --binary reads hex-looking input as the bytes it is: 0x44 ("D") is no valid header.
        let forced = try CLIRunner.run(["ndef", "decode", "--binary"], stdin: Data(hex.stdout.utf8))
        #expect(forced.status == 1)
        let odd = try CLIRunner.run(["ndef", "decode"], stdin: Data("D10\n".utf8))
        #expect(odd.status == 1)
        #expect(odd.stderr.hasPrefix("Error: standard input looks like hex text but is not: "))
    }

    @Test func doctorFindsWhatTheFolderHolds() throws {
        let app = try DoctorTests.App()
        defer { app.cleanup() }
        // The usage description missing from the Info.plist inside App/: found, and the finding names it.
        try app.write("App/Info.plist", DoctorTests.plist("<key>CFBundleName</key>\n<string>App</string>"))
        try app.write("App/App.entitlements", DoctorTests.soundEntitlements)
        try app.write("App/Reader.swift", DoctorTests.soundSource)
        let r = try app.run(["--sources", "App"])
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stderr == "Found in App: App/Info.plist, App/App.entitlements.\n")
        #expect(r.stdout.contains("App/Info.plist"))
        #expect(r.stdout.contains("NFCReaderUsageDescription"))
        #expect(!r.stdout.contains("No problems found"))
    }

    @Test func doctorReadsAnXcodeProjectsBuildSettings() throws {
        let app = try DoctorTests.App()
        defer { app.cleanup() }
        try app.write("App/App.entitlements", DoctorTests.soundEntitlements)
        try app.write("App/Reader.swift", DoctorTests.soundSource)
        try app.write(
            "App.xcodeproj/project.pbxproj",
            """
            // !$*UTF8*$!
            {
            	objects = {
            		ABC /* Debug */ = {
            			isa = XCBuildConfiguration;
            			buildSettings = {
            				CODE_SIGN_ENTITLEMENTS = App/App.entitlements;
            				GENERATE_INFOPLIST_FILE = YES;
            				INFOPLIST_KEY_NFCReaderUsageDescription = "Reads your transit card balance.";
            				"INFOPLIST_KEY_com.apple.developer.nfc.readersession.iso7816.select-identifiers" = "";
            			};
            		};
            	};
            }

            """)
        let r = try app.run(["--sources", "."])
        #expect(r.stderr.contains("./App/App.entitlements"), "\(r.stderr)")
        #expect(r.stderr.contains("build settings of ./App.xcodeproj/project.pbxproj"), "\(r.stderr)")
        // The usage description comes from the build setting: no finding about it.
        #expect(!r.stdout.contains("NFCReaderUsageDescription"), "\(r.stdout)")
        #expect(r.stdout.contains("the INFOPLIST_KEY_ settings of ./App.xcodeproj/project.pbxproj"))
    }
}

extension HabitsTests {
    /// Stale words fixed: a `.ndef` file is no dump and keeps no lock; `lock`'s success goes to stderr; the Flipper
    /// help names every family it converts.
    @Test func ndefFilesAreNoDumpsAndKeepNoLocks() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["ndef", "encode", "--uri", "https://example.com", "-o", "m.ndef"]).status == 0)
        let before = try TagFixture.bytes(ws.path("m.ndef"))
        let restore = try ws.run(["restore", "m.ndef", "--device", "sim:m.ndef"])
        #expect(restore.status == 1)
        #expect(
            restore.stderr
                == "Error: 'm.ndef' is an NDEF message, not a dump of a tag's memory; write it with "
                + "'opennfc write --ndef-file m.ndef'\n")
        let lock = try ws.run(["lock", "--yes", "--device", "sim:m.ndef"])
        #expect(lock.status == 1)
        #expect(lock.stderr.hasPrefix("Error: 'm.ndef' is a .ndef file, which holds only the message"))
        #expect(try TagFixture.bytes(ws.path("m.ndef")) == before)
        let help = try ws.run(["tag", "--help"])
        #expect(help.stdout.contains("MIFARE Classic") && help.stdout.contains("FeliCa"))
    }
}

extension HabitsTests {
    /// One view's first facts: a factory Topaz fits a screen (its NULL padding is one line), and an empty tag of any
    /// family says "NDEF message: none", before its memory map.
    @Test func factoryTopazFitsAScreenAndEmptyTagsSayNone() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        for chip in ["topaz512", "icode-slix", "ntag215", "felica-lite-s"] {
            #expect(try ws.run(["tag", "new", "--chip", chip, "-o", "\(chip).json"]).status == 0)
            let show = try ws.run(["tag", "show", "\(chip).json"])
            #expect(show.status == 0)
            // The message first (after chip, UID, identifiers and access), then the chip's report and memory map.
            let lines = show.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.firstIndex(of: "NDEF message: none") == 4, "\(chip): \(show.stdout)")
            #expect(!show.stdout.contains("not a valid NDEF message"), "\(chip)")
        }
        let topaz = try ws.run(["tag", "show", "topaz512.json"]).stdout
        #expect(topaz.split(separator: "\n").count < 80)
        #expect(topaz.contains("NULL TLVs (00h) at bytes 24–511: 464 padding bytes\n"))
        #expect(!topaz.contains("TLV 00h at byte"))
    }
}

extension HabitsTests {
    /// `tag show` of an NFC-V, NFC-F or NFC-B tag names its own identifiers, never an ATQA of zeros.
    @Test func tagShowNamesEachTechnologysIdentifiers() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let expected = ["icode-slix": "DSFID: 00  AFI: 00  IC maker: 04", "felica-lite-s": "IDm: ", "type4b": "PUPI: "]
        for (chip, line) in expected {
            #expect(try ws.run(["tag", "new", "--chip", chip, "-o", "\(chip).json"]).status == 0)
            let show = try ws.run(["tag", "show", "\(chip).json"]).stdout
            #expect(show.split(separator: "\n")[2].hasPrefix(line), "\(chip): \(show)")
            #expect(!show.contains("ATQA"), "\(chip)")
            let json = try ws.run(["tag", "show", "--json", "\(chip).json"])
            let o = try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any]
            #expect(o?["atqa"] == nil && o?["sak"] == nil, "\(chip)")
        }
    }
}
