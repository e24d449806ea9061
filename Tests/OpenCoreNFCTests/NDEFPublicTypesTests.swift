import Foundation
import OpenCoreNFC
import Testing

/// `NFCNDEFPayload` and `NFCNDEFMessage` (Apple's Core NFC documentation; docs/PARITY.md §6.1–§6.2).
@Suite struct NDEFPublicTypesTests {
    /// Compile-only: every implemented symbol bound to Apple's exact type.
    @Test func signaturesMatchCoreNFC() {
        let _: (NFCTypeNameFormat, Data, Data, Data) -> NFCNDEFPayload = NFCNDEFPayload.init(
            format:type:identifier:payload:)
        let _: (NFCTypeNameFormat, Data, Data, Data, Int) -> NFCNDEFPayload = NFCNDEFPayload.init(
            format:type:identifier:payload:chunkSize:)
        let _: (String) -> NFCNDEFPayload? = NFCNDEFPayload.wellKnownTypeURIPayload(string:)
        let _: (URL) -> NFCNDEFPayload? = NFCNDEFPayload.wellKnownTypeURIPayload(url:)
        let _: (String, Locale) -> NFCNDEFPayload? = NFCNDEFPayload.wellKnownTypeTextPayload(string:locale:)
        let _: (NFCNDEFPayload) -> () -> URL? = NFCNDEFPayload.wellKnownTypeURIPayload
        let _: (NFCNDEFPayload) -> () -> (String?, Locale?) = NFCNDEFPayload.wellKnownTypeTextPayload
        let _: ReferenceWritableKeyPath<NFCNDEFPayload, NFCTypeNameFormat> = \NFCNDEFPayload.typeNameFormat
        let _: ReferenceWritableKeyPath<NFCNDEFPayload, Data> = \NFCNDEFPayload.type
        let _: ReferenceWritableKeyPath<NFCNDEFPayload, Data> = \NFCNDEFPayload.identifier
        let _: ReferenceWritableKeyPath<NFCNDEFPayload, Data> = \NFCNDEFPayload.payload
        let _: ([NFCNDEFPayload]) -> NFCNDEFMessage = NFCNDEFMessage.init(records:)
        let _: (Data) -> NFCNDEFMessage? = NFCNDEFMessage.init(data:)
        let _: ReferenceWritableKeyPath<NFCNDEFMessage, [NFCNDEFPayload]> = \NFCNDEFMessage.records
        let _: KeyPath<NFCNDEFMessage, Int> = \NFCNDEFMessage.length
        let _: any NSSecureCoding.Type = NFCNDEFPayload.self
        let _: any NSSecureCoding.Type = NFCNDEFMessage.self
        let _: (NSCoder) -> NFCNDEFPayload? = NFCNDEFPayload.init(coder:)
        let _: (NSCoder) -> NFCNDEFMessage? = NFCNDEFMessage.init(coder:)
        let _: (NFCNDEFPayload) -> (NSCoder) -> Void = NFCNDEFPayload.encode(with:)
        let _: (NFCNDEFMessage) -> (NSCoder) -> Void = NFCNDEFMessage.encode(with:)
        let _: NSObject = NFCNDEFMessage(records: [])
        #expect(NFCNDEFPayload.supportsSecureCoding)
        #expect(NFCNDEFMessage.supportsSecureCoding)
    }

    /// The misspelled deprecated builder builds the same record (a deprecated test, so the build stays warning-free).
    @available(*, deprecated)
    @Test func deprecatedMisspelledTextBuilder() throws {
        let f: (String, Locale) -> NFCNDEFPayload? = NFCNDEFPayload.wellKnowTypeTextPayload(string:locale:)
        let p = try #require(f("Hello", Locale(identifier: "en")))
        #expect(p.payload == Data([0x02]) + Data("enHello".utf8))
    }

    @Test func uriBuildersAndReader() throws {
        let p = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(url: URL(string: "https://example.com/a")!))
        #expect(p.typeNameFormat == .nfcWellKnown)
        #expect(p.type == Data("U".utf8))
        #expect(p.identifier.isEmpty)
        #expect(p.payload == Data([0x04]) + Data("example.com/a".utf8))
        #expect(p.wellKnownTypeURIPayload() == URL(string: "https://example.com/a"))
        // (string:) keeps non-ASCII as UTF-8; reading it back percent-encodes for URL.
        let s = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/ä"))
        #expect(s.payload == Data([0x04]) + Data("example.com/ä".utf8))
        #expect(s.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/%C3%A4")
        // Longest prefix: tel: (0x05).
        #expect(NFCNDEFPayload.wellKnownTypeURIPayload(string: "tel:+123")?.payload.first == 0x05)
        // Not a URI record, or an invalid one: nil.
        let text = try #require(NFCNDEFPayload.wellKnownTypeTextPayload(string: "x", locale: Locale(identifier: "en")))
        #expect(text.wellKnownTypeURIPayload() == nil)
        let bad = NFCNDEFPayload(format: .nfcWellKnown, type: Data("U".utf8), identifier: Data(), payload: Data([0x24]))
        #expect(bad.wellKnownTypeURIPayload() == nil)
    }

    @Test func textBuildersAndReader() throws {
        let p = try #require(
            NFCNDEFPayload.wellKnownTypeTextPayload(string: "Grüezi", locale: Locale(identifier: "de_CH")))
        #expect(p.payload == Data([0x05]) + Data("de-CH".utf8) + Data("Grüezi".utf8))
        let (text, locale) = p.wellKnownTypeTextPayload()
        #expect(text == "Grüezi")
        #expect(locale?.identifier == "de-CH" || locale?.identifier == "de_CH")
        #expect(NFCNDEFPayload.wellKnownTypeTextPayload(string: "x", locale: Locale(identifier: "")) == nil)
        let uri = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "a:b"))
        let (t2, l2) = uri.wellKnownTypeTextPayload()
        #expect(t2 == nil && l2 == nil)
    }

    @Test func messageFromDataValidatesStrictly() throws {
        // "http://nfcpy.org" (NFC Forum RTD-URI 1.0 §3.2.2).
        let m = try #require(NFCNDEFMessage(data: Data([0xD1, 0x01, 0x0A, 0x55, 0x03] + Array("nfcpy.org".utf8))))
        #expect(m.records.count == 1)
        #expect(m.records[0].wellKnownTypeURIPayload()?.absoluteString == "http://nfcpy.org")
        #expect(m.length == 14)
        // Structure errors, trailing bytes, an RTD violation (reserved URI code), empty data: nil.
        #expect(NFCNDEFMessage(data: Data([0xD1, 0x01, 0x0B, 0x55, 0x03])) == nil)
        #expect(NFCNDEFMessage(data: Data([0xD1, 0x01, 0x01, 0x55, 0x00, 0x00])) == nil)
        #expect(NFCNDEFMessage(data: Data([0xD1, 0x01, 0x01, 0x55, 0x24])) == nil)
        #expect(NFCNDEFMessage(data: Data()) == nil)
        // Over 128 KiB: nil.
        let big = NFCNDEFMessage(records: [
            NFCNDEFPayload(format: .unknown, type: Data(), identifier: Data(), payload: Data(count: 131_072))
        ])
        #expect(big.length == 131_078)
        let bigBytes = Data([0xC5, 0x00, 0x00, 0x02, 0x00, 0x00]) + Data(count: 131_072)
        #expect(NFCNDEFMessage(data: bigBytes) == nil)
        // Chunked input is reassembled into one payload.
        let chunked = Data([0xB5, 0x00, 0x01, 0x61, 0x56, 0x00, 0x01, 0x62])
        let c = try #require(NFCNDEFMessage(data: chunked))
        #expect(c.records.count == 1 && c.records[0].payload == Data("ab".utf8))
        #expect(c.length == 5)
    }

    @Test func lengthFollowsEachPayloadsChunkSize() {
        let payload = Data(count: 10)
        let whole = NFCNDEFPayload(format: .media, type: Data("a/b".utf8), identifier: Data(), payload: payload)
        let chunked = NFCNDEFPayload(
            format: .media, type: Data("a/b".utf8), identifier: Data(), payload: payload, chunkSize: 4)
        let zero = NFCNDEFPayload(
            format: .media, type: Data("a/b".utf8), identifier: Data(), payload: payload, chunkSize: 0)
        #expect(NFCNDEFMessage(records: [whole]).length == 3 + 3 + 10)
        #expect(NFCNDEFMessage(records: [zero]).length == 16)
        // 4 + 4 + 2 bytes: first chunk keeps the type (3+3+4), then 3+4 and 3+2.
        #expect(NFCNDEFMessage(records: [chunked]).length == 10 + 7 + 5)
        #expect(NFCNDEFMessage(records: [whole, chunked]).length == 16 + 22)
        // No records: the empty NDEF message D0 00 00.
        #expect(NFCNDEFMessage(records: []).length == 3)
        // A 300-byte payload takes the 4-byte length form.
        let long = NFCNDEFPayload(format: .unknown, type: Data(), identifier: Data([1]), payload: Data(count: 300))
        #expect(NFCNDEFMessage(records: [long]).length == 1 + 1 + 4 + 1 + 1 + 300)
    }

    @Test func recordsAreMutable() {
        let m = NFCNDEFMessage(records: [])
        let p = NFCNDEFPayload(format: .empty, type: Data(), identifier: Data(), payload: Data())
        m.records.append(p)
        p.typeNameFormat = .unknown
        p.payload = Data([1, 2])
        #expect(m.records.count == 1 && m.records[0].payload == Data([1, 2]))
        #expect(m.length == 5)
    }

    /// A decoded payload keeps its record and strict decoding (docs/PERFORMANCE.md); setting any field must make
    /// the accessors, the length and the written bytes follow the new fields.
    @Test func decodedPayloadsFollowTheirFieldsOnceChanged() throws {
        // URI "https://example.com/a" (code 0x04), then Text "Hi" in "en".
        let bytes: [UInt8] =
            [0x91, 0x01, 0x0E, 0x55, 0x04] + Array("example.com/a".utf8) + [0x51, 0x01, 0x05, 0x54, 0x02]
            + Array("enHi".utf8)
        let m = try #require(NFCNDEFMessage(data: Data(bytes)))
        let uri = m.records[0]
        let text = m.records[1]
        #expect(uri.typeNameFormat == .nfcWellKnown && uri.type == Data("U".utf8) && uri.identifier.isEmpty)
        #expect(uri.payload == Data([0x04] + Array("example.com/a".utf8)))
        #expect(m.length == bytes.count)
        #expect(uri.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/a")
        #expect(text.wellKnownTypeTextPayload().0 == "Hi")

        uri.payload = Data([0x03] + Array("b.example".utf8))  // "http://"
        #expect(uri.wellKnownTypeURIPayload()?.absoluteString == "http://b.example")
        #expect(uri.type == Data("U".utf8))
        #expect(m.length == bytes.count - 4)
        text.typeNameFormat = .media
        #expect(text.wellKnownTypeTextPayload().0 == nil && text.wellKnownTypeTextPayload().1 == nil)
        #expect(text.type == Data("T".utf8) && text.payload == Data([0x02] + Array("enHi".utf8)))
        let again = try #require(NFCNDEFMessage(data: Data(bytes)))
        again.records[1].type = Data("U".utf8)  // its first byte, 0x02, now reads as the prefix "https://www."
        #expect(again.records[1].wellKnownTypeTextPayload().0 == nil)
        #expect(again.records[1].wellKnownTypeURIPayload()?.absoluteString == "https://www.enHi")
    }

    @Test func keyedArchiverRoundTrip() throws {
        let p = NFCNDEFPayload(
            format: .nfcExternal, type: Data("a.b:c".utf8), identifier: Data([7]), payload: Data([1, 2, 3]),
            chunkSize: 2)
        let m = NFCNDEFMessage(records: [p, NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://x.y")!])
        let data = try NSKeyedArchiver.archivedData(withRootObject: m, requiringSecureCoding: true)
        let back = try #require(
            try NSKeyedUnarchiver.unarchivedObject(
                ofClasses: [NFCNDEFMessage.self, NFCNDEFPayload.self, NSArray.self], from: data)
                as? NFCNDEFMessage)
        #expect(back.records.count == 2)
        #expect(back.records[0].typeNameFormat == .nfcExternal)
        #expect(back.records[0].type == Data("a.b:c".utf8))
        #expect(back.records[0].identifier == Data([7]))
        #expect(back.records[0].payload == Data([1, 2, 3]))
        #expect(back.length == m.length)
        #expect(back.records[1].wellKnownTypeURIPayload()?.absoluteString == "https://x.y")
    }
}
