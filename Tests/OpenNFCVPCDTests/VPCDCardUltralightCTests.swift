import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

/// A virtual Ultralight C (MF0ICU2) behind the emulated reader: its 3DES authentication in both ACS pass-through
/// forms, the ACR122U's PN532 InCommunicateThru (`FF 00 00 00 Lc D4 42 …` → `D5 43 00 …`) and the ACR1252U's
/// direct transmit without PN53x framing (`FF 00 00 00 Lc <frame>` → `<answer> 90 00`).
@Suite struct VPCDCardUltralightCTests {
    static let key: [UInt8] = Array(0x20...0x2F)

    func card(forms: VPCDCard.ReaderForms = .acs) throws -> (VPCDCard, Type2Tag) {
        let chip = try Type2Tag.factory(.ultralightC, uid: h("04616263646566"), holding: h("D101055402656E6869"))
        try chip.setUltralightCKey(Self.key)
        try chip.setUltralightCAccess(auth0: 0x04, protectReads: true)
        chip.random = SeededRandomSource(seed: 8)
        let card = VPCDCard(tag: chip, forms: forms)
        card.powerOn()
        return (card, chip)
    }

    /// The reader's half of the three-pass authentication (MF0ICU2 §9.5), for the test only.
    func authenticate(_ send: ([UInt8]) -> [UInt8]?) throws -> Bool {
        let cipher = try BlockCipher(.tdes2, key: Self.key)
        let challenge = try #require(send([0x1A, 0x00]))
        #expect(challenge.count == 9 && challenge[0] == 0xAF)
        let ekB = Array(challenge[1...])
        let rndB = try cipher.decryptCBC(ekB, iv: [UInt8](repeating: 0, count: 8))
        let rndA: [UInt8] = Array(0x70...0x77)
        let token = try cipher.encryptCBC(rndA + Array(rndB[1...]) + [rndB[0]], iv: ekB)
        let answer = try #require(send([0xAF] + token))
        guard answer.count == 9, answer[0] == 0x00 else { return false }
        let rotatedA = try cipher.decryptCBC(Array(answer[1...]), iv: Array(token[8..<16]))
        return rotatedA == Array(rndA[1...]) + [rndA[0]]
    }

    @Test func acr122uInCommunicateThru() throws {
        let (card, _) = try card()
        func thru(_ frame: [UInt8]) -> [UInt8]? {
            guard let r = card.respond(to: [0xFF, 0x00, 0x00, 0x00, UInt8(frame.count + 2), 0xD4, 0x42] + frame),
                r.count >= 5, Array(r.prefix(3)) == [0xD5, 0x43, 0x00], Array(r.suffix(2)) == [0x90, 0x00]
            else { return nil }
            return Array(r.dropFirst(3).dropLast(2))
        }
        #expect(thru([0x30, 0x04]) == [0x00])  // protected read before authentication: NAK 0 as one byte
        card.reset()
        #expect(try authenticate(thru))
        #expect(thru([0x30, 0x04])?.prefix(4) == [0x03, 0x09, 0xD1, 0x01])
    }

    @Test func acr1252uDirectTransmit() throws {
        let (card, chip) = try card()
        func direct(_ frame: [UInt8]) -> [UInt8]? {
            guard let r = card.respond(to: [0xFF, 0x00, 0x00, 0x00, UInt8(frame.count)] + frame), r.count >= 3,
                Array(r.suffix(2)) == [0x90, 0x00]
            else { return nil }
            return Array(r.dropLast(2))
        }
        #expect(direct([0x30, 0x04]) == [0x00])  // NAK 0 as one byte + 90 00
        #expect(card.respond(to: h("FF000000023004")) == h("6300"))  // muted after the NAK: no answer is 63 00
        card.reset()
        #expect(try authenticate(direct))
        #expect(direct([0x30, 0x04])?.prefix(4) == [0x03, 0x09, 0xD1, 0x01])
        #expect(direct([0xA2, 0x10, 0xCA, 0xFE, 0xBA, 0xBE]) == [0x0A])  // WRITE: ACK as one byte
        #expect(Array(chip.memory[0x40..<0x44]) == [0xCA, 0xFE, 0xBA, 0xBE])
        // An ISO-DEP card gets 63 00 (the ACR1252U carries APDUs to it), and a frame must match Lc.
        let t4 = VPCDCard(tag: try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: h("D10100")))
        t4.powerOn()
        #expect(t4.respond(to: h("FF000000023004")) == h("6300"))
        #expect(card.respond(to: h("FF0000000530")) == h("6300"))
    }

    /// A PC/SC 2.02 reader of another maker (`forms: .pcsc`): no ACS form, raw frames in the transparent session
    /// switched to ISO/IEC 14443 Type A layer 3 (PC/SC Part 3 v2.02), a 4-bit ACK/NAK as one byte with `92 01 04`.
    @Test func pcscTransparentSessionForTypeA() throws {
        let (card, chip) = try card(forms: .pcsc)
        #expect(card.respond(to: h("FF00000003D44260")) == h("6A81"))  // no ACR122U pass-through
        #expect(card.respond(to: h("FF000000023004")) == h("6A81"))  // nor the ACR1252U form
        #expect(card.respond(to: h("FFC20001049502300400")) == h("C00300 6A81 9000"))  // outside a session
        #expect(card.respond(to: h("FFC200000281 0000")) == h("C003009000 9000"))  // start
        #expect(card.respond(to: h("FFC20002048F02020300")) == h("C003006A80 9000"))  // ISO 15693: not this tag
        #expect(card.respond(to: h("FFC20002048F02000300")) == h("C003009000 9000"))  // Type A, layer 3
        func transceive(_ frame: [UInt8]) -> [UInt8]? {
            let objects = [0x95, UInt8(frame.count)] + frame
            guard let r = card.respond(to: [0xFF, 0xC2, 0x00, 0x01, UInt8(objects.count)] + objects + [0x00]),
                Array(r.prefix(5)) == [0xC0, 0x03, 0x00, 0x90, 0x00], Array(r.suffix(2)) == [0x90, 0x00],
                let answer = try? DataObject.decodeAll(Array(r.dropFirst(5).dropLast(2))).first(where: {
                    $0.tag == 0x97
                })
            else { return nil }
            return answer.value
        }
        let nak = try #require(card.respond(to: h("FFC20001049502300400")))
        #expect(nak == h("C003009000 920104 96020000 970100 9000"))  // protected READ: NAK 0, 4 valid bits
        card.reset()
        #expect(card.respond(to: h("FFC200000281 0000")) == h("C003009000 9000"))  // the reset ended the session
        #expect(card.respond(to: h("FFC20002048F02000300")) == h("C003009000 9000"))
        #expect(try authenticate(transceive))
        #expect(transceive([0x30, 0x04])?.prefix(4) == [0x03, 0x09, 0xD1, 0x01])
        let write = try #require(card.respond(to: h("FFC200010F 5F460440420F00 9506A210CAFEBABE 00")))
        #expect(write == h("C003009000 920104 96020000 97010A 9000"))  // ACK, 4 valid bits
        #expect(Array(chip.memory[0x40..<0x44]) == [0xCA, 0xFE, 0xBA, 0xBE])
        #expect(card.respond(to: h("FFC200000282 0000")) == h("C003009000 9000"))  // end
    }
}
