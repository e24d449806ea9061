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

    func card() throws -> (VPCDCard, Type2Tag) {
        let chip = try Type2Tag.factory(.ultralightC, uid: h("04616263646566"), holding: h("D101055402656E6869"))
        try chip.setUltralightCKey(Self.key)
        try chip.setUltralightCAccess(auth0: 0x04, protectReads: true)
        chip.random = SeededRandomSource(seed: 8)
        let card = VPCDCard(tag: chip)
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
}
