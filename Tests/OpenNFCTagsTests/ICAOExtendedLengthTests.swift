import OpenNFCCrypto
import OpenNFCTags
import Testing

/// EF.ATR/INFO's extended length information (ISO/IEC 7816-4 §12.7.1) and the chunk sizes secure messaging leaves
/// (ICAO Doc 9303 Part 11 §9.8).
@Suite struct ICAOExtendedLengthTests {
    @Test func theBufferSizesAreParsedAmongOtherObjects() throws {
        // Card capabilities 47, then 7F66 { 02 02 0F FF, 02 02 10 00 }.
        let file: [UInt8] = [
            0x47, 0x03, 0x00, 0x00, 0x40, 0x7F, 0x66, 0x08, 0x02, 0x02, 0x0F, 0xFF, 0x02, 0x02, 0x10, 0x00,
        ]
        let info = try #require(try ExtendedLengthInfo(atrInfo: file))
        #expect(info == ExtendedLengthInfo(maxCommandLength: 4095, maxResponseLength: 4096))
        #expect(try ExtendedLengthInfo(atrInfo: [0x47, 0x03, 0x00, 0x00, 0x40]) == nil)
    }

    @Test func aMalformedFileIsNamed() {
        let e = #expect(throws: PassportError.self) { try ExtendedLengthInfo(atrInfo: [0x7F, 0x66, 0x04, 0x02, 0x02]) }
        #expect(e?.code == .malformed)
        #expect(e?.reason.contains("EF.ATR/INFO") == true)
        let f = #expect(throws: PassportError.self) {
            try ExtendedLengthInfo(atrInfo: [0x7F, 0x66, 0x04, 0x04, 0x02, 0x10, 0x00])
        }
        #expect(f?.reason.contains("two INTEGERs") == true)
    }

    @Test func theLargestLeForAResponseDataLimit() throws {
        let tdes = try SecureMessaging(
            cipher: .tdes2, encryptionKey: [UInt8](repeating: 1, count: 16), macKey: [UInt8](repeating: 2, count: 16),
            ssc: [UInt8](repeating: 0, count: 8))
        let aes = try SecureMessaging(
            cipher: .aes128, encryptionKey: [UInt8](repeating: 1, count: 16), macKey: [UInt8](repeating: 2, count: 16),
            ssc: [UInt8](repeating: 0, count: 16))
        #expect(tdes.maxShortLe == 231 && aes.maxShortLe == 223)
        #expect(tdes.maxLe(responseData: 4094) == 4071 && aes.maxLe(responseData: 4094) == 4063)
        // 4063 plain bytes → 4064 padded, DO'87' 82 0F E1 + 01 + 4064 = 4069, + DO'99' 4 + DO'8E' 10 = 4083 ≤ 4094.
        #expect(aes.maxLe(responseData: 14) == 0)
    }
}
