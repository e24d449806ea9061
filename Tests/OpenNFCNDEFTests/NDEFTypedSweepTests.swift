import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCNDEF

/// Seeded bit-flip sweep over a message holding every typed record: the typed decoders, the JSON and the listing
/// never trap, whatever the bytes, in strict and lenient mode.
@Suite struct NDEFTypedSweepTests {
    static func everyRecordType() throws -> [UInt8] {
        NDEFMessage(records: [
            try NDEFSmartPosterRecord(
                uri: "https://example.com", titles: [.init(text: "Ex", language: "en")], action: .saveForLater, size: 9,
                mediaType: "text/html", icons: [NDEFMIMERecord(mediaType: "image/png", data: [1, 2])]
            ).record(),
            try NDEFTextRecord(text: "Hi", language: "en", encoding: .utf16).record(),
            try NDEFHandoverRecord(
                kind: .request, version: 0x12,
                alternativeCarriers: [
                    NDEFAlternativeCarrier(
                        powerState: .active, carrierDataReference: [0x30], auxiliaryDataReferences: [[1]])
                ],
                collisionResolution: 7
            ).record(),
            try NDEFHandoverRecord(kind: .select, error: NDEFHandoverError(reason: 1, data: 5)).record(),
            try NDEFRecord(
                tnf: .media, type: bytes("application/vnd.bluetooth.ep.oob"), id: [0x30],
                payload: h("11 00 06 05 04 03 02 01 04 0D 20 04 24 03 09 41 42")),
            try NDEFBluetoothCarrier(
                transport: .lowEnergy, address: [1, 2, 3, 4, 5, 6], addressType: 1,
                dataStructures: [.init(type: 0x1C, data: [0])]
            ).record(),
            try NDEFWiFiCarrier(ssid: bytes("Net"), networkKey: bytes("pw")).record(),
            try NDEFHandoverCarrierRecord(carrierTypeFormat: .media, carrierType: bytes("a/b"), carrierData: [1])
                .record(),
            try NDEFSignatureRecord(signatureType: 0x0B, signature: [1, 2], certificates: [[3]], certificateURI: "u:v")
                .record(),
            try NDEFDeviceInformationRecord(
                manufacturer: "A", model: "B", deviceName: "C", uuid: Array(repeating: 0, count: 16)
            )
            .record(),
            try NDEFAndroidApplicationRecord(packageName: "com.example").record(),
            try NDEFExternalRecord(domain: "example.com", name: "t", data: [1]).record(),
            try NDEFAbsoluteURIRecord(uri: "urn:x:y").record(),
        ]).encoded()
    }

    @Test func everyRecordTypeRoundTripsStrictly() throws {
        let wire = try Self.everyRecordType()
        let m = try NDEFMessage(decoding: wire)
        var repairs: [NDEFRepair] = []
        let decoded = try m.decodedRecords(options: .strict, repairs: &repairs)
        #expect(decoded.allSatisfy { $0 != nil })
        #expect(repairs.isEmpty)
        #expect(m.encoded() == wire)
    }

    @Test func seededBitFlipsNeverTrapInTypedDecoders() throws {
        let base = try Self.everyRecordType()
        var rng = SeededGenerator(seed: 0x5459_5045)
        var decodedRecords = 0
        for _ in 0..<2_000 {
            var wire = base
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                wire[Int.random(in: 0..<wire.count, using: &rng)] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            }
            for options in [NDEFDecodingOptions.strict, .lenient] {
                guard let m = try? NDEFMessage(decoding: wire, options: options) else { continue }
                var repairs: [NDEFRepair] = []
                do {
                    let d = try m.decodedRecords(options: options, repairs: &repairs)
                    decodedRecords += d.count { $0 != nil }
                    _ = try m.jsonValue(options: options, repairs: &repairs)
                    _ = try m.listing(options: options, repairs: &repairs)
                } catch {
                    #expect(options == .strict, "lenient typed decoding threw \(error)")
                    #expect(error.offset >= 0 && error.offset <= wire.count)
                }
                #expect(repairs.allSatisfy { $0.offset >= 0 && $0.offset <= wire.count })
                _ = m.jsonValue()
                _ = m.listing()
            }
        }
        #expect(decodedRecords > 0)
    }
}
