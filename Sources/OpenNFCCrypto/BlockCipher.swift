/// The block ciphers MIFARE and ICAO Doc 9303 secure messaging use, all from OpenSSL 3's libcrypto (``LibCrypto``); no cipher is written here.
package enum CipherAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// Single DES (FIPS 46-3), 8-byte key (parity bits ignored), run as 3DES with K1 = K2 = K3.
    case des
    /// Two-key 3DES (NIST SP 800-67 keying option 2), 16-byte key K1 ‖ K2, run as 3DES with K3 = K1.
    case tdes2
    /// Three-key 3DES (NIST SP 800-67 keying option 1), 24-byte key.
    case tdes3
    /// AES-128 (FIPS 197), 16-byte key.
    case aes128
    /// AES-192 (FIPS 197), 24-byte key.
    case aes192
    /// AES-256 (FIPS 197), 32-byte key.
    case aes256

    /// The key length in bytes.
    package var keyLength: Int {
        switch self {
        case .des: 8
        case .tdes2, .aes128: 16
        case .tdes3, .aes192: 24
        case .aes256: 32
        }
    }

    /// Whether this is AES (16-byte blocks) rather than the DES family (8-byte blocks).
    package var isAES: Bool { self == .aes128 || self == .aes192 || self == .aes256 }

    /// The block length in bytes: 8 for the DES family, 16 for AES.
    package var blockLength: Int { isAES ? 16 : 8 }

    var ecbName: String { isAES ? "AES-\(keyLength * 8)-ECB" : "DES-EDE3-ECB" }
    var cbcName: String { isAES ? "AES-\(keyLength * 8)-CBC" : "DES-EDE3-CBC" }

    /// The key OpenSSL gets: DES and two-key 3DES are expanded to the three-key form.
    func expand(_ key: [UInt8]) -> [UInt8] {
        switch self {
        case .des: key + key + key
        case .tdes2: key + key.prefix(8)
        case .tdes3, .aes128, .aes192, .aes256: key
        }
    }
}

/// A keyed block cipher: ECB and CBC (with an explicit IV), encryption and decryption, whole blocks only (no
/// padding: MIFARE protocols pad themselves).
///
/// ```swift
/// let c = try BlockCipher(.tdes2, key: key)
/// let rndB = try c.decryptCBC(challenge, iv: [UInt8](repeating: 0, count: 8))
/// ```
package struct BlockCipher: Sendable {
    package let algorithm: CipherAlgorithm
    private let key: [UInt8]
    private let lib: LibCrypto

    /// A cipher for `algorithm` under `key`; throws when libcrypto is missing or the key length is wrong.
    package init(_ algorithm: CipherAlgorithm, key: [UInt8]) throws(CryptoError) {
        guard key.count == algorithm.keyLength else {
            throw CryptoError(
                .invalidKeyLength,
                "a \(algorithm.rawValue) key has \(algorithm.keyLength) bytes, this one has \(key.count)")
        }
        self.algorithm = algorithm
        self.key = algorithm.expand(key)
        self.lib = try LibCrypto.load()
    }

    /// ECB encryption of whole blocks.
    package func encryptECB(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(data, iv: nil, encrypt: true)
    }

    /// ECB decryption of whole blocks.
    package func decryptECB(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(data, iv: nil, encrypt: false)
    }

    /// CBC encryption (NIST SP 800-38A §6.2) of whole blocks from `iv`.
    package func encryptCBC(_ data: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(data, iv: iv, encrypt: true)
    }

    /// CBC decryption (NIST SP 800-38A §6.2) of whole blocks from `iv`.
    package func decryptCBC(_ data: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(data, iv: iv, encrypt: false)
    }

    private func run(_ data: [UInt8], iv: [UInt8]?, encrypt: Bool) throws(CryptoError) -> [UInt8] {
        let n = algorithm.blockLength
        guard data.count % n == 0 else {
            throw CryptoError(
                .invalidDataLength,
                "\(algorithm.rawValue) works on \(n)-byte blocks; \(data.count) bytes is not a whole number of them")
        }
        if let iv, iv.count != n {
            throw CryptoError(.invalidDataLength, "a \(algorithm.rawValue) IV has \(n) bytes, this one has \(iv.count)")
        }
        if data.isEmpty { return [] }
        return try lib.run(
            cipher: iv == nil ? algorithm.ecbName : algorithm.cbcName, key: key, iv: iv, encrypt: encrypt, data: data)
    }
}

/// CMAC (NIST SP 800-38B) over AES or the DES family, through OpenSSL 3's `EVP_MAC` "CMAC".
package struct CMAC: Sendable {
    package let algorithm: CipherAlgorithm
    private let key: [UInt8]
    /// The key as given (before DES-family expansion), for the chained form.
    let rawKey: [UInt8]
    private let lib: LibCrypto

    /// A CMAC under `key`; throws when libcrypto is missing or the key length is wrong.
    package init(_ algorithm: CipherAlgorithm, key: [UInt8]) throws(CryptoError) {
        guard key.count == algorithm.keyLength else {
            throw CryptoError(
                .invalidKeyLength,
                "a \(algorithm.rawValue) key has \(algorithm.keyLength) bytes, this one has \(key.count)")
        }
        self.algorithm = algorithm
        self.key = algorithm.expand(key)
        self.rawKey = key
        self.lib = try LibCrypto.load()
    }

    /// The whole tag (one block: 16 bytes for AES, 8 for the DES family) of `data` (any length, empty included).
    package func tag(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try lib.cmac(cipher: algorithm.cbcName, key: key, data: data)
    }
}
