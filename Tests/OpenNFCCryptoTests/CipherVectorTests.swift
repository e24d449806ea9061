import Testing

@testable import OpenNFCCrypto

/// Hex in test vectors: spaces allowed, no other separators.
func h(_ s: String) -> [UInt8] {
    let digits = Array(s.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

@Suite struct AESVectorTests {
    // NIST SP 800-38A (2001), Appendix F.1.1 ECB-AES128 and F.2.1/F.2.2 CBC-AES128.
    let key = h("2b7e151628aed2a6abf7158809cf4f3c")
    let plain = h(
        "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")

    @Test func ecbEncryptAndDecrypt() throws {
        let c = try BlockCipher(.aes128, key: key)
        let expected = h(
            "3ad77bb40d7a3660a89ecaf32466ef97 f5d3d58503b9699de785895a96fdbaaf"
                + "43b1cd7f598ece23881b00e3ed030688 7b0c785e27e8ad3f8223207104725dd4")
        #expect(try c.encryptECB(plain) == expected)
        #expect(try c.decryptECB(expected) == plain)
    }

    @Test func cbcEncryptAndDecrypt() throws {
        let c = try BlockCipher(.aes128, key: key)
        let iv = h("000102030405060708090a0b0c0d0e0f")
        let expected = h(
            "7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2"
                + "73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7")
        #expect(try c.encryptCBC(plain, iv: iv) == expected)
        #expect(try c.decryptCBC(expected, iv: iv) == plain)
        // CBC chains across calls when the last ciphertext block is the next IV (as DESFire's secure messaging uses).
        let first = try c.encryptCBC(Array(plain.prefix(32)), iv: iv)
        let second = try c.encryptCBC(Array(plain.suffix(32)), iv: Array(first.suffix(16)))
        #expect(first + second == expected)
    }
}

@Suite struct DESVectorTests {
    // FIPS PUB 81 (1980), Appendix B, Tables B1 (ECB) and B2 (CBC): key 0123456789abcdef,
    // plaintext "Now is the time for all ", CBC IV 1234567890abcdef.
    let key = h("0123456789abcdef")
    let plain = Array("Now is the time for all ".utf8)

    @Test func desECB() throws {
        let c = try BlockCipher(.des, key: key)
        let expected = h("3fa40e8a984d4815 6a271787ab8883f9 893d51ec4b563b53")
        #expect(try c.encryptECB(plain) == expected)
        #expect(try c.decryptECB(expected) == plain)
    }

    @Test func desCBC() throws {
        let c = try BlockCipher(.des, key: key)
        let iv = h("1234567890abcdef")
        let expected = h("e5c7cdde872bf27c 43e934008c389c0f 683788499a7c05f6")
        #expect(try c.encryptCBC(plain, iv: iv) == expected)
        #expect(try c.decryptCBC(expected, iv: iv) == plain)
    }

    @Test func desZeroKeyKnownAnswer() throws {
        // The all-zero key and block (NBS Special Publication 500-20 validation tables; also used by NIST CAVP).
        #expect(
            try BlockCipher(.des, key: h("0000000000000000")).encryptECB(h("0000000000000000"))
                == h("8ca64de9c1b123a7"))
    }

    @Test func threeKeyTDEA() throws {
        // NIST SP 800-67 Rev. 1 (2012), Appendix B: keys 0123456789ABCDEF 23456789ABCDEF01 456789ABCDEF0123,
        // plaintext "The qufck brown fox jump" (sic, as in the example), ECB.
        let c = try BlockCipher(.tdes3, key: h("0123456789ABCDEF 23456789ABCDEF01 456789ABCDEF0123"))
        let plain = Array("The qufck brown fox jump".utf8)
        let expected = h("A826FD8CE53B855F CCE21C8112256FE6 68D5C05DD9B6B900")
        #expect(try c.encryptECB(plain) == expected)
        #expect(try c.decryptECB(expected) == plain)
    }

    @Test func twoKeyTDEAIsThreeKeyWithK3EqualK1() throws {
        let k1 = h("0123456789ABCDEF")
        let k2 = h("23456789ABCDEF01")
        let block = h("5468652071756663")
        #expect(
            try BlockCipher(.tdes2, key: k1 + k2).encryptECB(block)
                == BlockCipher(.tdes3, key: k1 + k2 + k1).encryptECB(block))
        // K1 = K2 makes two-key 3DES single DES (E_K ∘ D_K ∘ E_K = E_K), which MIFARE's "DES keys" rely on.
        #expect(
            try BlockCipher(.tdes2, key: k1 + k1).encryptECB(block) == BlockCipher(.des, key: k1).encryptECB(block))
    }
}

@Suite struct CMACVectorTests {
    // NIST SP 800-38B (2005), Appendix D.1 (AES-128, same examples as RFC 4493 §4).
    @Test func aes128() throws {
        let m = try CMAC(.aes128, key: h("2b7e151628aed2a6abf7158809cf4f3c"))
        let msg = h(
            "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
                + "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")
        #expect(try m.tag([]) == h("bb1d6929e95937287fa37d129b756746"))
        #expect(try m.tag(Array(msg.prefix(16))) == h("070a16b46b4d4144f79bdd9dd04a287c"))
        #expect(try m.tag(Array(msg.prefix(40))) == h("dfa66747de9ae63030ca32611497c827"))
        #expect(try m.tag(msg) == h("51f0bebf7e3b9d92fc49741779363cfe"))
    }

    // NIST SP 800-38B (2005), Appendix D.4 (three-key TDEA) and D.5 (two-key TDEA), examples 5–12.
    let tdesMessage = h("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")

    @Test func threeKeyTDEA() throws {
        let m = try CMAC(.tdes3, key: h("8aa83bf8cbda1062 0bc1bf19fbb6cd58 bc313d4a371ca8b5"))
        #expect(try m.tag([]) == h("b7a688e122ffaf95"))
        #expect(try m.tag(Array(tdesMessage.prefix(8))) == h("8e8f293136283797"))
        #expect(try m.tag(Array(tdesMessage.prefix(20))) == h("743ddbe0ce2dc2ed"))
        #expect(try m.tag(tdesMessage) == h("33e6b1092400eae5"))
    }

    @Test func twoKeyTDEA() throws {
        let m = try CMAC(.tdes2, key: h("4cf15134a2850dd5 8a3d10ba80570d38"))
        #expect(try m.tag([]) == h("bd2ebf9a3ba00361"))
        #expect(try m.tag(Array(tdesMessage.prefix(8))) == h("4ff2ab813c53ce83"))
        #expect(try m.tag(Array(tdesMessage.prefix(20))) == h("62dd1b471902bd4e"))
        #expect(try m.tag(tdesMessage) == h("31b1e431dabc4eb8"))
    }
}

@Suite struct CryptoErrorTests {
    @Test func wrongKeyLengthSaysWhat() {
        #expect(throws: CryptoError(.invalidKeyLength, "a aes128 key has 16 bytes, this one has 15")) {
            try BlockCipher(.aes128, key: [UInt8](repeating: 0, count: 15))
        }
    }

    @Test func partialBlocksAndBadIVAreRefused() throws {
        let c = try BlockCipher(.tdes2, key: [UInt8](repeating: 1, count: 16))
        #expect(throws: CryptoError.self) { try c.encryptECB([1, 2, 3]) }
        #expect(throws: CryptoError(.invalidDataLength, "a tdes2 IV has 8 bytes, this one has 16")) {
            try c.encryptCBC([UInt8](repeating: 0, count: 8), iv: [UInt8](repeating: 0, count: 16))
        }
        #expect(try c.encryptECB([]) == [])
    }
}

@Suite struct RandomSourceTests {
    @Test func seededIsReproducibleAndSeedsDiffer() {
        let a = SeededRandomSource(seed: 7).bytes(20)
        #expect(a == SeededRandomSource(seed: 7).bytes(20))
        #expect(a != SeededRandomSource(seed: 8).bytes(20))
        // SplitMix64's first output for seed 0 is 0xE220A8397B1DCDAF (Steele et al. 2014 reference code output).
        #expect(SeededRandomSource(seed: 0).bytes(8) == [0xAF, 0xCD, 0x1D, 0x7B, 0x39, 0xA8, 0x20, 0xE2])
    }

    @Test func systemSourceFillsTheCount() {
        let s = SystemRandomSource()
        let a = s.bytes(33)
        #expect(a.count == 33)
        #expect(a != s.bytes(33))
    }
}
