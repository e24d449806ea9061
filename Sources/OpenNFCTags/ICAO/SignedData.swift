package import OpenNFCBytes
package import OpenNFCCrypto

/// An X.509 certificate (RFC 5280 §4.1), read far enough for passive authentication: the signed part as received,
/// names, validity, key, signature and the CA flag.
package struct Certificate: Sendable {
    package var encoded: [UInt8]
    package var tbs: [UInt8]
    package var serial: [UInt8]
    /// The issuer and subject Names as their DER encodings (compared byte for byte).
    package var issuer: [UInt8]
    package var subject: [UInt8]
    package var issuerText: String
    package var subjectText: String
    package var notBefore: DERTime
    package var notAfter: DERTime
    package var subjectPublicKeyInfo: [UInt8]
    package var signatureAlgorithm: DERNode
    package var signature: [UInt8]
    package var isCA: Bool

    package init(der bytes: [UInt8]) throws(PassportError) {
        try self.init(node: try LDS.malformed("a certificate") { () throws(DERError) in try DERNode.parse(bytes) })
    }

    package init(node: DERNode) throws(PassportError) {
        let parsed = try LDS.malformed("a certificate") { () throws(DERError) -> Certificate in
            var outer = try node.expect(0x30, "a Certificate").fields()
            let tbsNode = try outer.next(0x30, "tbsCertificate")
            let algorithm = try outer.next(0x30, "signatureAlgorithm")
            let signature = try outer.next(0x03, "signatureValue").bitStringBytes()
            try outer.end("the Certificate")
            var t = try tbsNode.fields()
            _ = t.optional(0xA0)
            let serial = try t.next(0x02, "serialNumber").integerBytes()
            _ = try t.next(0x30, "signature")
            let issuer = try t.next(0x30, "issuer")
            var validity = try t.next(0x30, "validity").fields()
            let notBefore = try validity.next(nil, "notBefore").time()
            let notAfter = try validity.next(nil, "notAfter").time()
            let subject = try t.next(0x30, "subject")
            let spki = try t.next(0x30, "subjectPublicKeyInfo")
            _ = t.optional(0x81)
            _ = t.optional(0x82)
            var isCA = false
            if let extensions = t.optional(0xA3) {
                for ext in try extensions.first(0x30, "extensions").children() {
                    var e = try ext.fields()
                    guard try e.next(0x06, "extnID").oid() == "2.5.29.19" else { continue }
                    _ = e.optional(0x01)
                    let value = try e.next(0x04, "extnValue").octetString()
                    var bc = try DERNode.parse(value).fields()
                    isCA = try bc.optional(0x01)?.boolean() ?? false
                }
            }
            return Certificate(
                encoded: node.encoded, tbs: tbsNode.encoded, serial: serial, issuer: issuer.encoded,
                subject: subject.encoded, issuerText: try Self.text(issuer), subjectText: try Self.text(subject),
                notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: spki.encoded,
                signatureAlgorithm: algorithm, signature: signature, isCA: isCA)
        }
        self = parsed
    }

    private init(
        encoded: [UInt8], tbs: [UInt8], serial: [UInt8], issuer: [UInt8], subject: [UInt8], issuerText: String,
        subjectText: String, notBefore: DERTime, notAfter: DERTime, subjectPublicKeyInfo: [UInt8],
        signatureAlgorithm: DERNode, signature: [UInt8], isCA: Bool
    ) {
        (self.encoded, self.tbs, self.serial, self.issuer, self.subject) = (encoded, tbs, serial, issuer, subject)
        (self.issuerText, self.subjectText, self.notBefore, self.notAfter) = (
            issuerText, subjectText, notBefore, notAfter
        )
        (self.subjectPublicKeyInfo, self.signatureAlgorithm, self.signature, self.isCA) =
            (subjectPublicKeyInfo, signatureAlgorithm, signature, isCA)
    }

    /// A Name as `C=DE, O=…, CN=…` (the attributes RFC 4514 §3 abbreviates; others by OID).
    static func text(_ name: DERNode) throws(DERError) -> String {
        let short = [
            "2.5.4.6": "C", "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.3": "CN", "2.5.4.5": "serialNumber",
            "2.5.4.7": "L", "2.5.4.8": "ST",
        ]
        var parts: [String] = []
        for rdn in try name.children() {
            for attribute in try rdn.children() {
                var f = try attribute.fields()
                let oid = try f.next(0x06, "an attribute type").oid()
                let value = (try? f.next(nil, "an attribute value").string()) ?? "?"
                parts.append("\(short[oid] ?? oid)=\(value)")
            }
        }
        return parts.joined(separator: ", ")
    }

    /// Whether `issuerKey` signed this certificate.
    package func isSigned(by issuerKey: PublicKey) throws(PassportError) -> Bool {
        let scheme = try SignatureAlgorithms.scheme(signatureAlgorithm, digest: nil)
        do { return try issuerKey.verify(signature, of: tbs, scheme: scheme) } catch {
            throw PassportError(.malformed, "the certificate's signature cannot be checked: \(error)")
        }
    }
}

/// Signature AlgorithmIdentifiers (RFC 4055, RFC 5758, BSI TR-03111 §5.2.1) as ``SignatureScheme``s.
package enum SignatureAlgorithms {
    static let rsa: [String: DigestAlgorithm] = [
        "1.2.840.113549.1.1.5": .sha1, "1.2.840.113549.1.1.14": .sha224, "1.2.840.113549.1.1.11": .sha256,
        "1.2.840.113549.1.1.12": .sha384, "1.2.840.113549.1.1.13": .sha512,
    ]
    static let ecdsa: [String: DigestAlgorithm] = [
        "1.2.840.10045.4.1": .sha1, "1.2.840.10045.4.3.1": .sha224, "1.2.840.10045.4.3.2": .sha256,
        "1.2.840.10045.4.3.3": .sha384, "1.2.840.10045.4.3.4": .sha512,
    ]
    /// ecdsa-plain-SHAx of BSI TR-03111 (`0.4.0.127.0.7.1.1.4.1.n`).
    static let plain: [String: DigestAlgorithm] = [
        "0.4.0.127.0.7.1.1.4.1.1": .sha1, "0.4.0.127.0.7.1.1.4.1.2": .sha224, "0.4.0.127.0.7.1.1.4.1.3": .sha256,
        "0.4.0.127.0.7.1.1.4.1.4": .sha384, "0.4.0.127.0.7.1.1.4.1.5": .sha512,
    ]

    /// The scheme of an AlgorithmIdentifier; `digest` is the SignerInfo's digest algorithm, used when the OID is
    /// plain rsaEncryption (as some SODs have it).
    package static func scheme(_ algorithm: DERNode, digest: DigestAlgorithm?) throws(PassportError) -> SignatureScheme
    {
        let found = try LDS.malformed("a signature algorithm") { () throws(DERError) -> SignatureScheme? in
            var f = try algorithm.fields()
            let oid = try f.next(0x06, "the algorithm").oid()
            if let d = rsa[oid] { return .rsaPKCS1(d) }
            if let d = ecdsa[oid] { return .ecdsa(d, plain: false) }
            if let d = plain[oid] { return .ecdsa(d, plain: true) }
            if oid == "1.2.840.113549.1.1.1", let digest { return .rsaPKCS1(digest) }
            guard oid == "1.2.840.113549.1.1.10" else { return nil }
            // RSASSA-PSS-params (RFC 4055 §3.1): [0] hash (SHA-1), [1] MGF (MGF1 with the hash), [2] salt (20).
            var hash = DigestAlgorithm.sha1
            var salt = 20
            if let params = f.optional(0x30) {
                for p in try params.children() {
                    switch p.tag {
                    case 0xA0:
                        let id = try p.first(0x30, "hashAlgorithm").first(0x06, "the hash").oid()
                        guard let d = DigestAlgorithm(oid: id) else { return nil }
                        hash = d
                    case 0xA2: salt = try p.first(0x02, "saltLength").int()
                    default: continue
                    }
                }
            }
            return .rsaPSS(hash, saltLength: salt)
        }
        guard let found else {
            let oid = (try? algorithm.first(0x06, "").oid()) ?? "?"
            throw PassportError(.unsupported, "signature algorithm \(oid) is not supported")
        }
        return found
    }
}

/// CMS SignedData (RFC 5652 §5) inside a ContentInfo: EF.SOD's (`77 { ContentInfo }`, Part 10 §4.6.2) and a CSCA
/// master list's (Part 12 §8).
package struct SignedData: Sendable {
    package var contentType: String
    /// The encapsulated content's octets (the LDS Security Object, the CscaMasterList).
    package var content: [UInt8]
    package var certificates: [Certificate]
    package var digestAlgorithm: DigestAlgorithm
    package var signatureAlgorithm: DERNode
    package var signature: [UInt8]
    /// The signed attributes as received with their `A0` tag, nil when absent.
    package var signedAttributes: DERNode?
    package var signerSerial: [UInt8]?
    package var signerIssuer: [UInt8]?
    package var signerKeyIdentifier: [UInt8]?

    package init(contentInfo bytes: [UInt8], name: String) throws(PassportError) {
        self = try LDS.malformed(name) { () throws(DERError) -> SignedData in
            var ci = try DERNode.parse(bytes).expect(0x30, "the ContentInfo").fields()
            guard try ci.next(0x06, "contentType").oid() == "1.2.840.113549.1.7.2" else {
                throw DERError("the ContentInfo is not signedData (1.2.840.113549.1.7.2)", at: 0)
            }
            var sd = try ci.next(0xA0, "content").first(0x30, "SignedData").fields()
            _ = try sd.next(0x02, "version")
            _ = try sd.next(0x31, "digestAlgorithms")
            var encap = try sd.next(0x30, "encapContentInfo").fields()
            let type = try encap.next(0x06, "eContentType").oid()
            let content = try encap.next(0xA0, "eContent").first(0x04, "the content octets").octetString()
            var certificates: [Certificate] = []
            if let certs = sd.optional(0xA0) {
                for c in try certs.children() where c.tag == 0x30 {
                    do throws(PassportError) { certificates.append(try Certificate(node: c)) } catch {
                        throw DERError("a certificate: \(error.reason)", at: c.offset)
                    }
                }
            }
            _ = sd.optional(0xA1)
            let signers = try sd.next(0x31, "signerInfos").children()
            guard let signer = signers.first else { throw DERError("SignedData has no SignerInfo", at: 0) }
            var si = try signer.fields()
            _ = try si.next(0x02, "the SignerInfo version")
            let sid = try si.next(nil, "sid")
            var serial: [UInt8]?
            var issuer: [UInt8]?
            var ski: [UInt8]?
            if sid.tag == 0x30 {
                var s = try sid.fields()
                issuer = try s.next(0x30, "the signer's issuer").encoded
                serial = try s.next(0x02, "the signer's serial number").integerBytes()
            } else if sid.tag == 0x80 {
                ski = sid.value
            }
            let digestOID = try si.next(0x30, "digestAlgorithm").first(0x06, "the digest").oid()
            guard let digest = DigestAlgorithm(oid: digestOID) else {
                throw DERError("digest algorithm \(digestOID) is not supported", at: signer.offset)
            }
            let attributes = si.optional(0xA0)
            let algorithm = try si.next(0x30, "signatureAlgorithm")
            let signature = try si.next(0x04, "signature").octetString()
            var out = SignedData(
                contentType: type, content: content, certificates: certificates, digestAlgorithm: digest,
                signatureAlgorithm: algorithm, signature: signature, signedAttributes: attributes)
            (out.signerSerial, out.signerIssuer, out.signerKeyIdentifier) = (serial, issuer, ski)
            return out
        }
    }

    private init(
        contentType: String, content: [UInt8], certificates: [Certificate], digestAlgorithm: DigestAlgorithm,
        signatureAlgorithm: DERNode, signature: [UInt8], signedAttributes: DERNode?
    ) {
        (self.contentType, self.content, self.certificates) = (contentType, content, certificates)
        (self.digestAlgorithm, self.signatureAlgorithm, self.signature) = (
            digestAlgorithm, signatureAlgorithm, signature
        )
        self.signedAttributes = signedAttributes
    }

    /// The certificate the SignerInfo names (issuer and serial, or the first one when it names none we hold).
    package var signerCertificate: Certificate? {
        certificates.first { $0.serial == signerSerial && $0.issuer == signerIssuer } ?? certificates.first
    }

    /// Checks the signature (RFC 5652 §5.4): with signed attributes, their messageDigest must equal the content's
    /// digest and the signature covers the attributes re-tagged as a SET (`31`) from the bytes received; without,
    /// it covers the content. Returns nil when good, else the reason.
    package func signatureProblem(key: PublicKey) throws(PassportError) -> String? {
        let scheme = try SignatureAlgorithms.scheme(signatureAlgorithm, digest: digestAlgorithm)
        var signed = content
        if let attributes = signedAttributes {
            let digest: [UInt8]
            do { digest = try digestAlgorithm.hash(content) } catch { throw PassportError(.unsupported, "\(error)") }
            let messageDigest = try LDS.malformed("the signed attributes") { () throws(DERError) -> [UInt8]? in
                for attribute in try attributes.children() {
                    var f = try attribute.fields()
                    guard try f.next(0x06, "attrType").oid() == "1.2.840.113549.1.9.4" else { continue }
                    return try f.next(0x31, "attrValues").first(0x04, "the message digest").octetString()
                }
                return nil
            }
            guard let messageDigest else { return "the signed attributes have no messageDigest" }
            guard messageDigest == digest else { return "the messageDigest attribute does not match the content" }
            signed = attributes.encoded
            signed[0] = 0x31
        }
        do {
            return try key.verify(signature, of: signed, scheme: scheme) ? nil : "the signature does not verify"
        } catch {
            return "the signature cannot be checked: \(error)"
        }
    }
}

/// The LDS Security Object (Part 10 §4.6.2.2): the hash algorithm and each data group's hash.
package struct LDSSecurityObject: Sendable {
    package var hashAlgorithm: DigestAlgorithm
    package var hashes: [Int: [UInt8]]

    package init(_ content: [UInt8]) throws(PassportError) {
        self = try LDS.malformed("the LDS Security Object") { () throws(DERError) -> LDSSecurityObject in
            var f = try DERNode.parse(content).expect(0x30, "LDSSecurityObject").fields()
            _ = try f.next(0x02, "version")
            let oid = try f.next(0x30, "hashAlgorithm").first(0x06, "the hash").oid()
            guard let algorithm = DigestAlgorithm(oid: oid) else {
                throw DERError("hash algorithm \(oid) is not supported", at: 0)
            }
            var hashes: [Int: [UInt8]] = [:]
            for entry in try f.next(0x30, "dataGroupHashValues").children() {
                var e = try entry.fields()
                let n = try e.next(0x02, "dataGroupNumber").int()
                hashes[n] = try e.next(0x04, "dataGroupHashValue").octetString()
            }
            return LDSSecurityObject(hashAlgorithm: algorithm, hashes: hashes)
        }
    }

    private init(hashAlgorithm: DigestAlgorithm, hashes: [Int: [UInt8]]) {
        self.hashAlgorithm = hashAlgorithm
        self.hashes = hashes
    }
}
