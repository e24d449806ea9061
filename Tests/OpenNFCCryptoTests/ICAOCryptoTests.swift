import Testing

@testable import OpenNFCCrypto

/// Digests, AES-192/256, the retail MAC, the ICAO KDF, EC arithmetic and RSA/EC keys through libcrypto.
@Suite struct DigestAndCipherVectorTests {
    // FIPS 180-4 examples (NIST CSRC "Example Algorithms"): the one-block message "abc".
    @Test func digestsOfABC() throws {
        let abc = Array("abc".utf8)
        #expect(try Digest.hash(.sha1, abc) == h("a9993e364706816aba3e25717850c26c9cd0d89d"))
        #expect(try Digest.hash(.sha224, abc) == h("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"))
        #expect(
            try Digest.hash(.sha256, abc) == h("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(try Digest.hash(.sha384, abc).prefix(8) == h("cb00753f45a35e8b")[...])
        #expect(try Digest.hash(.sha512, abc).prefix(8) == h("ddaf35a193617aba")[...])
        #expect(DigestAlgorithm(oid: "2.16.840.1.101.3.4.2.1") == .sha256)
    }

    // NIST SP 800-38A Appendix F.1.5 (ECB-AES256) and F.2.5 (CBC-AES256), first block; F.1.3 ECB-AES192.
    @Test func aes192And256() throws {
        let plain = h("6bc1bee22e409f96e93d7e117393172a")
        let k256 = h("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        #expect(try BlockCipher(.aes256, key: k256).encryptECB(plain) == h("f3eed1bdb5d2a03c064b5a7e3db181f8"))
        #expect(
            try BlockCipher(.aes256, key: k256).encryptCBC(plain, iv: h("000102030405060708090a0b0c0d0e0f"))
                == h("f58c4c04d6e5f1ba779eabfb5f7bfbd6"))
        let k192 = h("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b")
        #expect(try BlockCipher(.aes192, key: k192).encryptECB(plain) == h("bd334f1d6e45f25ff712a214571fa5cc"))
        // RFC 4493 has no AES-256 example; NIST SP 800-38B D.3 (CMAC-AES256, empty message).
        #expect(try CMAC(.aes256, key: k256).tag([]) == h("028962f61b7bf89efc6b551f4667d983"))
    }
}

/// ICAO Doc 9303 Part 11 Appendix D (worked example: Basic Access Control), D.2–D.3: the key seed from the MRZ
/// information `L898902C<369080619406236`, the derived keys, and the IFD's cryptogram and MAC.
@Suite struct ICAOKDFAndRetailMACTests {
    let seed = h("239AB9CB282DAF66231DC5A4DF6BFBAE")

    @Test func keySeedAndKeysOfAppendixD() throws {
        let mrz = Array("L898902C<369080619406236".utf8)
        #expect(Array(try Digest.hash(.sha1, mrz).prefix(16)) == seed)
        #expect(try ICAOKDF.derive(seed, counter: 1, for: .tdes2) == h("AB94FDECF2674FDFB9B391F85D7F76F2"))
        #expect(try ICAOKDF.derive(seed, counter: 2, for: .tdes2) == h("7962D9ECE03D1ACD4C76089DCE131543"))
    }

    @Test func externalAuthenticateCryptogramOfAppendixD() throws {
        let kenc = h("AB94FDECF2674FDFB9B391F85D7F76F2")
        let kmac = h("7962D9ECE03D1ACD4C76089DCE131543")
        let s = h("781723860C06C226" + "4608F91988702212" + "0B795240CB7049B01C19B33E32804F0B")
        let e = try BlockCipher(.tdes2, key: kenc).encryptCBC(s, iv: [UInt8](repeating: 0, count: 8))
        #expect(e == h("72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2"))
        #expect(try RetailMAC(key: kmac).tag(e) == h("5F1448EEA8AD90A7"))
        #expect(try RetailMAC(key: kmac).tag(padded: Padding.method2(e, blockLength: 8)) == h("5F1448EEA8AD90A7"))
    }

    // Part 11 Appendix D.4 (secure messaging): the session keys from K.IFD ⊕ K.IC.
    @Test func sessionKeysOfAppendixD() throws {
        let kseed = h("0036D272F5C350ACAC50C3F572D23600")
        #expect(try ICAOKDF.derive(kseed, counter: 1, for: .tdes2) == h("979EC13B1CBFE9DCD01AB0FED307EAE5"))
        #expect(try ICAOKDF.derive(kseed, counter: 2, for: .tdes2) == h("F1CB1F1FB5ADF208806B89DC579DC1F8"))
    }

    @Test func aesKeysUseSHA256AboveAES128() throws {
        let secret = h("28768D20701247DAE81804C9E780EDE582A9996DB4A315020B2733197DB84925")
        #expect(try ICAOKDF.derive(secret, counter: 1, for: .aes128) == h("F5F0E35C0D7161EE6724EE513A0D9A7F"))
        let k256 = try ICAOKDF.derive(secret, counter: 1, for: .aes256)
        #expect(k256 == (try Digest.hash(.sha256, secret + [0, 0, 0, 1])))
        #expect(
            try ICAOKDF.derive(secret, counter: 2, for: .aes192) == Array(k256.prefix(0))
                + (try Digest.hash(.sha256, secret + [0, 0, 0, 2])).prefix(24))
        #expect(throws: CryptoError.self) { try ICAOKDF.derive(secret, counter: 1, for: .des) }
    }

    @Test func paddingMethod2() {
        #expect(Padding.method2([1, 2], blockLength: 8) == [1, 2, 0x80, 0, 0, 0, 0, 0])
        #expect(Padding.method2([UInt8](repeating: 1, count: 8), blockLength: 8).count == 16)
        #expect(Padding.removeMethod2([1, 2, 0x80, 0, 0, 0, 0, 0], blockLength: 8) == [1, 2])
        #expect(Padding.removeMethod2([1, 2, 0, 0, 0, 0, 0, 0], blockLength: 8) == nil)
    }
}

/// ICAO Doc 9303 Part 11 Appendix G (worked example: PACE, ECDH Generic Mapping on brainpoolP256r1).
@Suite struct ECGroupPACEVectorTests {
    let mapSK = h("7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99")
    let chipMapPK = h(
        "04824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C54"
    )
    let s = h("3F00C4D39D153F2B2A214A078D899B22")
    let mappedG = h(
        "048CED63C91426D4F0EB1435E7CB1D74A46723A0AF21C89634F65A9AE87A9265E28C879506743F8611AC33645C5B985C80B5F09A0B83407C1B6A4D857AE76FE522"
    )

    @Test func mappingAndKeyAgreement() throws {
        let g = try ECGroup(.brainpoolP256r1)
        #expect(g.coordinateLength == 32 && g.orderLength == 32)
        #expect(
            try g.multiply(mapSK)
                == h(
                    "047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D"
                ))
        let hPoint = try g.sharedPoint(privateKey: mapSK, publicKey: chipMapPK)
        #expect(
            hPoint
                == h(
                    "0460332EF2450B5D247EF6D3868397D398852ED6E8CAF6FFEEF6BF85CA57057FD50840CA7415BAF3E43BD414D35AA4608B93A2CAF3A4E3EA4E82C9C13D03EB7181"
                ))
        #expect(try g.genericMapping(nonce: s, sharedPoint: hPoint) == mappedG)
        let ephSK = h("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595")
        #expect(
            try g.multiply(ephSK, mappedG)
                == h(
                    "042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB36462"
                ))
        let chipPK = h(
            "049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F094"
        )
        #expect(
            try g.sharedSecret(privateKey: ephSK, publicKey: chipPK)
                == h("28768D20701247DAE81804C9E780EDE582A9996DB4A315020B2733197DB84925"))
    }

    @Test func invalidPointsAreRefused() throws {
        let g = try ECGroup(.brainpoolP256r1)
        var bad = chipMapPK
        bad[40] ^= 1
        #expect(!g.isValidPoint(bad))
        #expect(throws: CryptoError.self) { try g.sharedSecret(privateKey: mapSK, publicKey: bad) }
        #expect(throws: CryptoError.self) { try g.sharedSecret(privateKey: mapSK, publicKey: [0x04, 1, 2]) }
    }

    @Test func explicitParametersMatchTheNamedCurve() throws {
        let named = try ECGroup(.brainpoolP256r1)
        let (p, a, b) = try named.curveParameters()
        let explicit = try ECGroup(
            p: p, a: a, b: b, generator: try named.generator, order: try named.order, cofactor: [1])
        #expect(explicit.name == nil)
        #expect(try explicit.multiply(mapSK) == (try named.multiply(mapSK)))
    }

    @Test func seededKeyPairsAreDeterministicAndOnTheCurve() throws {
        for curve in [NamedCurve.brainpoolP384r1, .brainpoolP512r1, .secp521r1, .prime256v1] {
            let g = try ECGroup(curve)
            let one = try g.generateKeyPair(random: SeededRandomSource(seed: 7))
            let two = try g.generateKeyPair(random: SeededRandomSource(seed: 7))
            #expect(one.privateKey == two.privateKey && one.publicKey == two.publicKey)
            #expect(g.isValidPoint(one.publicKey))
            #expect(one.privateKey.count == curve.scalarLength)
            #expect(NamedCurve(standardizedParameterID: curve.standardizedParameterID) == curve)
        }
    }
}

@Suite struct PublicKeyTests {
    @Test func rsaKeysSignVerifyAndRoundTripAsDER() throws {
        let key = try PrivateKey.generateRSA(bits: 1024)
        #expect(try key.kind == .rsa(bits: 1024))
        let again = try PrivateKey(pkcs8: try key.pkcs8)
        let pub = try PublicKey(spki: try again.publicKey.spki)
        let message = Array("LDS security object".utf8)
        for scheme in [SignatureScheme.rsaPKCS1(.sha256), .rsaPSS(.sha256, saltLength: 32), .rsaPKCS1(.sha1)] {
            let sig = try key.sign(message, scheme: scheme)
            #expect(try pub.verify(sig, of: message, scheme: scheme))
            #expect(try !pub.verify(sig, of: message + [0], scheme: scheme))
        }
        // The raw operations are inverse: (m^d)^e = m for m < n.
        var m = [UInt8](repeating: 0x33, count: 128)
        m[0] = 0x6A
        #expect(try pub.rsaPublicOperation(try key.rsaPrivateOperation(m)) == m)
    }

    @Test func ecKeysOnEveryCurveSignPlainAndDER() throws {
        for curve in [NamedCurve.brainpoolP256r1, .brainpoolP384r1, .secp384r1, .secp521r1] {
            let key = try PrivateKey.generateEC(curve)
            #expect(
                try key.kind == .ec(curve: curve.rawValue, bits: curve == .secp521r1 ? 521 : curve.scalarLength * 8))
            let pub = try PublicKey(spki: try key.publicKey.spki)
            let message: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
            let plain = try key.sign(message, scheme: .ecdsa(.sha256, plain: true))
            #expect(plain.count == 2 * curve.scalarLength)
            #expect(try pub.verify(plain, of: message, scheme: .ecdsa(.sha256, plain: true)))
            #expect(try !pub.verify(plain, of: message.reversed(), scheme: .ecdsa(.sha256, plain: true)))
            let der = try key.sign(message, scheme: .ecdsa(.sha384, plain: false))
            #expect(der.first == 0x30)
            #expect(try pub.verify(der, of: message, scheme: .ecdsa(.sha384, plain: false)))
            // The scalar and point agree with ECGroup's arithmetic, and ECDH through EVP_PKEY_derive agrees too.
            let scalar = try key.ecScalar(length: curve.scalarLength)
            let group = try ECGroup(curve)
            #expect(try group.multiply(scalar) == (try pub.ecPoint))
            let other = try PrivateKey.generateEC(curve)
            let viaDerive = try key.sharedSecret(with: try other.publicKey)
            #expect(viaDerive == (try group.sharedSecret(privateKey: scalar, publicKey: try other.publicKey.ecPoint)))
            let rebuilt = try PrivateKey(curve: curve, scalar: scalar)
            #expect(try rebuilt.publicKey.spki == (try pub.spki))
            #expect(try PublicKey(curve: curve, point: try pub.ecPoint).spki == (try pub.spki))
        }
    }

    @Test func malformedKeysAreErrors() throws {
        #expect(throws: CryptoError.self) { try PublicKey(spki: [0x30, 0x03, 0x02, 0x01, 0x00]) }
        #expect(throws: CryptoError.self) { try PrivateKey(pkcs8: [0x30, 0x00]) }
        let spki = try PrivateKey.generateEC(.prime256v1).publicKey.spki
        #expect(throws: CryptoError.self) { try PublicKey(spki: spki + [0]) }
    }
}
