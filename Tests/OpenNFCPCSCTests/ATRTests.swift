import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCPCSC

@Suite struct ATRTests {
    @Test func ultralightStorageCardATR() throws {
        // PC/SC Part 3 ATR of a MIFARE Ultralight, TCK computed (PC/SC Part 3 §3.1.3.2.3); also measured from vpcd.
        let atr = try ATR(decoding: ultralightATR)
        #expect(!atr.isInverseConvention)
        #expect(atr.groups.count == 3)
        #expect(atr.groups[0].td == 0x80)
        #expect(atr.groups[1].td == 0x01)
        #expect(atr.protocols == [0, 1])
        #expect(atr.historicalBytes == h("804F0CA0000003060300030000 0000"))
        #expect(atr.tck == 0x68)
        let card = ContactlessCard(atr: atr)
        #expect(card == .storage(standard: 0x03, cardName: 0x0003))
        #expect(card.technology == .nfcA)
        #expect(card.summary == "MIFARE Ultralight (ISO 14443 A part 3)")
        #expect(card.chipGuess.contains("NTAG21x"))
    }

    @Test(arguments: [
        // Computed storage-card ATRs (PC/SC Part 3 §3.1.3.2.3).
        ("3B8F8001804F0CA000000306030001000000006A", UInt8(0x03), UInt16(0x0001), "MIFARE Classic 1K"),
        ("3B8F8001804F0CA0000003060300020000000069", 0x03, 0x0002, "MIFARE Classic 4K"),
        ("3B8F8001804F0CA0000003060300030000000068", 0x03, 0x0003, "MIFARE Ultralight"),
        ("3B8F8001804F0CA00000030603003A0000000051", 0x03, 0x003A, "MIFARE Ultralight C"),
        ("3B8F8001804F0CA00000030611003B0000000042", 0x11, 0x003B, "FeliCa"),
    ])
    func storageCardNames(hex: String, standard: UInt8, name: UInt16, chip: String) throws {
        let card = ContactlessCard(atr: try ATR(decoding: h(hex)))
        #expect(card == .storage(standard: standard, cardName: name))
        #expect(ContactlessCard.cardName(name) == chip)
    }

    @Test func isoDEPATRs() throws {
        // `3B 81 80 01 80 80` (ACR122L manual) and `3B 86 80 01 06 75 77 81 02 80 00` (ACR122T manual), §9.3.
        #expect(ContactlessCard(atrBytes: isoDEPATR) == .isoDEP(historicalBytes: [0x80]))
        let desfire = try ATR(decoding: h("3B86800106757781028000"))
        #expect(desfire.historicalBytes == h("067577810280"))
        #expect(desfire.tck == 0x00)
        #expect(ContactlessCard(atr: desfire) == .isoDEP(historicalBytes: h("067577810280")))
        // Empty historical bytes: 3B 80 80 01 01 (computed).
        #expect(ContactlessCard(atrBytes: h("3B80800101")) == .isoDEP(historicalBytes: []))
    }

    @Test func contactCardIsNotContactless() throws {
        // vicc's ISO 7816 card (vsmartcard `virtualsmartcard/src/vpcd-config` and vicc's ATR): TA1 and TD1 with T=1.
        let atr = try ATR(decoding: h("3B951381018073FF01000B"))
        #expect(atr.groups[0].ta == 0x13)
        #expect(atr.historicalBytes == h("8073FF0100"))
        #expect(ContactlessCard(atr: atr) == .other)
    }

    @Test func t0OnlyATRHasNoTCK() throws {
        let atr = try ATR(decoding: h("3B0212AB"))
        #expect(atr.tck == nil)
        #expect(atr.protocols == [0])
        #expect(atr.historicalBytes == h("12AB"))
    }

    @Test(arguments: [
        ("", "invalid ATR: empty at byte 0"),
        ("3C00", "invalid ATR: TS is 3C, not 3B (direct) or 3F (inverse convention) at byte 0"),
        ("3B", "invalid ATR: ends before T0 at byte 1"),
        ("3B8F8001804F0CA00000030603000300000000", "invalid ATR: ends before TCK at byte 19"),
        ("3B8F8001804F0CA0000003060300030000000069", "invalid ATR: TCK 69 is wrong (expected 68) at byte 19"),
        ("3B8F800180", "invalid ATR: ends before historical byte 2 of 15 at byte 5"),
        ("3B0212ABCD", "invalid ATR: 1 bytes after the end the format byte announces at byte 4"),
        ("3B9F", "invalid ATR: ends before TA1 at byte 2"),
    ])
    func malformedATRsNameTheByte(hex: String, message: String) {
        #expect(throws: (any Error).self) { try ATR(decoding: h(hex)) }
        do {
            _ = try ATR(decoding: h(hex))
        } catch {
            #expect(error.description == message)
        }
        #expect(ContactlessCard(atrBytes: h(hex)) == .other)
    }

    @Test func tooLongATR() {
        #expect(throws: ATR.Error("34 bytes, more than the 33 ISO 7816-3 allows", offset: 33)) {
            try ATR(decoding: [UInt8](repeating: 0x3B, count: 34))
        }
    }
}

@Suite struct NXPVersionTests {
    @Test(arguments: [
        // GET_VERSION answers from the datasheets (NTAG213/215/216 datasheet §10.1, MF0ULx1 datasheet §8.1 GET_VERSION).
        ("0004040201000F03", "NTAG213", "ntag213"),
        ("0004040201001103", "NTAG215", "ntag215"),
        ("0004040201001303", "NTAG216", "ntag216"),
        ("0004040101000B03", "NTAG210", "ntag210"),
        ("0004030101000B03", "MIFARE Ultralight EV1 (MF0UL11)", "mf0ul11"),
        ("0004030101000E03", "MIFARE Ultralight EV1 (MF0UL21)", "mf0ul21"),
    ])
    func chipNames(hex: String, name: String, id: String) {
        let v = NXPVersion(h(hex))
        #expect(v?.chipName == name)
        #expect(v?.chipIdentifier == id)
    }

    @Test func rejectsWrongShapes() {
        #expect(NXPVersion(h("00040402010011")) == nil)
        #expect(NXPVersion(h("0104040201001103")) == nil)
    }
}
