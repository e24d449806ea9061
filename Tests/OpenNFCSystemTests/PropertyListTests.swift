import OpenNFCSystem
import Testing

@Suite struct PropertyListTests {
    static let sample = PropertyList.dictionary([
        ("NFCReaderUsageDescription", .string("Scans <inventory> & more — ünïcode")),
        ("com.apple.developer.nfc.readersession.iso7816.select-identifiers", .array([.string("D2760000850101")])),
        ("flag", .bool(true)), ("off", .bool(false)), ("n", .integer(-42)), ("big", .integer(1 << 40)),
        ("pi", .real(3.25)), ("blob", .data([0x00, 0xFF, 0x10, 0x20, 0x30])), ("when", .date(86400.0)),
        ("nested", .dictionary([("empty", .array([])), ("d", .dictionary([]))])),
    ])

    @Test func xmlRoundTrip() throws {
        #expect(try PropertyList(decoding: Self.sample.xmlEncoded) == Self.sample)
    }

    @Test func binaryRoundTrip() throws {
        let bytes = Self.sample.binaryEncoded
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try PropertyList(decoding: bytes) == Self.sample)
    }

    @Test func handWrittenXML() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <!-- a comment -->
            <dict>
                <key>a</key><string>x &amp; y &#x41;&#66;</string>
                <key>b</key><array><integer>0x10</integer><real>1.5</real><true/></array>
                <key>c</key><string/>
                <key>d</key><data>
                AAEC
                </data>
                <key>e</key><date>2001-01-02T00:00:01Z</date>
            </dict>
            </plist>
            """
        let v = try PropertyList(decoding: Array(text.utf8))
        #expect(v["a"] == .string("x & y AB"))
        #expect(v["b"] == .array([.integer(16), .real(1.5), .bool(true)]))
        #expect(v["c"] == .string(""))
        #expect(v["d"] == .data([0, 1, 2]))
        #expect(v["e"] == .date(86401))
    }

    /// A binary plist assembled by hand from the format description: `{"k": "v"}`.
    @Test func handAssembledBinary() throws {
        let bytes: [UInt8] =
            Array("bplist00".utf8) + [
                0xD1, 0x01, 0x02,  // object 0 at 8: dict, 1 entry, key ref 1, value ref 2
                0x51, 0x6B,  // object 1 at 11: ASCII string "k"
                0x51, 0x76,  // object 2 at 13: ASCII string "v"
                0x08, 0x0B, 0x0D,  // offset table at 15
            ] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0]
            + [0, 0, 0, 0, 0, 0, 0, 15]
        #expect(try PropertyList(decoding: bytes) == .dictionary([("k", .string("v"))]))
    }

    @Test func xmlErrorsNameTheLine() {
        let text = "<plist>\n<dict>\n<key>a</key>\n<integer>x</integer>\n</dict>\n</plist>"
        #expect(throws: PropertyListError("invalid <integer> \"x\"", line: 4)) {
            try PropertyList(decoding: Array(text.utf8))
        }
        #expect(throws: PropertyListError.self) { try PropertyList(decoding: Array("<plist><dict>".utf8)) }
        #expect(throws: PropertyListError.self) { try PropertyList(decoding: Array("<plist><bogus/></plist>".utf8)) }
    }

    /// What XML 1.0 forbids in the markup around the values is refused, naming the line: an unterminated comment,
    /// processing instruction or DOCTYPE, `--` inside a comment.
    @Test func xmlRefusesBrokenComments() throws {
        let body = "<plist version=\"1.0\">\n<dict>\n<key>a</key>\n<string>b</string>\n</dict>\n</plist>\n"
        #expect(
            try PropertyList(decoding: Array(("<!-- fine -->\n" + body).utf8)) == .dictionary([("a", .string("b"))]))
        for (text, message, line) in [
            (body + "<!-- open", "unterminated comment <!--", 7),
            (
                body.replacingOccurrences(of: "<dict>", with: "<dict><!-- a -- b -->"),
                "'--' inside a comment (XML 1.0 §2.5 allows it only as the end, -->)", 2
            ),
            ("<?xml version=\"1.0\"\n" + body, "unterminated <?…?>", 1),
            ("<!DOCTYPE plist", "unterminated <!DOCTYPE", 1),
        ] {
            #expect(throws: PropertyListError(message, line: line), "\(text)") {
                try PropertyList(decoding: Array(text.utf8))
            }
        }
    }

    /// The binary format's integers are at most 64 bits (a 16-byte one holds an unsigned value: its upper half
    /// zero); a reference past the object table names the byte where it stands.
    @Test func binaryRefusesWideIntegersAndBadReferencesByOffset() throws {
        func plist(_ objects: [[UInt8]]) -> [UInt8] {
            var body = Array("bplist00".utf8)
            var offsets: [UInt8] = []
            for o in objects {
                offsets.append(UInt8(body.count))
                body += o
            }
            let table = body.count
            body += offsets
            func be64(_ v: Int) -> [UInt8] { (0..<8).map { UInt8(v >> (8 * (7 - $0)) & 0xFF) } }
            return body + [0, 0, 0, 0, 0, 0, 1, 1] + be64(objects.count) + be64(0) + be64(table)
        }
        let key: [UInt8] = [0x51, 0x6B]  // "k"
        let unsigned: [UInt8] = [0x14] + [UInt8](repeating: 0, count: 8) + [0xFF, 0, 0, 0, 0, 0, 0, 1]
        #expect(
            try PropertyList(decoding: plist([[0xD1, 0x01, 0x02], key, unsigned]))
                == .dictionary([("k", .integer(Int64(bitPattern: 0xFF00_0000_0000_0001)))]))
        let wide: [UInt8] = [0x14] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
        // Objects at 8 (dict, 3 bytes), 11 (key, 2 bytes), 13 (the integer): its byte 7 is at offset 21.
        #expect(throws: PropertyListError("a 16-byte integer beyond 64 bits", offset: 21)) {
            try PropertyList(decoding: plist([[0xD1, 0x01, 0x02], key, wide]))
        }
        #expect(throws: PropertyListError("object reference 7 out of range (3 objects)", offset: 10)) {
            try PropertyList(decoding: plist([[0xD1, 0x01, 0x07], key, unsigned]))
        }
        #expect(throws: PropertyListError("object reference 5 out of range (2 objects)", offset: 9)) {
            try PropertyList(decoding: plist([[0xA1, 0x05], key]))
        }
    }

    @Test func binaryCorruptionIsAnErrorNotACrash() {
        let good = Self.sample.binaryEncoded
        #expect(throws: PropertyListError.self) { try PropertyList(decoding: Array(good.prefix(30))) }
        // Every single-byte corruption either decodes to something or fails cleanly.
        for k in 8..<good.count {
            var bad = good
            bad[k] ^= 0xFF
            _ = try? PropertyList(decoding: bad)
        }
        // A self-referencing array.
        let cyclic: [UInt8] =
            Array("bplist00".utf8) + [0xA1, 0x00, 0x08] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1]
            + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10]
        #expect(throws: PropertyListError.self) { try PropertyList(decoding: cyclic) }
    }
}

/// Parsers refuse what their format forbids: XML 1.0's characters and UTF-8, and the binary
/// format's ASCII and UTF-16 strings, each error naming the line or byte offset.
@Suite struct PropertyListRefusalTests {
    static func xml(_ string: [UInt8]) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<string>".utf8) + string
            + Array("</string>\n</plist>\n".utf8)
    }

    @Test func xmlOutsideItsCharactersIsRefused() {
        let cases: [([UInt8], String)] = [
            ([0x61, 0xFF, 0x62], "invalid UTF-8 at byte 70"),
            ([0x61, 0x01, 0x62], "character U+1 at byte 70 is not allowed in XML"),
            (Array("a&#0;b".utf8), "&#0; names no XML character"),
            (Array("a&#xFFFE;b".utf8), "&#xFFFE; names no XML character"),
        ]
        for (bytes, message) in cases {
            #expect(throws: PropertyListError(message, line: 3)) { try PropertyList(decoding: Self.xml(bytes)) }
        }
        #expect(throws: Never.self) { try PropertyList(decoding: Self.xml(Array("a\tb é &#x1F600;".utf8))) }
    }

    /// bplist00 with one string object at offset 8 (marker `5n` ASCII or `6n` UTF-16BE), then the offset table
    /// and the 32-byte trailer (1-byte offsets and references, one object, top object 0, table at `8 + size`).
    static func binary(_ object: [UInt8]) -> [UInt8] {
        let table = 8 + object.count
        return Array("bplist00".utf8) + object + [0x08] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1]
            + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    }

    @Test func binaryStringsOutsideTheirEncodingAreRefused() throws {
        #expect(try PropertyList(decoding: Self.binary([0x52, 0x68, 0x69])) == .string("hi"))
        #expect(throws: PropertyListError("byte E9h in an ASCII string", offset: 11)) {
            try PropertyList(decoding: Self.binary([0x53, 0x68, 0x69, 0xE9]))
        }
        #expect(throws: PropertyListError("a UTF-16 string with an unpaired surrogate", offset: 9)) {
            try PropertyList(decoding: Self.binary([0x61, 0xD8, 0x00]))
        }
    }
}
