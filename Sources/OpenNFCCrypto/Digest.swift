/// The hash functions of FIPS 180-4 that ICAO Doc 9303 and X.509 use, through libcrypto (`EVP_Digest`).
package enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha1, sha224, sha256, sha384, sha512

    /// The digest length in bytes.
    package var length: Int {
        switch self {
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The OpenSSL 3 name (`EVP_MD_fetch`).
    var opensslName: String {
        switch self {
        case .sha1: "SHA1"
        case .sha224: "SHA2-224"
        case .sha256: "SHA2-256"
        case .sha384: "SHA2-384"
        case .sha512: "SHA2-512"
        }
    }

    /// The algorithm's object identifier (NIST CSOR; RFC 3279 §2.2 for SHA-1), dotted.
    package var oid: String {
        switch self {
        case .sha1: "1.3.14.3.2.26"
        case .sha224: "2.16.840.1.101.3.4.2.4"
        case .sha256: "2.16.840.1.101.3.4.2.1"
        case .sha384: "2.16.840.1.101.3.4.2.2"
        case .sha512: "2.16.840.1.101.3.4.2.3"
        }
    }

    /// The algorithm named by a dotted object identifier, or nil.
    package init?(oid: String) {
        guard let a = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = a
    }

    /// The digest of `data`.
    package func hash(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try Digest.hash(self, data)
    }
}

/// One-shot message digests.
package enum Digest {
    /// The `algorithm` digest of `data`.
    package static func hash(_ algorithm: DigestAlgorithm, _ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        let lib = try LibCryptoPK.load()
        guard let md = lib.digests[algorithm.opensslName] else {
            throw CryptoError(.libraryUnavailable, "libcrypto has no \(algorithm.opensslName)")
        }
        var out = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { d in
            out.withUnsafeMutableBufferPointer { o in
                lib.digest(d.baseAddress, d.count, o.baseAddress, &length, md, nil)
            }
        }
        guard ok == 1 else { throw CryptoError(.operationFailed, "EVP_Digest \(algorithm.opensslName) failed") }
        return Array(out.prefix(Int(length)))
    }
}
