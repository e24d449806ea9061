import OpenNFCNDEF
import OpenNFCTestSupport
import Testing

/// `NDEFMessage.decoded(_:as:…)` (typed records straight from the bytes) and `NDEFMessage.encoded(_:…)` (typed
/// records straight to the bytes) against the general path through `NDEFMessage` and `NDEFRecord`s, on the seeded
/// sweep of bit flips and cuts the fast-path tests use, in both modes.
@Suite struct NDEFTypedMessageTests {
    /// The general path: the message, then each record by its typed decoder.
    static func viaMessage(
        _ input: [UInt8], _ options: NDEFDecodingOptions, _ repairs: inout [NDEFRepair]
    ) throws(NDEFError) -> (NDEFURIRecord, NDEFTextRecord)? {
        let m = try NDEFMessage(decoding: input[...], options: options, repairs: &repairs)
        guard m.records.count == 2 else { return nil }
        return (
            try NDEFURIRecord(decoding: m.records[0], options: options, repairs: &repairs),
            try NDEFTextRecord(decoding: m.records[1], options: options, repairs: &repairs)
        )
    }

    /// The sweep's corpus: a URI + Text message (the benchmark's shape), bit-flipped and cut, seeded.
    static func sweep(count: Int) -> [[UInt8]] {
        var rng = SeededGenerator(seed: 0x5459_5044)
        let base =
            (try? NDEFMessage.encoded(
                NDEFURIRecord(uri: "https://example.com/item/42"), NDEFTextRecord(text: "Item 42", language: "en")))
            ?? []
        return (0..<count).map { _ in
            var wire = base
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                wire[Int.random(in: 0..<wire.count, using: &rng)] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            }
            return Array(wire[0..<Int.random(in: (wire.count - 3)...wire.count, using: &rng)])
        }
    }

    @Test func typedDecodingAgreesWithTheMessagePath() throws {
        var agreedValues = 0
        for input in Self.sweep(count: 20_000) {
            for options in [NDEFDecodingOptions.strict, .lenient] {
                var generalRepairs: [NDEFRepair] = []
                var packRepairs: [NDEFRepair] = []
                let general = Result { () throws(NDEFError) in try Self.viaMessage(input, options, &generalRepairs) }
                let pack = Result { () throws(NDEFError) in
                    try NDEFMessage.decoded(
                        input[...], as: NDEFURIRecord.self, NDEFTextRecord.self, options: options,
                        repairs: &packRepairs)
                }
                switch (general, pack) {
                case (.success(let g?), .success(let p)):
                    #expect(g.0 == p.0 && g.1 == p.1)
                    #expect(generalRepairs == packRepairs)
                    agreedValues += 1
                case (.success(nil), .failure(let e)):
                    // The message decoded with another number of records.
                    #expect(e.code == .unexpectedRecordCount)
                    #expect(e.offset >= 0 && e.offset <= input.count)
                case (.failure(let g), .failure(let p)):
                    #expect(g == p, "\(input.hexString): \(g) vs \(p)")
                default:
                    Issue.record("\(input.hexString) (\(options.mode)): \(general) vs \(pack)")
                }
            }
        }
        #expect(agreedValues > 1_000)
    }

    /// The two-record form (its own code, specialised per pair of types) gives what the pack form gives: the same
    /// records or the same error, on the whole sweep, in both modes; and the two-record encoder the same bytes as the
    /// pack encoder, over and under its 256-byte scratch buffer.
    @Test func theTwoRecordFormsAgreeWithThePackForms() throws {
        var agreed = 0
        for input in Self.sweep(count: 20_000) {
            for options in [NDEFDecodingOptions.strict, .lenient] {
                var repairs: [NDEFRepair] = []
                let two = Result { () throws(NDEFError) in
                    try NDEFMessage.decoded(input, as: NDEFURIRecord.self, NDEFTextRecord.self, options: options)
                }
                let pack = Result { () throws(NDEFError) in
                    try NDEFMessage.decoded(
                        input[...], as: NDEFURIRecord.self, NDEFTextRecord.self, options: options, repairs: &repairs)
                }
                switch (two, pack) {
                case (.success(let t), .success(let p)):
                    #expect(t.0 == p.0 && t.1 == p.1)
                    agreed += 1
                case (.failure(let t), .failure(let p)): #expect(t == p, "\(input.hexString)")
                default: Issue.record("\(input.hexString) (\(options.mode)): \(two) vs \(pack)")
                }
            }
        }
        #expect(agreed > 1_000)
        for uri in ["https://example.com/item/1", "https://" + String(repeating: "a", count: 300)] {
            let u = NDEFURIRecord(uri: uri)
            let t = NDEFTextRecord(text: "Item 1", language: "en")
            let three = try NDEFMessage.encoded(u, t, u)
            let viaRecords = NDEFMessage(records: [try u.record(), try t.record(), try u.record()]).encoded()
            #expect(three == viaRecords)
            #expect(try NDEFMessage.encoded(u, t) == NDEFMessage(records: [try u.record(), try t.record()]).encoded())
        }
    }

    /// encode∘decode is the identity on the values, and decode∘encode on the bytes wherever the input was encoded
    /// as the encoder encodes (longest URI prefix, short records, UTF-8).
    @Test func typedEncodeDecodeIsTheIdentityOnTheSweep() throws {
        var canonical = 0
        for input in Self.sweep(count: 20_000) {
            guard let (uri, text) = try? NDEFMessage.decoded(input, as: NDEFURIRecord.self, NDEFTextRecord.self)
            else { continue }
            guard text.encoding == .utf8 else { continue }  // UTF-16 input re-encodes with a BOM: values checked below
            let wire = try NDEFMessage.encoded(uri, text)
            let (uri2, text2) = try NDEFMessage.decoded(wire, as: NDEFURIRecord.self, NDEFTextRecord.self)
            #expect(uri2 == uri && text2 == text)
            #expect(wire == NDEFMessage(records: [try uri.record(), try text.record()]).encoded())
            if wire == input { canonical += 1 }
        }
        #expect(canonical > 1_000)

        // Generated values, with non-ASCII text and URIs, every prefix, UTF-16, long records (4-byte lengths).
        var rng = SeededGenerator(seed: 0x4944_454E)
        let pieces = ["a", "é", "日本", "/", "x.y", "%20", "🙂", "-", "Item ", "0"]
        let prefixes = NDEFURIRecord.prefixes
        for _ in 0..<2_000 {
            var rest = ""
            for _ in 0..<Int.random(in: 0...12, using: &rng) { rest += pieces.randomElement(using: &rng)! }
            if Bool.random(using: &rng) {
                rest += String(repeating: "z", count: Int.random(in: 200...300, using: &rng))
            }
            let uri = NDEFURIRecord(uri: prefixes.randomElement(using: &rng)! + rest)
            let text = NDEFTextRecord(
                text: String(rest.reversed()),
                language: ["en", "de-CH", "x", "zh-Hant-TW"].randomElement(using: &rng)!,
                encoding: Bool.random(using: &rng) ? .utf8 : .utf16)
            let wire = try NDEFMessage.encoded(uri, text)
            let (u, t) = try NDEFMessage.decoded(wire, as: NDEFURIRecord.self, NDEFTextRecord.self)
            #expect(u == uri && t == text)
        }
    }

    @Test func recordCountMismatchNamesTheRecord() throws {
        let three = try NDEFMessage.encoded(
            NDEFURIRecord(uri: "https://a.b"), NDEFTextRecord(text: "x"), NDEFTextRecord(text: "y"))
        // URI record: 4 header/type bytes + 1 code + 3 = 8 bytes; Text "x": 4 + 1 + 2 + 1 = 8 bytes.
        #expect(throws: NDEFError(.unexpectedRecordCount, at: 16)) {
            try NDEFMessage.decoded(three, as: NDEFURIRecord.self, NDEFTextRecord.self)
        }
        #expect(throws: NDEFError(.unexpectedRecordCount, at: three.count)) {
            try NDEFMessage.decoded(
                three, as: NDEFURIRecord.self, NDEFTextRecord.self, NDEFTextRecord.self, NDEFTextRecord.self)
        }
        // A chunked message takes the general decoder; the count and the records are the same.
        let chunked = NDEFMessage(records: [try NDEFURIRecord(uri: "https://example.com/a/long/path").record()])
            .encoded(chunkSize: 4)
        #expect(try NDEFMessage.decoded(chunked, as: NDEFURIRecord.self).uri == "https://example.com/a/long/path")
        #expect(throws: NDEFError(.unexpectedRecordCount, at: chunked.count)) {
            try NDEFMessage.decoded(chunked, as: NDEFURIRecord.self, NDEFURIRecord.self)
        }
        // The wrong type is the typed decoder's error, at the payload of the record.
        #expect(throws: NDEFError(.wrongRecordType, at: 12)) {
            try NDEFMessage.decoded(three, as: NDEFURIRecord.self, NDEFURIRecord.self, NDEFTextRecord.self)
        }
        #expect(throws: NDEFError(.emptyMessage, at: 0)) { try NDEFMessage.decoded([], as: NDEFURIRecord.self) }
    }

    /// A conformance whose encodedLength() is too small, in a message too long for the one-pass path: the typed
    /// encoder falls back to appending and still gives the record's bytes.
    @Test func typedEncodingSurvivesAnEncodedLengthThatIsTooSmall() throws {
        struct Undersized: NDEFTypedRecord {
            var inner = NDEFTextRecord(text: String(repeating: "more than nothing ", count: 20))
            init(decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair])
                throws(NDEFError)
            { inner = try NDEFTextRecord(decoding: record, options: options, repairs: &repairs) }
            init() {}
            func record() throws(NDEFError) -> NDEFRecord { try inner.record() }
            func encodedLength() -> Int { 1 }
        }
        let expected = NDEFMessage(records: [try NDEFURIRecord(uri: "tel:1").record(), try Undersized().record()])
            .encoded()
        #expect(try NDEFMessage.encoded(NDEFURIRecord(uri: "tel:1"), Undersized()) == expected)
    }
}
