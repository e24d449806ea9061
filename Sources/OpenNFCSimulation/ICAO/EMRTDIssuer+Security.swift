internal import OpenNFCCrypto

/// The security files the issuer writes (ICAO Doc 9303 Part 10 §4.7.14–15, §4.6.2; Part 11 §9.2; Part 12 §5 and
/// RFC 5652 for the SOD's CMS).
extension EMRTDIssuer {
    static let idPKECDH = "0.4.0.127.0.7.2.2.1.2"
    static let idActiveAuthentication = "2.23.136.1.1.5"
    static let ecdsaPlainSHA256 = "0.4.0.127.0.7.1.1.4.1.3"
    static let sha256 = "2.16.840.1.101.3.4.2.1"
    static let signedData = "1.2.840.113549.1.7.2"
    static let ldsSecurityObject = "2.23.136.1.1.1"

    /// DG14 `6E { SecurityInfos }`: the Chip Authentication public key (id-PK-ECDH) and protocol
    /// (id-CA-ECDH-<cipher>, version 1), the PACEInfos of EF.CardAccess, and for an EC Active Authentication key the
    /// ActiveAuthenticationInfo (ecdsa-plain-SHA256).
    static func dataGroup14(
        chipAuthenticationKey: PrivateKey, cipher: SMCipherName, pace: [PACEProtocol], ecActiveAuthentication: Bool
    ) throws(ICAOCryptoError) -> [UInt8] {
        var infos: [[UInt8]] = [
            ICAODER.sequence([ICAODER.oid(idPKECDH), try ICAOCrypto.spki(chipAuthenticationKey)]),
            ICAODER.sequence([ICAODER.tlv(0x06, EMRTDTag.idCAECDH + [cipher.oidArc]), ICAODER.integer(1)]),
        ]
        infos += pace.map(LDSContents.paceInfo)
        if ecActiveAuthentication {
            infos.append(
                ICAODER.sequence([
                    ICAODER.oid(idActiveAuthentication), ICAODER.integer(1), ICAODER.oid(ecdsaPlainSHA256),
                ]))
        }
        return LDSTLV.encode(0x6E, ICAODER.set(infos))
    }

    /// DG15 `6F { SubjectPublicKeyInfo }` of the Active Authentication key.
    static func dataGroup15(_ key: PrivateKey) throws(ICAOCryptoError) -> [UInt8] {
        LDSTLV.encode(0x6F, try ICAOCrypto.spki(key))
    }

    /// The issuer name and serial number of a DER certificate (RFC 5280 §4.1: tbsCertificate's second and fourth
    /// fields), for the SignerInfo's IssuerAndSerialNumber.
    static func issuerAndSerial(_ certificate: [UInt8]) -> [UInt8]? {
        guard let cert = LDSTLV.element(certificate, at: 0),
            let tbs = LDSTLV.element(certificate, at: cert.value.lowerBound),
            let version = LDSTLV.element(certificate, at: tbs.value.lowerBound), version.tag == 0xA0,
            let serial = LDSTLV.element(certificate, at: version.value.upperBound), serial.tag == 0x02,
            let algorithm = LDSTLV.element(certificate, at: serial.value.upperBound),
            let issuer = LDSTLV.element(certificate, at: algorithm.value.upperBound), issuer.tag == 0x30
        else { return nil }
        let serialStart = version.value.upperBound
        let issuerStart = algorithm.value.upperBound
        return ICAODER.sequence([
            Array(certificate[issuerStart..<issuer.value.upperBound]),
            Array(certificate[serialStart..<serial.value.upperBound]),
        ])
    }

    /// EF.SOD `77 { ContentInfo { id-signedData, [0] SignedData v3 } }` over the LDSSecurityObject v1 (SHA-256 of
    /// every data group, LDS 1.7), signed by the Document Signer with ECDSA-SHA-256 over the DER signed attributes
    /// (contentType, messageDigest), the DS certificate included. `corruptSignature` flips the signature's last
    /// byte (the `bad-sod-signature` fault).
    static func sod(dataGroups: [Int: [UInt8]], pki: EMRTDTestPKI, corruptSignature: Bool) throws(ICAOCryptoError)
        -> [UInt8]
    {
        let sha256Algorithm = ICAODER.sequence([ICAODER.oid(sha256)])
        var hashes: [[UInt8]] = []
        for n in dataGroups.keys.sorted() {
            let h = try ICAOCrypto.hash(.sha256, dataGroups[n] ?? [])
            hashes.append(ICAODER.sequence([ICAODER.integer(n), ICAODER.octetString(h)]))
        }
        let securityObject = ICAODER.sequence([
            ICAODER.integer(1), sha256Algorithm, ICAODER.sequence(hashes),
            ICAODER.sequence([ICAODER.printableString("0107"), ICAODER.printableString("040000")]),
        ])
        let attributes = [
            ICAODER.sequence([ICAODER.oid("1.2.840.113549.1.9.3"), ICAODER.set([ICAODER.oid(ldsSecurityObject)])]),
            ICAODER.sequence([
                ICAODER.oid("1.2.840.113549.1.9.4"),
                ICAODER.set([ICAODER.octetString(try ICAOCrypto.hash(.sha256, securityObject))]),
            ]),
        ]
        let signedAttributes = ICAODER.set(attributes)  // signed as a SET (tag 31), sent as [0] IMPLICIT
        var signature = try ICAOCrypto.wrapping { () throws(CryptoError) in
            try PrivateKey(pkcs8: pki.documentSignerPrivateKey).sign(
                signedAttributes, scheme: .ecdsa(.sha256, plain: false))
        }
        if corruptSignature { signature[signature.count - 1] ^= 0x01 }
        guard let sid = issuerAndSerial(pki.documentSignerCertificate) else {
            throw ICAOCryptoError("the Document Signer certificate is not a DER X.509 certificate")
        }
        let implicitAttributes = [0xA0] + Array(signedAttributes.dropFirst())
        let info = ICAODER.sequence([
            ICAODER.integer(1), sid, sha256Algorithm, implicitAttributes,
            ICAODER.sequence([ICAODER.oid(X509.ecdsaWithSHA256)]), ICAODER.octetString(signature),
        ])
        let content = ICAODER.sequence([
            ICAODER.integer(3), ICAODER.set([sha256Algorithm]),
            ICAODER.sequence([ICAODER.oid(ldsSecurityObject), ICAODER.context(0, ICAODER.octetString(securityObject))]),
            ICAODER.context(0, pki.documentSignerCertificate),
            ICAODER.set([info]),
        ])
        return LDSTLV.encode(0x77, ICAODER.sequence([ICAODER.oid(signedData), ICAODER.context(0, content)]))
    }
}
