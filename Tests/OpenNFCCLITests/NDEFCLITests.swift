import Foundation
import Testing

/// `opennfc ndef decode` / `ndef encode`: every clause of the CLI contract, run on the binary.
@Suite struct NDEFCLITests {
    static let uriHex = "D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67"
    static let uriJSON =
        #"{"records":[{"tnf":1,"type":"55","id":"","payload":"036E666370792E6F7267","uri":"http://nfcpy.org"}]}"#
        + "\n"

    // MARK: decode

    @Test func decodeHexPrintsAListing() throws {
        let r = try CLIRunner.run(["ndef", "decode", "--hex", Self.uriHex])
        #expect(r.status == 0)
        #expect(r.stdout == "Record 1: well-known \"U\", payload 10 bytes\n  URI: http://nfcpy.org\n")
        #expect(r.stderr.isEmpty)
    }

    @Test func decodeJSONHasTheContractShape() throws {
        let r = try CLIRunner.run(["ndef", "decode", "--json", "--hex", Self.uriHex])
        #expect(r.status == 0)
        #expect(r.stdout == Self.uriJSON)
        #expect(r.stderr.isEmpty)
    }

    @Test func hexAcceptsBothCasesAndSpaces() throws {
        for h in [
            "d1010a55036e666370792e6f7267", "D1010A55036E666370792E6F7267", "d1 01 0A 55 03 6e 66 63 70 79 2E 6F 72 67",
        ] {
            let r = try CLIRunner.run(["ndef", "decode", "--hex", h, "--json"])
            #expect(r.status == 0, "\(h)")
            #expect(r.stdout == Self.uriJSON, "\(h)")
        }
    }

    @Test func decodeReadsAFileStdinAndDash() throws {
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("uri.ndef")
        try Data(hexBytes(Self.uriHex)).write(to: file)
        // Options before and after the positional argument.
        for args in [["ndef", "decode", file.path, "--json"], ["ndef", "decode", "--json", file.path]] {
            let r = try CLIRunner.run(args)
            #expect(r.status == 0)
            #expect(r.stdout == Self.uriJSON)
        }
        let stdin = try CLIRunner.run(["ndef", "decode", "--json"], stdin: Data(hexBytes(Self.uriHex)))
        #expect(stdin.stdout == Self.uriJSON)
        let dash = try CLIRunner.run(["ndef", "decode", "-", "--json"], stdin: Data(hexBytes(Self.uriHex)))
        #expect(dash.stdout == Self.uriJSON)
        let missing = try CLIRunner.run(["ndef", "decode", dir.appendingPathComponent("nope").path])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("Error: cannot read"))
    }

    @Test func eachTypedRecordAddsItsDecodedField() throws {
        let cases: [(args: [String], field: String)] = [
            (["--text", "Hallo", "--lang", "de"], #""text":{"encoding":"utf-8","language":"de","text":"Hallo"}"#),
            (["--uri", "https://example.com"], #""uri":"https://example.com""#),
            (
                ["--smart-poster", "https://example.com", "--title", "Ex", "--lang", "en"],
                #""smartPoster":{"uri":"https://example.com","titles":[{"language":"en","text":"Ex"}],"action":null}"#
            ),
            (["--mime", "text/plain", "--data-hex", "6869"], #""mime":"text/plain""#),
            (["--external", "example.com:t", "--data-hex", "01"], #""external":"example.com:t""#),
            (["--absolute-uri", "https://example.com/schema"], #""absoluteURI":"https://example.com/schema""#),
        ]
        for (args, field) in cases {
            let enc = try CLIRunner.run(["ndef", "encode"] + args)
            #expect(enc.status == 0, "\(args)")
            let dec = try CLIRunner.run(["ndef", "decode", "--json", "--hex", enc.stdout])
            #expect(dec.status == 0, "\(args)")
            #expect(dec.stdout.hasPrefix(#"{"records":[{"tnf":"#), "\(args)")
            #expect(dec.stdout.hasSuffix(field + "}]}\n"), "\(args): \(dec.stdout)")
        }
        // UTF-16 text and an empty type/id/payload are reported as such.
        let utf16 = try CLIRunner.run(["ndef", "decode", "--json", "--hex", "D1 01 07 54 82 65 6E 00 48 00 69"])
        #expect(utf16.stdout.contains(#""text":{"encoding":"utf-16","language":"en","text":"Hi"}"#))
        let empty = try CLIRunner.run(["ndef", "decode", "--json", "--hex", "D0 00 00"])
        #expect(empty.stdout == #"{"records":[{"tnf":0,"type":"","id":"","payload":""}]}"# + "\n")
    }

    @Test func invalidInputExits1WithRuleAndOffsetOnly() throws {
        let cases: [(String, String)] = [
            ("D1 01 0B 55 03 6E 66 63 70 79 2E 6F 72 67", "payload length beyond end of data at byte 2"),
            ("D1 01 01 55 00 00", "trailing bytes after ME flag at byte 5"),
            ("D7 00 00", "reserved TNF at byte 0"),
            ("51 01 01 55 00", "missing MB flag at byte 0"),
            ("D1 01 02 55 24 61", "reserved URI identifier code at byte 4"),
        ]
        for (h, message) in cases {
            for json in [false, true] {
                let r = try CLIRunner.run(["ndef", "decode", "--hex", h] + (json ? ["--json"] : []))
                #expect(r.status == 1, "\(h)")
                #expect(r.stdout.isEmpty, "\(h)")
                #expect(r.stderr == "Error: \(message)\n", "\(h)")
            }
        }
    }

    @Test func zeroBytesFromAnySourceIsNotAMessage() throws {
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("empty.ndef")
        try Data().write(to: file)
        for args in [["--hex", ""], ["--hex", "  "], [file.path], [], ["-"]] {
            let r = try CLIRunner.run(["ndef", "decode"] + args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == "Error: empty message at byte 0\n", "\(args)")
        }
    }

    @Test func lenientRepairsAndReportsOnStderr() throws {
        let r = try CLIRunner.run(["ndef", "decode", "--lenient", "--json", "--hex", "11 01 02 55 FF 61 FE 00"])
        #expect(r.status == 0)
        #expect(r.stdout == #"{"records":[{"tnf":1,"type":"55","id":"","payload":"FF61","uri":"a"}]}"# + "\n")
        #expect(
            r.stderr
                == """
                Warning: repaired missing MB flag at byte 0: treated the first record as the message begin
                Warning: repaired truncated record header at byte 6: ignored 2 byte(s) of an incomplete record at the end
                Warning: repaired reserved URI identifier code at byte 4: read the URI without a prefix

                """)
        // Without --lenient the same bytes fail.
        let strict = try CLIRunner.run(["ndef", "decode", "--hex", "11 01 02 55 FF 61 FE 00"])
        #expect(strict.status == 1)
        #expect(strict.stderr == "Error: missing MB flag at byte 0\n")
    }

    @Test func decodeUsageErrorsExit64() throws {
        let both = try CLIRunner.run(["ndef", "decode", "--hex", "D0 00 00", "file"])
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("Error: give either --hex or <file>, not both\nUsage: opennfc ndef decode"))
        let badHex = try CLIRunner.run(["ndef", "decode", "--hex", "D0 0"])
        #expect(badHex.status == 64)
        #expect(badHex.stderr.hasPrefix("Error: --hex: odd number of hex digits at character 3\n"))
        let unknown = try CLIRunner.run(["ndef", "decode", "--frob"])
        #expect(unknown.status == 64)
        let help = try CLIRunner.run(["ndef", "decode", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: opennfc ndef decode [<options>] [<file>]"))
        let group = try CLIRunner.run(["help", "ndef"])
        #expect(
            group.stdout.contains("SUBCOMMANDS:") && group.stdout.contains("decode") && group.stdout.contains("encode"))
    }

    // MARK: encode

    @Test func encodeKeepsFlagOrderAndPrintsHex() throws {
        let r = try CLIRunner.run(["ndef", "encode", "--uri", "http://nfcpy.org", "--text", "Hello", "--lang", "de"])
        #expect(r.status == 0)
        #expect(r.stdout == "91010A55036E666370792E6F72675101085402646548656C6C6F\n")
        let reversed = try CLIRunner.run([
            "ndef", "encode", "--text", "Hello", "--lang", "de", "--uri", "http://nfcpy.org",
        ])
        #expect(reversed.stdout == "9101085402646548656C6C6F51010A55036E666370792E6F7267\n")
        // --text defaults to "en".
        let text = try CLIRunner.run(["ndef", "encode", "--text", "Hello"])
        #expect(text.stdout == "D101085402656E48656C6C6F\n")
    }

    @Test func encodeRawAndChunkSize() throws {
        let raw = try CLIRunner.run(["ndef", "encode", "--raw", "5::01:CAFE", "--raw", "2:612F62::"])
        #expect(raw.stdout == "9D00020101CAFE5203 00612F62\n".replacingOccurrences(of: " ", with: ""))
        // 6-byte MIME payload chunked by 4: B2 first chunk (MB|CF|SR|TNF2), 56 last (ME|SR|TNF6).
        let chunked = try CLIRunner.run([
            "ndef", "encode", "--mime", "text/plain", "--data-hex", "61 62 63 64 65 66", "--chunk-size", "4",
        ])
        #expect(chunked.stdout == "B20A04746578742F706C61696E61626364560002" + "6566\n")
        let back = try CLIRunner.run(["ndef", "decode", "--json", "--hex", chunked.stdout])
        #expect(back.stdout.contains(#""payload":"616263646566","mime":"text/plain""#))
    }

    @Test func encodeWritesRawBytesAtomically() throws {
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.ndef")
        try Data("old content that is longer".utf8).write(to: file)
        let r = try CLIRunner.run(["ndef", "encode", "-o", file.path, "--uri", "http://nfcpy.org"])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(try Data(contentsOf: file) == Data(hexBytes(Self.uriHex)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.ndef"])
        let again = try CLIRunner.run(["ndef", "encode", "--output", file.path, "--text", "x"])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: file) == Data(hexBytes("D1 01 04 54 02 65 6E 78")))
        let badDir = try CLIRunner.run([
            "ndef", "encode", "-o", dir.appendingPathComponent("no/such/f").path, "--text", "x",
        ])
        #expect(badDir.status == 1)
        #expect(badDir.stderr.hasPrefix("Error: cannot write"))
    }

    @Test func encodeUsageErrorsExit64() throws {
        let cases: [([String], String)] = [
            ([], "Error: give at least one record"),
            (["--data-hex", "00"], "Error: --data-hex must follow a --mime or --external"),
            (["--lang", "en"], "Error: --lang 'en' must follow a --text or --title"),
            (["--title", "x"], "Error: --title 'x' must follow a --smart-poster"),
            (["--raw", "6:::"], "Error: --raw '6:::': unchanged TNF outside a chunked record"),
            (["--raw", "1:::00"], "Error: --raw '1:::00': missing type"),
            (["--raw", "9:::"], "Error: --raw '9:::': expected"),
            (["--mime", "nope"], "Error: --mime 'nope': invalid media type"),
            (["--external", "nope"], "Error: --external 'nope': not domain:type"),
            (["--text", "x", "--chunk-size", "0"], "Error: --chunk-size takes a whole number"),
            (["--text", "x", "--lang", ""], "Error: --lang '': a language code"),
        ]
        for (args, prefix) in cases {
            let r = try CLIRunner.run(["ndef", "encode"] + args)
            #expect(r.status == 64, "\(args)")
            #expect(r.stdout.isEmpty, "\(args)")
            #expect(r.stderr.hasPrefix(prefix), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("Usage: opennfc ndef encode"), "\(args)")
        }
    }

    func hexBytes(_ s: String) -> [UInt8] {
        let digits = s.filter { !$0.isWhitespace }
        return stride(from: 0, to: digits.count, by: 2).map {
            let a = digits.index(digits.startIndex, offsetBy: $0)
            return UInt8(digits[a..<digits.index(a, offsetBy: 2)], radix: 16)!
        }
    }
}
