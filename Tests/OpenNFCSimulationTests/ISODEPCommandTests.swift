import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

@Suite struct ISODEPCommandTests {
    /// One golden table for both directions: bytes → fields → the same bytes (ISO/IEC 7816-3 §12.1, the cases of
    /// ISO/IEC 7816-4 §5.1).
    static let cases: [(hex: String, data: Int, ne: Int?, extended: Bool)] = [
        ("00A4040C", 0, nil, false),  // case 1
        ("00B0000002", 0, 2, false),  // case 2S
        ("00B0000000", 0, 256, false),  // case 2S, Le 00 = 256
        ("00D6000002AABB", 2, nil, false),  // case 3S
        ("00A4040007D27600008501010F", 7, 15, false),  // case 4S
        ("00A4040007D276000085010100", 7, 256, false),  // case 4S, Le 00 = 256
        ("00B0000000ABCD", 0, 0xABCD, true),  // case 2E
        ("00B00000000000", 0, 65536, true),  // case 2E, Le 0000 = 65536
        ("00D6000000000211 22", 2, nil, true),  // case 3E
        ("00D600000000021122 0100", 2, 256, true),  // case 4E
    ]

    @Test func decodesAndReencodesEveryCase() throws {
        for c in Self.cases {
            let raw = h(c.hex)
            let command = try ISO7816Command(decoding: raw)
            #expect(command.data.count == c.data, "\(c.hex)")
            #expect(command.ne == c.ne, "\(c.hex)")
            #expect(command.isExtended == c.extended, "\(c.hex)")
            #expect(command.encoded == raw, "\(c.hex)")
        }
    }

    @Test func maximumLe() throws {
        #expect(try ISO7816Command(decoding: h("00B0000000")).neIsMaximum)
        #expect(try ISO7816Command(decoding: h("00B00000000000")).neIsMaximum)
        #expect(try !ISO7816Command(decoding: h("00B00000FF")).neIsMaximum)
        #expect(try !ISO7816Command(decoding: h("00B00000000100")).neIsMaximum)
    }

    @Test func malformedAPDUsNameTheirFault() {
        for hex in ["00B000", "00D6000003AABB", "00D6000001AABBCC", "00B0000000AB", "00D600000000", "00D6000000000211"]
        {
            #expect(throws: ISO7816Command.DecodingError.self, "\(hex)") { try ISO7816Command(decoding: h(hex)) }
        }
        do {
            _ = try ISO7816Command(decoding: h("00D6000003AABB"))
        } catch {
            #expect(error.reason.contains("byte 4"))
        }
    }
}
