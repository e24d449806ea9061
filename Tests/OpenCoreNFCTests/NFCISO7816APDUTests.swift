import Foundation
import OpenCoreNFC
import Testing

@testable import OpenCoreNFC

/// Lc/Le encodings of ISO/IEC 7816-4 §5.1 with Core NFC's choices (Apple's Core NFC documentation; docs/PARITY.md §7.1).
@Suite struct NFCISO7816APDUTests {
    func encode(_ data: [UInt8], le: Int) -> [UInt8] {
        NFCISO7816APDU(
            instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00, data: Data(data),
            expectedResponseLength: le
        ).fields.encoded
    }

    @Test func shortCases() {
        #expect(encode([], le: -1) == [0x00, 0xA4, 0x04, 0x00])  // case 1
        #expect(encode([], le: 16) == [0x00, 0xA4, 0x04, 0x00, 0x10])  // case 2S
        #expect(encode([], le: 256) == [0x00, 0xA4, 0x04, 0x00, 0x00])  // case 2S, Le 256 → 00
        #expect(encode([0xD2, 0x76], le: -1) == [0x00, 0xA4, 0x04, 0x00, 0x02, 0xD2, 0x76])  // case 3S
        #expect(encode([0xD2, 0x76], le: 256) == [0x00, 0xA4, 0x04, 0x00, 0x02, 0xD2, 0x76, 0x00])  // case 4S
    }

    @Test func extendedCases() {
        #expect(encode([], le: 257) == [0x00, 0xA4, 0x04, 0x00, 0x00, 0x01, 0x01])  // case 2E
        #expect(encode([], le: 65536) == [0x00, 0xA4, 0x04, 0x00, 0x00, 0x00, 0x00])  // case 2E, 65536 → 00 00 00
        let long = [UInt8](repeating: 0xAB, count: 300)
        #expect(encode(long, le: -1) == [0x00, 0xA4, 0x04, 0x00, 0x00, 0x01, 0x2C] + long)  // case 3E
        #expect(encode(long, le: 256) == [0x00, 0xA4, 0x04, 0x00, 0x00, 0x01, 0x2C] + long + [0x01, 0x00])  // 4E
        #expect(encode([0x01], le: 65536) == [0x00, 0xA4, 0x04, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00])  // 4E
    }

    @Test func parsingEveryCase() throws {
        let vectors: [([UInt8], [UInt8]?, Int)] = [
            ([0x00, 0xB0, 0x00, 0x00], nil, -1),
            ([0x00, 0xB0, 0x00, 0x00, 0x00], nil, 256),
            ([0x00, 0xB0, 0x00, 0x00, 0x0F], nil, 15),
            ([0x00, 0xD6, 0x00, 0x00, 0x02, 0x01, 0x02], [0x01, 0x02], -1),
            ([0x00, 0xA4, 0x04, 0x00, 0x01, 0x01, 0x00], [0x01], 256),
            ([0x00, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x00], nil, 65536),
            ([0x00, 0xB0, 0x00, 0x00, 0x00, 0x01, 0x00], nil, 256),
            ([0x00, 0xD6, 0x00, 0x00, 0x00, 0x00, 0x01, 0x07], [0x07], -1),
            ([0x00, 0xD6, 0x00, 0x00, 0x00, 0x00, 0x01, 0x07, 0x00, 0x00], [0x07], 65536),
        ]
        for (bytes, data, le) in vectors {
            let apdu = try #require(NFCISO7816APDU(data: Data(bytes)))
            #expect(apdu.data.map { [UInt8]($0) } == data)
            #expect(apdu.expectedResponseLength == le)
            // Re-encoding is canonical: extended forms that fit the short form come back short.
            let reparsed = try #require(NFCISO7816APDU(data: Data(apdu.fields.encoded)))
            #expect(reparsed.data == apdu.data && reparsed.expectedResponseLength == le)
        }
        #expect(NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04])) == nil)
        #expect(NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00, 0x03, 0x01])) == nil)
        #expect(NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00, 0x00, 0x01])) == nil)
        #expect(NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00, 0x00, 0x00, 0x00, 0x01])) == nil)
    }

    @Test func fieldsAndInvalidValues() {
        let apdu = NFCISO7816APDU(
            instructionClass: 0x90, instructionCode: 0x60, p1Parameter: 1, p2Parameter: 2, data: Data(),
            expectedResponseLength: -1)
        #expect(apdu.instructionClass == 0x90 && apdu.instructionCode == 0x60)
        #expect(apdu.p1Parameter == 1 && apdu.p2Parameter == 2)
        #expect(apdu.data == nil)
        #expect((apdu.copy() as? NFCISO7816APDU) === apdu)
        #expect(apdu.fields.problem == nil)
        let zeroLe = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0, p1Parameter: 0, p2Parameter: 0, data: Data(),
            expectedResponseLength: 0)
        #expect(zeroLe.fields.problem == .expectedLengthOutOfRange)
        let tooLong = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0, p1Parameter: 0, p2Parameter: 0,
            data: Data(count: 65536), expectedResponseLength: -1)
        #expect(tooLong.fields.problem == .dataTooLong)
    }
}
