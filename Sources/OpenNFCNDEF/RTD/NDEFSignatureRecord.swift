/// The Signature record, well-known type `Sig` (NFC Forum Signature RTD 2.0 §3): decoded and structurally checked.
/// Verifying the signature (which records it covers, the cryptography) is out of scope: the codec has no crypto.
///
/// Payload: version `0x20`; signature field = [URI-present bit 7 | signature type bits 6–0], hash type, 2-byte
/// length, then the signature or its URI (UTF-8); certificate field = [URI-present bit 7 | format bits 6–4 |
/// count bits 3–0], each certificate as 2-byte length + bytes, then, if the URI bit is set, 2-byte length + URI.
///
/// | Check (strict) | Rule |
/// |---|---|
/// | Version | `0x20` (2.0) |
/// | Signature type | 0x00 (no signature: a marker, empty signature field) … 0x0B |
/// | Hash type | 0x02 (SHA-256) |
/// | Certificate format | 0 X.509, 1 M2M |
/// | Lengths | every field inside the payload, nothing after the certificate field |
package struct NDEFSignatureRecord: NDEFTypedRecord {
    package var version: UInt8
    package var signatureType: UInt8
    package var hashType: UInt8
    /// The signature, when it is carried in the record.
    package var signature: [UInt8]
    /// Where the signature is, when the record carries a URI instead.
    package var signatureURI: String?
    package var certificateFormat: UInt8
    package var certificates: [[UInt8]]
    package var certificateURI: String?

    package init(
        signatureType: UInt8, hashType: UInt8 = 0x02, signature: [UInt8] = [], signatureURI: String? = nil,
        certificateFormat: UInt8 = 0, certificates: [[UInt8]] = [], certificateURI: String? = nil
    ) {
        self.version = 0x20
        self.signatureType = signatureType
        self.hashType = hashType
        self.signature = signature
        self.signatureURI = signatureURI
        self.certificateFormat = certificateFormat
        self.certificates = certificates
        self.certificateURI = certificateURI
    }

    /// Names of signature types 0x00–0x0B (Signature RTD 2.0 Table 3).
    package static let signatureTypeNames: [String] = [
        "none", "RSASSA-PSS-1024", "RSASSA-PKCS1-v1_5-1024", "DSA-1024", "ECDSA-P192", "RSASSA-PSS-2048",
        "RSASSA-PKCS1-v1_5-2048", "DSA-2048", "ECDSA-P224", "ECDSA-K233", "ECDSA-B233", "ECDSA-P256",
    ]

    package var signatureTypeName: String {
        Int(signatureType) < Self.signatureTypeNames.count ? Self.signatureTypeNames[Int(signatureType)] : "reserved"
    }
    package var hashTypeName: String { hashType == 0x02 ? "SHA-256" : "reserved" }
    package var certificateFormatName: String {
        switch certificateFormat {
        case 0: "X.509"
        case 1: "M2M"
        default: "reserved"
        }
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        try record.expectWellKnown("Sig")
        var c = PayloadCursor(record, code: .invalidSignature)
        func check(_ ok: Bool, _ at: Int, _ detail: String) throws(NDEFError) {
            if !ok { try violate(.invalidSignature, at: at, options, &repairs, detail: detail, action: "accepted it") }
        }
        var at = c.offset
        version = try c.byte()
        try check(version == 0x20, at, "version is not 2.0")
        at = c.offset
        let sig = try c.byte()
        signatureType = sig & 0x7F
        try check(Int(signatureType) < Self.signatureTypeNames.count, at, "reserved signature type")
        at = c.offset
        hashType = try c.byte()
        try check(hashType == 0x02 || signatureType == 0, at, "unknown hash type")
        at = c.offset
        let n = Int(try c.uint16())
        let field = try c.take(n)
        if sig & 0x80 != 0 {
            signature = []
            signatureURI = try decodeUTF8(
                field, at: at + 2, code: .invalidSignature, options: options, repairs: &repairs)
        } else {
            signature = Array(field)
            signatureURI = nil
        }
        try check(signatureType != 0 || n == 0, at, "signature type 0 with a signature")
        at = c.offset
        let cert = try c.byte()
        certificateFormat = cert >> 4 & 0x07
        try check(certificateFormat <= 1, at, "reserved certificate format")
        certificates = []
        for _ in 0..<Int(cert & 0x0F) {
            let len = Int(try c.uint16())
            certificates.append(Array(try c.take(len)))
        }
        if cert & 0x80 != 0 {
            let len = Int(try c.uint16())
            let uriOffset = c.offset
            certificateURI = try decodeUTF8(
                try c.take(len), at: uriOffset, code: .invalidSignature, options: options, repairs: &repairs)
        } else {
            certificateURI = nil
        }
        try check(c.isAtEnd, c.offset, "bytes after the certificate field")
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        var p: [UInt8] = [version, (signatureURI != nil ? 0x80 : 0) | signatureType & 0x7F, hashType]
        let field = signatureURI.map { Array($0.utf8) } ?? signature
        guard field.count <= 0xFFFF, certificates.count <= 15, certificates.allSatisfy({ $0.count <= 0xFFFF }) else {
            throw NDEFError(.invalidSignature, at: 0, detail: "field too long")
        }
        p += [UInt8(field.count >> 8), UInt8(field.count & 0xFF)] + field
        p.append((certificateURI != nil ? 0x80 : 0) | (certificateFormat & 0x07) << 4 | UInt8(certificates.count))
        for cert in certificates { p += [UInt8(cert.count >> 8), UInt8(cert.count & 0xFF)] + cert }
        if let certificateURI {
            let u = Array(certificateURI.utf8)
            guard u.count <= 0xFFFF else { throw NDEFError(.invalidSignature, at: 0, detail: "URI too long") }
            p += [UInt8(u.count >> 8), UInt8(u.count & 0xFF)] + u
        }
        return .wellKnown("Sig", payload: p)
    }
}
