import Testing

@testable import OpenNFCCrypto

/// ECDSA through libcrypto (`EVP_PKEY`), raw `r ‖ s` signatures over unhashed messages, as NXP originality signatures
/// sign the UID.
@Suite struct ECDSATests {
    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            out.append(UInt8(s[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    /// The MIFARE Plus simulator's secp224r1 test key.
    static let privateKey = hex("7E7AA33598069A0C7C42B226E430A7DF0C9688242F9A05D994F94D5C")
    static let publicKey = hex(
        "04B9C50E29C783BEE7433CE7958EA870E08E4BC51D612D2441320838A21CFDFB4C84DD067413DEFFA271E313830094E80F8A7D8CC3992A94B3"
    )
    static let uid = hex("04505D1AB76880")

    @Test func signThenVerifyTheRawUID() throws {
        let ecdsa = try ECDSA(.secp224r1)
        let signature = try ecdsa.sign(Self.uid, privateKey: Self.privateKey)
        #expect(signature.count == 56)
        #expect(try ecdsa.verify(signature, of: Self.uid, publicKey: Self.publicKey))
        var flipped = signature
        flipped[10] ^= 0x01
        #expect(try !ecdsa.verify(flipped, of: Self.uid, publicKey: Self.publicKey))
        #expect(try !ecdsa.verify(signature, of: Self.uid.reversed(), publicKey: Self.publicKey))
    }

    /// A signature made by another implementation (Python `cryptography` 48, ECDSA over the 7 raw bytes as the
    /// digest, with the key above) verifies here.
    @Test func aSignatureFromAnotherImplementationVerifies() throws {
        let foreign = Self.hex(
            "9950D41901093D55D69AF19535234FFB387DCD525861C7399DDE80D4EE5907A70322F9A04C999036733033260AD61EA31F387DF898F52EB5"
        )
        #expect(try ECDSA(.secp224r1).verify(foreign, of: Self.uid, publicKey: Self.publicKey))
    }

    @Test func malformedKeysAndSignaturesAreErrorsThatSayWhat() throws {
        let ecdsa = try ECDSA(.secp224r1)
        #expect(throws: CryptoError.self) { try ecdsa.sign(Self.uid, privateKey: [1, 2, 3]) }
        #expect(throws: CryptoError.self) { try ecdsa.verify([0], of: Self.uid, publicKey: Self.publicKey) }
        #expect(throws: CryptoError.self) {
            try ecdsa.verify([UInt8](repeating: 1, count: 56), of: Self.uid, publicKey: [4])
        }
        // A point off the curve is refused by libcrypto.
        var off = Self.publicKey
        off[56] ^= 0x01
        #expect(throws: CryptoError.self) {
            try ecdsa.verify([UInt8](repeating: 1, count: 56), of: Self.uid, publicKey: off)
        }
    }

    @Test func derEncodingRoundTripsWithLeadingZerosAndHighBits() {
        let r = [UInt8](repeating: 0, count: 27) + [0x80]
        let s = [0xFF] + [UInt8](repeating: 0x11, count: 27)
        let der = ECDSA.der(r: r, s: s)
        #expect(der.prefix(4) == [0x30, UInt8(der.count - 2), 0x02, 0x02])
        #expect(ECDSA.raw(fromDER: der, scalarLength: 28) == r + s)
        #expect(ECDSA.raw(fromDER: [0x30, 0x03, 0x02, 0x01], scalarLength: 28) == nil)
    }
}
