internal import OpenNFCCrypto

/// X.509 v3 certificates of the test PKI (RFC 5280 §4.1; ICAO Doc 9303 Part 12 §7.1), signed with ECDSA-SHA-256
/// through `OpenNFCCrypto`.
enum X509 {
    static let ecdsaWithSHA256 = "1.2.840.10045.4.3.2"

    /// `Name ::= SEQUENCE OF RelativeDistinguishedName`: C (PrintableString), O, CN (UTF8String).
    static func name(country: String, organisation: String, commonName: String) -> [UInt8] {
        func rdn(_ oid: String, _ value: [UInt8]) -> [UInt8] {
            ICAODER.set([ICAODER.sequence([ICAODER.oid(oid), value])])
        }
        return ICAODER.sequence([
            rdn("2.5.4.6", ICAODER.printableString(country)),
            rdn("2.5.4.10", ICAODER.utf8String(organisation)),
            rdn("2.5.4.3", ICAODER.utf8String(commonName)),
        ])
    }

    /// The key identifier of RFC 5280 §4.2.1.2 method 1: SHA-1 of the subject public key's bits (the EC point).
    static func keyIdentifier(_ key: PrivateKey) throws(ICAOCryptoError) -> [UInt8] {
        try ICAOCrypto.sha1(try ICAOCrypto.wrapping { () throws(CryptoError) in try key.publicKey.ecPoint })
    }

    static func extensionField(_ oid: String, critical: Bool, _ value: [UInt8]) -> [UInt8] {
        ICAODER.sequence([ICAODER.oid(oid)] + (critical ? [ICAODER.true] : []) + [ICAODER.octetString(value)])
    }

    /// A signed certificate. `authority` is the issuer's key (nil: self-signed, no authorityKeyIdentifier).
    static func certificate(
        serial: [UInt8], issuer: [UInt8], subject: [UInt8], notBefore: EMRTDTestPKI.Day,
        notAfter: EMRTDTestPKI.Day, subjectKey: PrivateKey, signingKey: PrivateKey, authority: PrivateKey?,
        isCA: Bool
    ) throws(ICAOCryptoError) -> [UInt8] {
        let algorithm = ICAODER.sequence([ICAODER.oid(ecdsaWithSHA256)])
        var extensions: [[UInt8]] = []
        if isCA {
            // basicConstraints cA TRUE, pathLenConstraint 0; keyUsage keyCertSign (5) + cRLSign (6).
            extensions.append(
                extensionField("2.5.29.19", critical: true, ICAODER.sequence([ICAODER.true, ICAODER.integer(0)])))
            extensions.append(extensionField("2.5.29.15", critical: true, ICAODER.namedBits([5, 6])))
        } else {
            // keyUsage digitalSignature (0).
            extensions.append(extensionField("2.5.29.15", critical: true, ICAODER.namedBits([0])))
        }
        extensions.append(
            extensionField("2.5.29.14", critical: false, ICAODER.octetString(try keyIdentifier(subjectKey))))
        if let authority {
            let id = try keyIdentifier(authority)
            extensions.append(
                extensionField("2.5.29.35", critical: false, ICAODER.sequence([ICAODER.tlv(0x80, id)])))
        }
        let tbs = ICAODER.sequence([
            ICAODER.context(0, ICAODER.integer(2)),
            ICAODER.integer(unsigned: serial),
            algorithm,
            issuer,
            ICAODER.sequence([ICAODER.time(notBefore), ICAODER.time(notAfter)]),
            subject,
            try ICAOCrypto.spki(subjectKey),
            ICAODER.context(3, ICAODER.sequence(extensions)),
        ])
        let signature = try ICAOCrypto.wrapping { () throws(CryptoError) in
            try signingKey.sign(tbs, scheme: .ecdsa(.sha256, plain: false))
        }
        return ICAODER.sequence([tbs, algorithm, ICAODER.bitString(signature)])
    }
}
