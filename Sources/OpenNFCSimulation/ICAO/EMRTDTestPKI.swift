internal import OpenNFCCrypto

/// A test PKI of ICAO Doc 9303 Part 12: a self-signed Country Signing CA certificate and a Document Signer
/// certificate it signed, with both private keys. Every name says TEST, and the keys exist only to sign virtual
/// documents. `opennfc passport pki -o DIR` writes one; `tag new --pki DIR` signs under it; without it each
/// document gets its own.
///
/// | Certificate | Profile (Part 12 §7.1.1, RFC 5280) |
/// |---|---|
/// | CSCA | v3, self-signed, ECDSA P-256 with SHA-256; basicConstraints CA, pathLen 0 (critical); keyUsage keyCertSign + cRLSign (critical); subjectKeyIdentifier; valid 15 years from a year before issue |
/// | Document Signer | v3, signed by the CSCA; keyUsage digitalSignature (critical); authorityKeyIdentifier, subjectKeyIdentifier; valid 10 years from a year before issue |
package struct EMRTDTestPKI: Sendable, Hashable {
    /// DER X.509 certificate of the CSCA.
    package var cscaCertificate: [UInt8]
    /// DER PKCS #8 private key of the CSCA (TEST key).
    package var cscaPrivateKey: [UInt8]
    /// DER X.509 certificate of the Document Signer.
    package var documentSignerCertificate: [UInt8]
    /// DER PKCS #8 private key of the Document Signer (TEST key).
    package var documentSignerPrivateKey: [UInt8]

    package init(
        cscaCertificate: [UInt8], cscaPrivateKey: [UInt8], documentSignerCertificate: [UInt8],
        documentSignerPrivateKey: [UInt8]
    ) {
        self.cscaCertificate = cscaCertificate
        self.cscaPrivateKey = cscaPrivateKey
        self.documentSignerCertificate = documentSignerCertificate
        self.documentSignerPrivateKey = documentSignerPrivateKey
    }

    /// The files `opennfc passport pki -o DIR` writes and `tag new --pki DIR` reads: DER certificates and DER
    /// PKCS #8 private keys, every name saying TEST.
    package enum FileNames {
        package static let cscaCertificate = "TEST-csca.cer"
        package static let cscaPrivateKey = "TEST-csca-private-key.pk8"
        package static let documentSignerCertificate = "TEST-document-signer.cer"
        package static let documentSignerPrivateKey = "TEST-document-signer-private-key.pk8"
        package static let readme = "README-TEST-KEYS.txt"
    }

    /// A calendar day, for certificate validity.
    package struct Day: Sendable, Hashable {
        package var year: Int
        package var month: Int
        package var day: Int
        package init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// The same day `years` later (29 February becomes 28 February off leap years).
        func adding(years: Int) -> Day {
            let y = year + years
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
            return Day(year: y, month: month, day: month == 2 && day == 29 && !leap ? 28 : day)
        }

        /// CCYYMMDD.
        package var digits: String {
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            return "\(year)" + two(month) + two(day)
        }
    }

    /// A new PKI for country `country` (three letters, as in the MRZ; the certificates carry its first two as
    /// the ISO 3166 `C`), issued on `today`. With `expiredCSCA` the CSCA's validity ended five years before.
    package static func generate(country: String, today: Day, expiredCSCA: Bool = false) throws(ICAOCryptoError)
        -> EMRTDTestPKI
    {
        let csca = try ICAOCrypto.wrapping { () throws(CryptoError) in try PrivateKey.generateEC(.prime256v1) }
        let signer = try ICAOCrypto.wrapping { () throws(CryptoError) in try PrivateKey.generateEC(.prime256v1) }
        let c = String(country.prefix(2))
        let cscaName = X509.name(country: c, organisation: "OpenCoreNFC TEST", commonName: "TEST CSCA \(country)")
        let signerName = X509.name(country: c, organisation: "OpenCoreNFC TEST", commonName: "TEST DS \(country)")
        let cscaFrom = expiredCSCA ? today.adding(years: -20) : today.adding(years: -1)
        let cscaCertificate = try X509.certificate(
            serial: [0x01], issuer: cscaName, subject: cscaName, notBefore: cscaFrom,
            notAfter: cscaFrom.adding(years: 15), subjectKey: csca, signingKey: csca, authority: nil, isCA: true)
        let signerCertificate = try X509.certificate(
            serial: [0x02], issuer: cscaName, subject: signerName, notBefore: today.adding(years: -1),
            notAfter: today.adding(years: 9), subjectKey: signer, signingKey: csca, authority: csca, isCA: false)
        return EMRTDTestPKI(
            cscaCertificate: cscaCertificate, cscaPrivateKey: try ICAOCrypto.pkcs8(csca),
            documentSignerCertificate: signerCertificate, documentSignerPrivateKey: try ICAOCrypto.pkcs8(signer))
    }

    /// The same PKI with its Document Signer re-issued by another, freshly made CSCA that is not shipped: the
    /// `unknown-csca` fault.
    func reissuedByUnknownCSCA(country: String, today: Day) throws(ICAOCryptoError) -> EMRTDTestPKI {
        let other = try Self.generate(country: country, today: today)
        let stranger = try ICAOCrypto.wrapping { () throws(CryptoError) in try PrivateKey(pkcs8: other.cscaPrivateKey) }
        let signer = try ICAOCrypto.wrapping { () throws(CryptoError) in
            try PrivateKey(pkcs8: documentSignerPrivateKey)
        }
        let c = String(country.prefix(2))
        let strangerName = X509.name(
            country: c, organisation: "OpenCoreNFC TEST", commonName: "TEST UNKNOWN CSCA \(country)")
        let signerName = X509.name(country: c, organisation: "OpenCoreNFC TEST", commonName: "TEST DS \(country)")
        var out = self
        out.documentSignerCertificate = try X509.certificate(
            serial: [0x03], issuer: strangerName, subject: signerName, notBefore: today.adding(years: -1),
            notAfter: today.adding(years: 9), subjectKey: signer, signingKey: stranger, authority: stranger,
            isCA: false)
        return out
    }
}
