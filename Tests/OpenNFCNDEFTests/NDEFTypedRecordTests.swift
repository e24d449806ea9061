import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCNDEF

/// Typed records: Text, URI, Smart Poster, MIME, external, absolute URI, Android Application Record.
@Suite struct NDEFTypedRecordTests {
    /// Decodes a single-record message's record with `T`.
    func decode<T: NDEFTypedRecord>(
        _ type: T.Type, _ hexText: String, _ options: NDEFDecodingOptions = .strict
    ) throws -> T {
        try T(decoding: try NDEFMessage(decoding: h(hexText)).records[0], options: options)
    }

    // MARK: Text (RTD-Text 1.0 §3)

    @Test func textGoldenVectors() throws {
        // "Hello", UTF-8, "en": status 0x02 (NFC Forum RTD-Text 1.0 §3.2.1).
        let t = try decode(NDEFTextRecord.self, "D1 01 08 54 02 65 6E 48 65 6C 6C 6F")
        #expect(t == NDEFTextRecord(text: "Hello", language: "en", encoding: .utf8))
        #expect(NDEFMessage(records: [try t.record()]).encoded() == h("D1 01 08 54 02 65 6E 48 65 6C 6C 6F"))
        // UTF-16 with big-endian BOM: status 0x82 (bit 7 set), "en", FE FF 00 48 00 69 = "Hi".
        let be = try decode(NDEFTextRecord.self, "D1 01 09 54 82 65 6E FE FF 00 48 00 69")
        #expect(be == NDEFTextRecord(text: "Hi", language: "en", encoding: .utf16))
        #expect(NDEFMessage(records: [try be.record()]).encoded() == h("D1 01 09 54 82 65 6E FE FF 00 48 00 69"))
        // Little-endian BOM FF FE.
        let le = try decode(NDEFTextRecord.self, "D1 01 09 54 82 65 6E FF FE 48 00 69 00")
        #expect(le.text == "Hi")
        // No BOM: big-endian (RTD-Text §3.4).
        let nobom = try decode(NDEFTextRecord.self, "D1 01 07 54 82 65 6E 00 48 00 69")
        #expect(nobom.text == "Hi")
        // Language with region and a non-ASCII text in UTF-8.
        let de = NDEFTextRecord(text: "Grüße", language: "de-CH")
        #expect(try NDEFTextRecord(decoding: try de.record()) == de)
    }

    @Test func textViolations() throws {
        // Reserved bit 6 set (status 0x42).
        #expect(throws: NDEFError(.invalidText, at: 4)) {
            try decode(NDEFTextRecord.self, "D1 01 04 54 42 65 6E 41")
        }
        var repairs: [NDEFRepair] = []
        let r = try NDEFMessage(decoding: h("D1 01 04 54 42 65 6E 41")).records[0]
        #expect(try NDEFTextRecord(decoding: r, options: .lenient, repairs: &repairs).text == "A")
        #expect(repairs.map(\.code) == [.invalidText])
        // Language length beyond the payload.
        #expect(throws: NDEFError(.invalidText, at: 5)) { try decode(NDEFTextRecord.self, "D1 01 02 54 05 65") }
        // Invalid UTF-8 in the text; lenient substitutes U+FFFD.
        #expect(throws: NDEFError(.invalidText, at: 7)) { try decode(NDEFTextRecord.self, "D1 01 04 54 02 65 6E FF") }
        #expect(try decode(NDEFTextRecord.self, "D1 01 04 54 02 65 6E FF", .lenient).text == "\u{FFFD}")
        // Odd UTF-16 length.
        #expect(throws: NDEFError(.invalidText, at: 9)) {
            try decode(NDEFTextRecord.self, "D1 01 06 54 82 65 6E 00 48 00")
        }
        // Wrong type.
        #expect(throws: NDEFError(.wrongRecordType, at: 4)) { try decode(NDEFTextRecord.self, "D1 01 01 55 00") }
        // Encoding refuses a bad language code.
        #expect(throws: NDEFError.self) { try NDEFTextRecord(text: "x", language: "").record() }
        #expect(throws: NDEFError.self) {
            try NDEFTextRecord(text: "x", language: String(repeating: "a", count: 64)).record()
        }
    }

    // MARK: URI (RTD-URI 1.0 §3)

    @Test func uriPrefixTableIsComplete() throws {
        #expect(NDEFURIRecord.prefixes.count == 0x24)
        #expect(NDEFURIRecord.prefixes[0x01] == "http://www.")
        #expect(NDEFURIRecord.prefixes[0x07] == "ftp://anonymous:anonymous@")
        #expect(NDEFURIRecord.prefixes[0x1D] == "file://")
        #expect(NDEFURIRecord.prefixes[0x23] == "urn:nfc:")
        // Every code decodes to its prefix and re-encodes to the same code.
        for code in 0..<0x24 {
            let record = try NDEFRecord(tnf: .wellKnown, type: [0x55], payload: [UInt8(code)] + bytes("x"))
            let uri = try NDEFURIRecord(decoding: record)
            #expect(uri.uri == NDEFURIRecord.prefixes[code] + "x")
            #expect(try uri.record() == record, "code \(code)")
        }
    }

    @Test func uriEncodingPicksTheLongestPrefix() throws {
        #expect(Array(try NDEFURIRecord(uri: "urn:epc:id:sgtin:1").record().payload) == [0x1E] + bytes("sgtin:1"))
        #expect(Array(try NDEFURIRecord(uri: "https://www.a.b").record().payload) == [0x02] + bytes("a.b"))
        #expect(Array(try NDEFURIRecord(uri: "https://a.b").record().payload) == [0x04] + bytes("a.b"))
        #expect(Array(try NDEFURIRecord(uri: "ftp://ftp.x").record().payload) == [0x08] + bytes("x"))
        #expect(Array(try NDEFURIRecord(uri: "HTTP://A").record().payload) == [0x00] + bytes("HTTP://A"))
        #expect(Array(try NDEFURIRecord(uri: "").record().payload) == [0x00])
        // "http://nfcpy.org" (NFC Forum RTD-URI 1.0 §3.2.2).
        #expect(
            NDEFMessage(records: [try NDEFURIRecord(uri: "http://nfcpy.org").record()]).encoded()
                == h("D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67"))
    }

    @Test func uriViolations() throws {
        #expect(throws: NDEFError(.reservedURIPrefix, at: 4)) { try decode(NDEFURIRecord.self, "D1 01 02 55 24 61") }
        #expect(try decode(NDEFURIRecord.self, "D1 01 02 55 FF 61", .lenient).uri == "a")
        #expect(throws: NDEFError(.invalidURI, at: 4)) { try decode(NDEFURIRecord.self, "D1 01 00 55") }
        #expect(throws: NDEFError(.invalidURI, at: 5)) { try decode(NDEFURIRecord.self, "D1 01 02 55 04 C3") }
    }

    // MARK: Smart Poster (SPR 1.0 §3)

    /// Hand-assembled from SPR 1.0 §3: U "https://example.com", T "en" "Ex", act 00.
    static let smartPoster =
        "D1 02 20 53 70"
        + " 91 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D"  // U, MB
        + " 11 01 05 54 02 65 6E 45 78"  // T
        + " 51 03 01 61 63 74 00"  // act, ME

    @Test func smartPosterGoldenVector() throws {
        let sp = try decode(NDEFSmartPosterRecord.self, Self.smartPoster)
        #expect(sp.uri == "https://example.com")
        #expect(sp.titles == [NDEFTextRecord(text: "Ex", language: "en")])
        #expect(sp.action == .doAction)
        #expect(NDEFMessage(records: [try sp.record()]).encoded() == h(Self.smartPoster))
    }

    @Test func smartPosterRoundTripWithEveryField() throws {
        let sp = NDEFSmartPosterRecord(
            uri: "tel:+1234", titles: [.init(text: "Call", language: "en"), .init(text: "Anrufen", language: "de")],
            action: .openForEditing, size: 70_000, mediaType: "text/html",
            icons: [NDEFMIMERecord(mediaType: "image/png", data: [0x89, 0x50])],
            otherRecords: [rec(.unknown, [1, 2, 3])])
        let back = try NDEFSmartPosterRecord(decoding: try sp.record())
        #expect(back == sp)
    }

    @Test func smartPosterViolations() throws {
        // No URI record: the inner message holds only a title.
        let noURI = NDEFMessage(records: [try NDEFTextRecord(text: "x").record()]).encoded()
        let r = try NDEFRecord(tnf: .wellKnown, type: bytes("Sp"), payload: noURI)
        #expect(throws: NDEFError(.invalidSmartPoster, at: 0)) { try NDEFSmartPosterRecord(decoding: r) }
        #expect(throws: NDEFError(.invalidSmartPoster, at: 0)) {
            try NDEFSmartPosterRecord(decoding: r, options: .lenient)
        }
        // Two URI records: strict error at the second one's type; lenient uses the first.
        let two = NDEFMessage(records: [
            try NDEFURIRecord(uri: "a:1").record(), try NDEFURIRecord(uri: "a:2").record(),
        ])
        let wire = NDEFMessage(records: [try NDEFRecord(tnf: .wellKnown, type: bytes("Sp"), payload: two.encoded())])
            .encoded()
        #expect(throws: NDEFError(.invalidSmartPoster, at: 16)) {
            try NDEFSmartPosterRecord(decoding: try NDEFMessage(decoding: wire).records[0])
        }
        #expect(
            try NDEFSmartPosterRecord(decoding: try NDEFMessage(decoding: wire).records[0], options: .lenient).uri
                == "a:1")
        // Errors inside the nested message count from the outer message: 0x24 is at byte 9.
        let badInner = h("D1 02 06 53 70 D1 01 02 55 24 61")
        #expect(throws: NDEFError(.reservedURIPrefix, at: 9)) {
            try NDEFSmartPosterRecord(decoding: try NDEFMessage(decoding: badInner).records[0])
        }
        // Action out of range.
        let badAct = NDEFSmartPosterRecord(
            uri: "a:b", otherRecords: [try NDEFRecord(tnf: .wellKnown, type: bytes("act"), payload: [7])])
        #expect(throws: NDEFError.self) { try NDEFSmartPosterRecord(decoding: try badAct.record()) }
    }

    /// Smart Poster inside Smart Poster: the nesting guard (default 16 levels, a parameter).
    @Test func nestingDepthIsGuarded() throws {
        func nested(_ levels: Int) throws -> NDEFRecord {
            var r = try NDEFSmartPosterRecord(uri: "a:b").record()
            for _ in 1..<levels { r = try NDEFSmartPosterRecord(uri: "a:b", otherRecords: [r]).record() }
            return r
        }
        #expect(try NDEFDecodedRecord(decoding: try nested(16)) != nil)
        do {
            _ = try NDEFDecodedRecord(decoding: try nested(17))
            Issue.record("17 levels decoded")
        } catch {
            #expect((error as? NDEFError)?.code == .nestingTooDeep)
        }
        let shallow = NDEFDecodingOptions(maxNestingDepth: 2)
        #expect(try NDEFDecodedRecord(decoding: try nested(2), options: shallow) != nil)
        #expect(throws: NDEFError.self) { try NDEFDecodedRecord(decoding: try nested(3), options: shallow) }
        // 1000 levels: no stack overflow, just the error.
        var deep = try NDEFSmartPosterRecord(uri: "a:b").record()
        for _ in 0..<1000 {
            deep = NDEFRecord(
                unchecked: .wellKnown, type: Array("Sp".utf8)[...], id: [],
                payload: NDEFMessage(records: [deep]).encoded()[...])
        }
        #expect(throws: NDEFError.self) {
            try NDEFDecodedRecord(decoding: deep, options: NDEFDecodingOptions(maxMessageSize: 1 << 20))
        }
    }

    // MARK: MIME, external, absolute URI, Android Application Record

    @Test func mimeRecords() throws {
        let m = try decode(NDEFMIMERecord.self, "D2 0A 02 74 65 78 74 2F 70 6C 61 69 6E 68 69")
        #expect(m == NDEFMIMERecord(mediaType: "text/plain", data: bytes("hi")))
        #expect(NDEFMIMERecord.isValidMediaType(bytes("text/plain; charset=utf-8")))
        #expect(NDEFMIMERecord.isValidMediaType(bytes("application/vnd.example+json")))
        #expect(NDEFMIMERecord(mediaType: "Text/Plain; q=1", data: []).normalizedMediaType == "text/plain")
        for bad in ["text", "/plain", "text/", "te xt/plain", "text/plain;", "a/b; c"] {
            #expect(!NDEFMIMERecord.isValidMediaType(bytes(bad)), "\(bad)")
        }
        #expect(throws: NDEFError(.invalidMediaType, at: 3)) { try decode(NDEFMIMERecord.self, "D2 04 00 74 65 78 74") }
        #expect(try decode(NDEFMIMERecord.self, "D2 04 00 74 65 78 74", .lenient).mediaType == "text")
        #expect(throws: NDEFError.self) { try NDEFMIMERecord(mediaType: "bad", data: []).record() }
    }

    @Test func externalRecords() throws {
        let e = try decode(NDEFExternalRecord.self, "D4 05 01 61 2E 62 3A 63 FF")
        #expect(e.domain == "a.b" && e.name == "c" && e.data == [0xFF])
        #expect(e.externalType == "a.b:c")
        #expect(try NDEFExternalRecord(decoding: try e.record()) == e)
        for bad in ["nocolon", ":type", "domain:", "dom ain:x", "d:x y"] {
            #expect(NDEFExternalRecord.parse(bytes(bad)) == nil, "\(bad)")
        }
        #expect(NDEFExternalRecord.parse(bytes("example.com:a:b"))! == ("example.com", "a:b"))
        #expect(throws: NDEFError(.invalidExternalType, at: 3)) {
            try decode(NDEFExternalRecord.self, "D4 02 00 61 62")
        }
    }

    @Test func absoluteURIRecords() throws {
        let a = try decode(NDEFAbsoluteURIRecord.self, "D3 05 00 61 3A 2F 2F 62")
        #expect(a.uri == "a://b")
        #expect(try NDEFAbsoluteURIRecord(decoding: try a.record()) == a)
        #expect(!NDEFAbsoluteURIRecord.isValid(bytes("1a:b")))
        #expect(!NDEFAbsoluteURIRecord.isValid(bytes("nocolon")))
        #expect(!NDEFAbsoluteURIRecord.isValid(bytes("a: b")))
        #expect(throws: NDEFError(.invalidAbsoluteURI, at: 3)) { try decode(NDEFAbsoluteURIRecord.self, "D3 01 00 61") }
    }

    @Test func androidApplicationRecord() throws {
        // Type "android.com:pkg" (15 bytes), payload "com.example" (Android createApplicationRecord).
        let hexText = "D4 0F 0B 61 6E 64 72 6F 69 64 2E 63 6F 6D 3A 70 6B 67 63 6F 6D 2E 65 78 61 6D 70 6C 65"
        let aar = try decode(NDEFAndroidApplicationRecord.self, hexText)
        #expect(aar.packageName == "com.example")
        #expect(NDEFMessage(records: [try aar.record()]).encoded() == h(hexText))
        #expect(
            try NDEFDecodedRecord(decoding: try NDEFMessage(decoding: h(hexText)).records[0])
                == .androidApplication(aar))
        #expect(throws: NDEFError.self) { try NDEFAndroidApplicationRecord(packageName: "").record() }
    }

    @Test func unrecognisedRecordsDecodeToNil() throws {
        #expect(try NDEFDecodedRecord(decoding: rec(.unknown, [1])) == nil)
        #expect(try NDEFDecodedRecord(decoding: .empty) == nil)
        #expect(try NDEFDecodedRecord(decoding: rec(.wellKnown, "Xy", [1])) == nil)
    }
}
