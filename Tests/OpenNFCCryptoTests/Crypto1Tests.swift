import Testing

@testable import OpenNFCCrypto

@Suite struct Crypto1Tests {
    // A published first authentication (proxmark3 `mfkey64` documentation "sample trace"; the trace's key is the
    // transport key FF FF FF FF FF FF): anticollision gives UID 9C 59 9B 32, the reader sends AUTH-A `60 32`, the
    // card nT = 82 A4 16 6C, the reader {nR}{aR} = A1 E4 58 CE 6E EA 41 E0, the card {aT} = 5C AD F4 39.
    let uid: UInt32 = 0x9C59_9B32
    let nt: UInt32 = 0x82A4_166C
    let nrEnc: UInt32 = 0xA1E4_58CE
    let arEnc: UInt32 = 0x6EEA_41E0
    let atEnc: UInt32 = 0x5CAD_F439

    @Test func sampleTraceDecryptsToTheNonceSuccessors() {
        var card = Crypto1(key: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        card.shift(word: uid ^ nt)
        // The card decrypts {nR} feeding back the plaintext (encrypted input), then checks aR and answers aT.
        card.shift(word: nrEnc, encrypted: true)
        let ks2 = card.shift(word: 0)
        #expect(arEnc ^ ks2 == MifareNonce.successor(nt, 64))
        let ks3 = card.shift(word: 0)
        #expect(atEnc ^ ks3 == MifareNonce.successor(nt, 96))
    }

    @Test func readerSideProducesTheSameCiphertext() {
        // Recover the reader's plaintext nR from the card's view, then replay the reader: it must send the same bytes.
        var card = Crypto1(key: 0xFFFF_FFFF_FFFF)
        card.shift(word: uid ^ nt)
        let before = card
        let ks1 = card.shift(word: nrEnc, encrypted: true)
        let nr = nrEnc ^ ks1
        var reader = before
        let ks1Reader = reader.shift(word: nr)
        #expect(nr ^ ks1Reader == nrEnc)
        #expect(reader == card)
        #expect(MifareNonce.successor(nt, 64) ^ reader.shift(word: 0) == arEnc)
    }

    @Test func cardNoncesComeFromTheSixteenBitGenerator() {
        // A real card's nT satisfies the generator's recurrence; a random word almost never does.
        #expect(MifareNonce.isGeneratorOutput(nt))
        #expect(!MifareNonce.isGeneratorOutput(0x1234_5678))
        let generated = MifareNonce.fromGenerator(seed: 0xBEEF)
        #expect(MifareNonce.isGeneratorOutput(generated))
        #expect(MifareNonce.isGeneratorOutput(MifareNonce.successor(generated, 32)))
        // suc composes: suc^96 = suc^32 ∘ suc^64, and the 16-bit generator has period 65535.
        #expect(MifareNonce.successor(MifareNonce.successor(nt, 64), 32) == MifareNonce.successor(nt, 96))
        #expect(MifareNonce.successor(nt, 65535) == nt)
    }

    @Test func keyLoadsLeastSignificantBitFirst() {
        // x(8j+b) = bit b of key byte j: the first key byte fills x0…x7.
        #expect(Crypto1(key: [0x01, 0, 0, 0, 0, 0]).state == 1)
        #expect(Crypto1(key: [0, 0, 0, 0, 0, 0x80]).state == 1 << 47)
        #expect(Crypto1(key: 0xA0A1_A2A3_A4A5) == Crypto1(key: [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]))
    }

    @Test func encryptedFramesRoundTripWithParity() {
        var a = Crypto1(key: 0xA0A1_A2A3_A4A5)
        a.shift(word: 0x0102_0304)
        var b = a
        let plain: [UInt8] = [0x30, 0x04, 0x26, 0xEE]
        let frame = a.encrypt(plain)
        #expect(frame.bytes != plain)
        #expect(frame.parity.count == 4)
        let back = b.decrypt(frame)
        #expect(back == Crypto1Decrypted(bytes: plain, parityOK: true))
        // A flipped parity bit is detected (ISO/IEC 14443-3 parity under Crypto1 still checks the plaintext).
        var c = a
        var d = a
        var tampered = c.encrypt(plain)
        tampered.parity[2] ^= 1
        #expect(d.decrypt(tampered).parityOK == false)
        // 4-bit answers (ACK = A) encrypt with four keystream bits.
        var e = a
        var f = a
        #expect(f.decrypt(nibble: e.encrypt(nibble: 0x0A)) == 0x0A)
    }

    @Test func nestedAuthenticationDecryptsTheEncryptedNonce() {
        // Nested: the card sends {nT} = nT ⊕ ks0, where ks0 comes while shifting in uid ⊕ nT; the reader only knows
        // {nT} and shifts in uid ⊕ {nT} as encrypted input, which reaches the same state.
        let key: UInt64 = 0x4B79_1BEA_7BCC
        let nested = MifareNonce.fromGenerator(seed: 0x1234)
        var card = Crypto1(key: key)
        let ks0 = card.shift(word: uid ^ nested)
        let sent = nested ^ ks0
        var reader = Crypto1(key: key)
        let ks0Reader = reader.shift(word: uid ^ sent, encrypted: true)
        #expect(sent ^ ks0Reader == nested)
        #expect(reader == card)
    }
}
