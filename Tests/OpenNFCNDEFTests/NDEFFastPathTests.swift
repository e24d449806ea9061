import OpenNFCNDEF
import OpenNFCTestSupport
import Testing

/// The fast paths (strict message decoding in one pass, URI and Text decoding from the record's buffer, typed
/// encoding without intermediate records) must accept, reject and produce exactly what the general code does.
@Suite struct NDEFFastPathTests {
    /// Unchunked messages take the strict fast path; lenient decoding never does. On a seeded sweep of bit flips and
    /// cuts, strict decoding succeeds exactly when lenient decoding succeeds without a repair, with the same records,
    /// and a strict error is the general decoder's (it names an offset inside the input).
    @Test func strictFastPathAgreesWithTheGeneralDecoder() throws {
        var rng = SeededGenerator(seed: 0x4641_5354)
        let base = NDEFMessage(records: [
            rec(.wellKnown, "U", [4] + bytes("example.com/item/1")),
            rec(.wellKnown, "T", [2] + bytes("enItem 1")),
            try NDEFRecord(tnf: .media, type: bytes("text/plain"), id: [7], payload: bytes("payload")),
            .empty,
        ]).encoded()
        var strictOK = 0
        for _ in 0..<20_000 {
            var wire = base
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                wire[Int.random(in: 0..<wire.count, using: &rng)] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            }
            let cut = Int.random(in: (wire.count - 4)...wire.count, using: &rng)
            let input = Array(wire[0..<cut])
            var repairs: [NDEFRepair] = []
            let lenient = try? NDEFMessage(decoding: input, options: .lenient, repairs: &repairs)
            do {
                let strict = try NDEFMessage(decoding: input)
                strictOK += 1
                #expect(repairs.isEmpty && lenient == strict)
            } catch {
                #expect(lenient == nil || !repairs.isEmpty)
                #expect(error.offset >= 0 && error.offset <= cut)
            }
        }
        #expect(strictOK > 100)
    }

    @Test func fastAndGeneralTypedDecodingAgree() throws {
        // Valid records (fast path) decode as the RTD says; each variation below leaves the fast path and must get
        // the general path's answer: reserved prefix code, invalid UTF-8, UTF-16, reserved status bit.
        #expect(try NDEFURIRecord(decoding: rec(.wellKnown, "U", [0x04] + bytes("a.b/c"))).uri == "https://a.b/c")
        #expect(try NDEFURIRecord(decoding: rec(.wellKnown, "U", [0x00] + bytes("x:y"))).uri == "x:y")
        #expect(try NDEFURIRecord(decoding: rec(.wellKnown, "U", [0x04] + [0xC3, 0xA4])).uri == "https://ä")
        #expect(throws: NDEFError.self) { try NDEFURIRecord(decoding: rec(.wellKnown, "U", [0x24] + bytes("x"))) }
        #expect(throws: NDEFError.self) { try NDEFURIRecord(decoding: rec(.wellKnown, "U", [0x04, 0xFF])) }
        #expect(throws: NDEFError.self) { try NDEFURIRecord(decoding: rec(.wellKnown, "U", [])) }
        #expect(throws: NDEFError.self) { try NDEFURIRecord(decoding: rec(.wellKnown, "T", [0x02] + bytes("en"))) }
        let lenientURI = try NDEFURIRecord(decoding: rec(.wellKnown, "U", [0x04, 0xFF]), options: .lenient)
        #expect(lenientURI.uri == "https://\u{FFFD}")

        let text = try NDEFTextRecord(decoding: rec(.wellKnown, "T", [0x02] + bytes("enItem 1")))
        #expect(text == NDEFTextRecord(text: "Item 1", language: "en"))
        let other = try NDEFTextRecord(decoding: rec(.wellKnown, "T", [0x05] + bytes("de-CHGrüezi")))
        #expect(other.language == "de-CH" && other.text == "Grüezi" && other.encoding == .utf8)
        #expect(try NDEFTextRecord(decoding: rec(.wellKnown, "T", [0x02] + bytes("en"))).text == "")
        let utf16 = try NDEFTextRecord(decoding: rec(.wellKnown, "T", [0x82] + bytes("en") + [0xFE, 0xFF, 0x00, 0x41]))
        #expect(utf16.text == "A" && utf16.encoding == .utf16)
        #expect(throws: NDEFError.self) { try NDEFTextRecord(decoding: rec(.wellKnown, "T", [0x42] + bytes("enA"))) }
        #expect(throws: NDEFError.self) { try NDEFTextRecord(decoding: rec(.wellKnown, "T", [0x02] + bytes("e"))) }
        #expect(throws: NDEFError.self) {
            try NDEFTextRecord(decoding: rec(.wellKnown, "T", [0x02] + bytes("en") + [0xC3]))
        }
        #expect(throws: NDEFError.self) { try NDEFTextRecord(decoding: rec(.wellKnown, "T", [0x02, 0x65, 0x01])) }
    }

    @Test func typedEncodingWithoutRecordsGivesTheSameBytes() throws {
        let uris = [
            "https://example.com/item/1", "http://www.example.com", "https://www.x", "http://a", "tel:+41",
            "urn:epc:id:sgtin", "mailto:a@b", "", "h", "https:/", "ftp://anonymous:anonymous@host",
            "https://" + String(repeating: "a", count: 300),
        ]
        for uri in uris {
            for text in [NDEFTextRecord(text: "Item 1"), NDEFTextRecord(text: "日本", language: "ja", encoding: .utf16)] {
                let viaRecords = NDEFMessage(records: [try NDEFURIRecord(uri: uri).record(), try text.record()])
                    .encoded()
                #expect(try NDEFMessage.encoded(NDEFURIRecord(uri: uri), text) == viaRecords)
                #expect(try NDEFURIRecord(uri: uri).encodedLength() + text.encodedLength() == viaRecords.count)
            }
        }
        let single = try NDEFMessage.encoded(NDEFURIRecord(uri: "https://a.b"))
        #expect(single == NDEFMessage(records: [try NDEFURIRecord(uri: "https://a.b").record()]).encoded())
        #expect(try NDEFMessage.encoded() == [0xD0, 0x00, 0x00])
        // A typed record without its own writer goes through record(); the checks still apply.
        let mime = NDEFMIMERecord(mediaType: "text/plain", data: bytes("hi"))
        #expect(try NDEFMessage.encoded(mime) == NDEFMessage(records: [try mime.record()]).encoded())
        #expect(throws: NDEFError.self) { try NDEFMessage.encoded(NDEFTextRecord(text: "x", language: "")) }
    }
}
