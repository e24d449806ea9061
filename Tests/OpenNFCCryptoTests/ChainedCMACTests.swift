import Testing

@testable import OpenNFCCrypto

@Suite struct ChainedCMACTests {
    @Test(arguments: [CipherAlgorithm.aes128, .tdes2, .tdes3])
    func zeroIVIsStandardCMAC(algorithm: CipherAlgorithm) throws {
        // Against OpenSSL's EVP_MAC CMAC (itself pinned to NIST SP 800-38B in CMACVectorTests), every length class.
        let key = (0..<algorithm.keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let m = try CMAC(algorithm, key: key)
        let zero = [UInt8](repeating: 0, count: algorithm.blockLength)
        for length in [0, 1, 7, 8, 15, 16, 17, 31, 32, 40] {
            let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            #expect(try m.tag(data, iv: zero) == m.tag(data), "\(algorithm) \(length) bytes")
        }
    }

    @Test func sp800_38BExampleWithZeroIV() throws {
        // NIST SP 800-38B D.1 example 2 through the chained form.
        let m = try CMAC(.aes128, key: h("2b7e151628aed2a6abf7158809cf4f3c"))
        #expect(
            try m.tag(h("6bc1bee22e409f96e93d7e117393172a"), iv: [UInt8](repeating: 0, count: 16))
                == h("070a16b46b4d4144f79bdd9dd04a287c"))
    }

    @Test func anIVChangesTheTagAsAPrefixBlockWould() throws {
        // For a whole-block message, CMAC from IV v equals CMAC from 0 of (M1 ⊕ v) ‖ M2 …: the CBC identity.
        let m = try CMAC(.aes128, key: [UInt8](repeating: 7, count: 16))
        let v = (0..<16).map { UInt8($0) }
        let msg = (0..<32).map { UInt8(255 - $0) }
        var shifted = msg
        for i in 0..<16 { shifted[i] ^= v[i] }
        #expect(try m.tag(msg, iv: v) == m.tag(shifted))
    }

    @Test func desfireCRC32() {
        // CRC-32/JAMCRC check value (the catalogue's "123456789"): CBF43926h without the final inversion.
        #expect(DESFireCRC32.checksum(Array("123456789".utf8)) == 0x340B_C6D9)
        #expect(DESFireCRC32.bytes(Array("123456789".utf8)) == [0xD9, 0xC6, 0x0B, 0x34])
        #expect(DESFireCRC32.checksum([UInt8]()) == 0xFFFF_FFFF)
    }
}
