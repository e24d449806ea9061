import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCNDEF

/// Record and message structure: NFC Forum NDEF 1.0 §3.2 (record layout, TNF rules), §3.3 (MB/ME), §2.3.3 (chunks).
@Suite struct NDEFMessageTests {
    /// Golden vectors: each decodes to the records and encodes back to the same bytes.
    static let golden: [(name: String, hex: String, records: [NDEFRecord])] = [
        // The empty NDEF message (NDEF 1.0 §3.2.6 TNF 0).
        ("empty message", "D0 00 00", [.empty]),
        // "http://nfcpy.org": URI record, code 0x03 "http://" (NFC Forum RTD-URI 1.0 §3.2.2, from nfcpy's T4T test).
        ("uri", "D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67", [rec(.wellKnown, "U", [0x03] + bytes("nfcpy.org"))]),
        // Text "Hello" in "en", UTF-8: status 02, "en", "Hello" (RTD-Text §3.2.1).
        ("text", "D1 01 08 54 02 65 6E 48 65 6C 6C 6F", [rec(.wellKnown, "T", [0x02] + bytes("enHello"))]),
        // Two records: MB on the first (0x91 = MB|SR|TNF1), ME on the last (0x51 = ME|SR|TNF1) (NDEF 1.0 §3.3).
        (
            "two records", "91 01 02 55 00 61 51 01 03 54 01 78 79",
            [rec(.wellKnown, "U", [0x00, 0x61]), rec(.wellKnown, "T", [0x01] + bytes("xy"))]
        ),
        // IL flag with a 1-byte ID "1" on a MIME record (0xDA = MB|ME|SR|IL|TNF2) (NDEF 1.0 §3.2.5).
        (
            "mime with id", "DA 0A 02 01 74 65 78 74 2F 70 6C 61 69 6E 31 68 69",
            [rec(.media, "text/plain", id: bytes("1"), bytes("hi"))]
        ),
        // Absolute URI (TNF 3), external (TNF 4) and unknown (TNF 5) records.
        ("absolute uri", "D3 05 00 61 3A 2F 2F 62", [rec(.absoluteURI, "a://b")]),
        ("external", "D4 05 01 61 2E 62 3A 63 FF", [rec(.external, "a.b:c", [0xFF])]),
        ("unknown", "D5 00 02 01 02", [rec(.unknown, [0x01, 0x02])]),
        // A 256-byte payload needs the 4-byte PAYLOAD_LENGTH (SR clear: 0xC5) (NDEF 1.0 §3.2.4).
        (
            "long record", "C5 00 00 00 01 00" + String(repeating: " 00", count: 256),
            [rec(.unknown, [UInt8](repeating: 0, count: 256))]
        ),
    ]

    @Test(arguments: 0..<golden.count) func goldenVectorsDecodeAndEncode(_ n: Int) throws {
        let (name, hexText, records) = Self.golden[n]
        let wire = h(hexText)
        let message = try NDEFMessage(decoding: wire)
        #expect(message.records == records, "\(name)")
        #expect(message.encoded() == wire, "\(name)")
        #expect(message.encodedLength == wire.count, "\(name)")
    }

    /// Chunked record (NDEF 1.0 §2.3.3): first chunk CF with the real TNF and type, then TNF 6 chunks.
    /// Hand-assembled: B2 = MB|CF|SR|TNF2, 56 = ME|SR|TNF6.
    @Test func chunkedRecordIsReassembledAndRechunked() throws {
        let wire = h("B2 0A 04 74 65 78 74 2F 70 6C 61 69 6E 61 62 63 64  56 00 02 65 66")
        let message = try NDEFMessage(decoding: wire)
        #expect(message.records == [rec(.media, "text/plain", bytes("abcdef"))])
        #expect(message.encoded(chunkSize: 4) == wire)
        #expect(message.encodedLength(chunkSize: 4) == wire.count)
        #expect(message.encoded() == h("D2 0A 06 74 65 78 74 2F 70 6C 61 69 6E 61 62 63 64 65 66"))
        // Middle chunk: 36 = CF|SR|TNF6.
        let three = h("B2 0A 02 74 65 78 74 2F 70 6C 61 69 6E 61 62  36 00 02 63 64  56 00 02 65 66")
        #expect(try NDEFMessage(decoding: three) == message)
        #expect(message.encoded(chunkSize: 2) == three)
    }

    @Test func chunkingRoundTripsAtEverySize() throws {
        let payload = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let message = NDEFMessage(records: [
            rec(.wellKnown, "U", [0x04] + bytes("example.com")),
            try NDEFRecord(tnf: .media, type: bytes("application/x"), id: bytes("id"), payload: payload),
            rec(.unknown, payload),
        ])
        for size in [0, 1, 2, 3, 7, 64, 255, 256, 299, 300, 301, 1000] {
            let wire = message.encoded(chunkSize: size)
            #expect(wire.count == message.encodedLength(chunkSize: size), "chunk size \(size)")
            #expect(try NDEFMessage(decoding: wire) == message, "chunk size \(size)")
        }
    }

    @Test func messageWithoutRecordsEncodesAsTheEmptyMessage() {
        #expect(NDEFMessage(records: []).encoded() == [0xD0, 0x00, 0x00])
        #expect(NDEFMessage(records: []).encodedLength == 3)
    }

    @Test func decodesFromSlicesAndCollectionsWithOffsetsFromTheirStart() throws {
        let framed = h("03 0E D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67 FE")
        let m = try NDEFMessage(decoding: framed[2..<16])
        #expect(m.records.count == 1)
        #expect(Array(m.records[0].payload) == [0x03] + bytes("nfcpy.org"))
        let broken = h("00 00 D1 01 0B 55 03 6E 66 63 70 79 2E 6F 72 67")
        #expect(throws: NDEFError(.payloadBeyondEnd, at: 2)) { try NDEFMessage(decoding: broken[2...]) }
        let any = try NDEFMessage(decoding: h("D0 00 00").reversed().reversed())
        #expect(any == .empty)
    }

    /// Every rule, strict: (bytes, rule, offset).
    static let strictErrors: [(hex: String, code: NDEFError.Code, offset: Int)] = [
        ("", .emptyMessage, 0),
        ("D1", .truncatedHeader, 0),
        ("D1 01", .truncatedHeader, 0),
        ("C1 01 00 00", .truncatedHeader, 0),
        ("D9 01 01", .truncatedHeader, 0),
        ("D1 05 01 55", .typeBeyondEnd, 1),
        ("D9 01 01 04 55 61", .idBeyondEnd, 3),
        ("D1 01 0B 55 03 6E 66 63 70 79 2E 6F 72 67", .payloadBeyondEnd, 2),
        ("C1 01 FF FF FF FF 55", .payloadBeyondEnd, 2),
        ("51 01 01 55 00", .missingMessageBegin, 0),
        ("91 01 01 55 00 D1 01 01 55 00", .unexpectedMessageBegin, 5),
        ("91 01 01 55 00", .missingMessageEnd, 0),
        ("91 01 01 55 00 11 01 01 55 00", .missingMessageEnd, 5),
        ("D1 01 01 55 00 00", .trailingBytes, 5),
        ("D7 00 00", .reservedTNF, 0),
        ("D0 01 00 55", .nonEmptyEmptyRecord, 0),
        ("D0 00 01 00", .nonEmptyEmptyRecord, 0),
        ("D8 00 00 01 41", .nonEmptyEmptyRecord, 0),
        ("D1 00 00", .missingType, 1),
        ("D2 00 00", .missingType, 1),
        ("D3 00 00", .missingType, 1),
        ("D4 00 00", .missingType, 1),
        ("D5 01 00 55", .unexpectedType, 1),
        ("D6 00 00", .unchangedOutsideChunk, 0),
        ("F0 00 00", .chunkedEmptyRecord, 0),
        ("F5 00 01 61", .messageEndInChunk, 0),
        ("B5 00 01 61 55 00 01 62", .chunkWithoutUnchanged, 4),
        ("B5 00 01 61 56 01 01 55 62", .unexpectedType, 5),
        ("B5 00 01 61 5E 00 01 01 49 62", .idInChunk, 4),
        ("B5 00 01 61 76 00 01 62", .messageEndInChunk, 4),
        ("B5 00 01 61 36 00 01 62", .missingMessageEnd, 4),
    ]

    @Test(arguments: 0..<strictErrors.count) func strictDecodingRejectsEachRule(_ n: Int) {
        let (hexText, code, offset) = Self.strictErrors[n]
        do {
            let m = try NDEFMessage(decoding: h(hexText))
            Issue.record("\(hexText) decoded to \(m)")
        } catch {
            #expect(error.code == code, "\(hexText)")
            #expect(error.offset == offset, "\(hexText)")
            #expect(error.description == "\(code.rawValue) at byte \(offset)")
        }
    }

    /// Lenient repairs: (bytes, decoded records, repairs as "<rule>@<offset>").
    static let lenientRepairs: [(hex: String, records: [NDEFRecord], repairs: [String])] = [
        ("11 01 01 55 00", [rec(.wellKnown, "U", [0])], ["missing MB flag@0", "missing ME flag@0"]),
        ("D1 01 01 55 00 D1 01 01 55 00", [rec(.wellKnown, "U", [0])], ["trailing bytes after ME flag@5"]),
        (
            "91 01 01 55 00 D1 01 01 55 01", [rec(.wellKnown, "U", [0]), rec(.wellKnown, "U", [1])],
            ["unexpected MB flag@5"]
        ),
        ("D1 01 05 55 03 61", [rec(.wellKnown, "U", [3, 0x61])], ["payload length beyond end of data@2"]),
        ("D7 00 01 61", [rec(.unknown, [0x61])], ["reserved TNF@0"]),
        ("D7 01 01 55 61", [rec(.unknown, [0x61])], ["reserved TNF@0"]),
        ("D5 01 01 55 61", [rec(.unknown, [0x61])], ["type not allowed for TNF@1"]),
        ("D6 00 01 61", [rec(.unknown, [0x61])], ["unchanged TNF outside a chunked record@0"]),
        ("D1 00 01 61", [rec(.unknown, [0x61])], ["missing type@1"]),
        ("D0 00 01 61", [.empty], ["empty record with type, id or payload@0"]),
        ("F0 00 00", [.empty], ["chunked empty record@0"]),
        ("B5 00 01 61 55 00 01 62", [rec(.unknown, bytes("ab"))], ["chunk without unchanged TNF@4"]),
        ("B5 00 01 61 5E 00 01 01 49 62", [rec(.unknown, bytes("ab"))], ["id in continuation chunk@4"]),
        ("B5 00 01 61 36 00 01 62", [rec(.unknown, bytes("ab"))], ["missing ME flag@4"]),
        ("F5 00 01 61", [rec(.unknown, bytes("a"))], ["ME flag in non-terminal chunk@0"]),
        // An incomplete record after a complete one (zero padding, a torn write) is dropped.
        ("11 01 01 55 00 00", [rec(.wellKnown, "U", [0])], ["missing MB flag@0", "truncated record header@5"]),
        ("91 01 01 55 00 51 09 00 55", [rec(.wellKnown, "U", [0])], ["type length beyond end of data@6"]),
        ("91 01 01 55 00 59 01 00 09 55", [rec(.wellKnown, "U", [0])], ["id length beyond end of data@8"]),
        // A Type 2 tag's TLV terminator read along with the message.
        ("D1 01 01 55 00 FE 00 00", [rec(.wellKnown, "U", [0])], ["trailing bytes after ME flag@5"]),
    ]

    @Test(arguments: 0..<lenientRepairs.count) func lenientDecodingRepairsAndReports(_ n: Int) throws {
        let (hexText, records, expected) = Self.lenientRepairs[n]
        var repairs: [NDEFRepair] = []
        let m = try NDEFMessage(decoding: h(hexText), options: .lenient, repairs: &repairs)
        #expect(m.records == records, "\(hexText)")
        #expect(repairs.map { "\($0.code.rawValue)@\($0.offset)" } == expected, "\(hexText)")
        #expect(repairs.allSatisfy { !$0.action.isEmpty })
        // Strict mode rejects the same bytes with the first repaired rule.
        #expect(throws: NDEFError.self) { try NDEFMessage(decoding: h(hexText)) }
    }

    @Test func lenientModeStillRejectsWhatItCannotRepair() {
        for hexText in ["", "D1", "D1 05 01 55", "D9 01 01 04 55 61", "B5 00 01 61 36"] {
            #expect(throws: NDEFError.self) { try NDEFMessage(decoding: h(hexText), options: .lenient) }
        }
    }

    @Test func messageSizeLimitIsAParameterWithCoreNFCsDefault() throws {
        #expect(NDEFDecodingOptions.strict.maxMessageSize == 131_072)
        #expect(NDEFDecodingOptions.strict.maxNestingDepth == 16)
        let big = NDEFMessage(records: [rec(.unknown, [UInt8](repeating: 1, count: 131_072))]).encoded()
        #expect(throws: NDEFError(.messageTooLarge, at: 131_072)) { try NDEFMessage(decoding: big) }
        let options = NDEFDecodingOptions(maxMessageSize: 200_000)
        #expect(try NDEFMessage(decoding: big, options: options).records[0].payload.count == 131_072)
        #expect(throws: NDEFError(.messageTooLarge, at: 2)) {
            try NDEFMessage(decoding: h("D0 00 00"), options: NDEFDecodingOptions(maxMessageSize: 2))
        }
    }

    @Test func recordInitializerEnforcesTheTNFRules() {
        #expect(throws: NDEFError(.nonEmptyEmptyRecord, at: 0)) { try NDEFRecord(tnf: .empty, payload: [1]) }
        #expect(throws: NDEFError(.missingType, at: 0)) { try NDEFRecord(tnf: .wellKnown, payload: [1]) }
        #expect(throws: NDEFError(.unexpectedType, at: 0)) { try NDEFRecord(tnf: .unknown, type: [1]) }
        #expect(throws: NDEFError(.unchangedOutsideChunk, at: 0)) { try NDEFRecord(tnf: .unchanged) }
        #expect(throws: NDEFError(.reservedTNF, at: 0)) { try NDEFRecord(tnf: .reserved) }
        #expect(throws: NDEFError(.typeTooLong, at: 0)) {
            try NDEFRecord(tnf: .media, type: [UInt8](repeating: 0x61, count: 256))
        }
        #expect(throws: NDEFError(.idTooLong, at: 0)) {
            try NDEFRecord(tnf: .unknown, id: [UInt8](repeating: 0x61, count: 256))
        }
        #expect(NDEFRecord.TypeNameFormat.allCases.map(\.rawValue) == Array(0...7))
    }

    /// Every strict prefix of a valid message fails with a clean error (item 7).
    @Test func everyStrictPrefixFailsCleanly() throws {
        let messages =
            Self.golden.map { h($0.hex) } + [
                h("B2 0A 02 74 65 78 74 2F 70 6C 61 69 6E 61 62  36 00 02 63 64  56 00 02 65 66"),
                NDEFMessage(records: [rec(.wellKnown, "U", [4] + bytes("a.b")), rec(.unknown, id: [9], [1, 2])])
                    .encoded(chunkSize: 1),
            ]
        for wire in messages {
            for n in 0..<wire.count {
                #expect(throws: NDEFError.self, "prefix \(n) of \(wire.hexString)") {
                    try NDEFMessage(decoding: wire[0..<n])
                }
            }
        }
    }

    /// A seeded bit-flip sweep: decoding never traps, errors stay inside the buffer, what decodes re-encodes.
    @Test func seededBitFlipSweepNeverCrashes() throws {
        var rng = SeededGenerator(seed: 0x4E44_4546)
        let base = NDEFMessage(records: [
            rec(.wellKnown, "U", [4] + bytes("example.com/item/1")),
            rec(.wellKnown, "T", [2] + bytes("enItem 1")),
            try NDEFRecord(tnf: .media, type: bytes("text/plain"), id: [7], payload: bytes("chunked payload")),
        ]).encoded(chunkSize: 5)
        var decoded = 0
        for _ in 0..<20_000 {
            var wire = base
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                wire[Int.random(in: 0..<wire.count, using: &rng)] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            }
            let cut = Int.random(in: 0...wire.count, using: &rng)
            for options in [NDEFDecodingOptions.strict, .lenient] {
                do {
                    let m = try NDEFMessage(decoding: wire[0..<cut], options: options)
                    decoded += 1
                    #expect(try NDEFMessage(decoding: m.encoded()) == m)
                } catch {
                    #expect(error.offset >= 0 && error.offset <= cut)
                }
            }
        }
        #expect(decoded > 0)
    }
}
