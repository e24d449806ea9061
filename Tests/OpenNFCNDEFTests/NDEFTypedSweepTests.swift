import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCNDEF

/// Seeded bit-flip sweep over a message holding every typed record: the typed decoders, the JSON and the listing
/// never trap, whatever the bytes, in strict and lenient mode.
@Suite struct NDEFTypedSweepTests {
    /// A message of one record of every typed kind (`NDEFSamples`, shared with the `ndef` fuzz seeds).
    static func everyRecordType() throws -> [UInt8] {
        NDEFMessage(records: try NDEFSamples.everyRecordType()).encoded()
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
