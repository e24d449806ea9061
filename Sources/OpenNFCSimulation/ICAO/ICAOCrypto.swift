internal import OpenNFCCrypto

/// The cipher of an eMRTD secure messaging session: two-key 3DES (BAC, PACE and CA with 3DES) or AES-128/192/256
/// (ICAO Doc 9303 Part 11 §9.8.6–§9.8.7).
typealias SMCipher = CipherAlgorithm

/// A cryptographic operation of the virtual chip failed inside libcrypto (or libcrypto is missing).
package struct ICAOCryptoError: Error, Sendable, CustomStringConvertible {
    package var reason: String
    package var description: String { reason }
    init(_ error: CryptoError) { reason = "\(error)" }
    init(_ reason: String) { self.reason = reason }
}

/// The chip's calls into `OpenNFCCrypto` (libcrypto): every cipher, MAC, digest and key agreement the eMRTD
/// protocols use, named as ICAO Doc 9303 Part 11 names them. Nothing cryptographic is computed here.
enum ICAOCrypto {
    static func pad(_ data: [UInt8], block: Int) -> [UInt8] { Padding.method2(data, blockLength: block) }

    static func unpad(_ data: [UInt8], block: Int) -> [UInt8]? { Padding.removeMethod2(data, blockLength: block) }

    static func sha1(_ data: [UInt8]) throws(ICAOCryptoError) -> [UInt8] {
        try wrapping { () throws(CryptoError) in try Digest.hash(.sha1, data) }
    }

    static func hash(_ algorithm: DigestAlgorithm, _ data: [UInt8]) throws(ICAOCryptoError) -> [UInt8] {
        try wrapping { () throws(CryptoError) in try Digest.hash(algorithm, data) }
    }

    /// KDF of Part 11 §9.7.1: counter 1 the encryption key, 2 the MAC key, 3 PACE's Kπ.
    static func kdf(_ secret: [UInt8], _ counter: UInt32, _ cipher: SMCipher) throws(ICAOCryptoError) -> [UInt8] {
        try wrapping { () throws(CryptoError) in try ICAOKDF.derive(secret, counter: counter, for: cipher) }
    }

    static func encryptCBC(_ cipher: SMCipher, key: [UInt8], iv: [UInt8], _ data: [UInt8]) throws(ICAOCryptoError)
        -> [UInt8]
    {
        try wrapping { () throws(CryptoError) in try BlockCipher(cipher, key: key).encryptCBC(data, iv: iv) }
    }

    static func decryptCBC(_ cipher: SMCipher, key: [UInt8], iv: [UInt8], _ data: [UInt8]) throws(ICAOCryptoError)
        -> [UInt8]
    {
        try wrapping { () throws(CryptoError) in try BlockCipher(cipher, key: key).decryptCBC(data, iv: iv) }
    }

    /// One block encrypted in ECB mode (the AES secure messaging IV, E(KSenc, SSC)).
    static func encryptBlock(_ cipher: SMCipher, key: [UInt8], _ block: [UInt8]) throws(ICAOCryptoError) -> [UInt8] {
        try wrapping { () throws(CryptoError) in try BlockCipher(cipher, key: key).encryptECB(block) }
    }

    /// The 8-byte MAC of already padded data: the retail MAC (ISO/IEC 9797-1 algorithm 3) for 3DES, CMAC truncated
    /// to 8 bytes for AES (Part 11 §9.8.6.2, §9.8.7.2).
    static func mac(_ cipher: SMCipher, key: [UInt8], _ padded: [UInt8]) throws(ICAOCryptoError) -> [UInt8] {
        try wrapping { () throws(CryptoError) in
            if cipher.isAES { return Array(try CMAC(cipher, key: key).tag(padded).prefix(8)) }
            return try RetailMAC(key: key).tag(padded: padded)
        }
    }

    /// A MAC over unpadded data as PACE's authentication token takes it (BSI TR-03110-3 §A.2.4.2): AES-CMAC of the
    /// data truncated to 8 bytes; for 3DES the retail MAC after padding method 2.
    static func tokenMAC(_ cipher: SMCipher, key: [UInt8], _ data: [UInt8]) throws(ICAOCryptoError) -> [UInt8] {
        try wrapping { () throws(CryptoError) in
            if cipher.isAES { return Array(try CMAC(cipher, key: key).tag(data).prefix(8)) }
            return try RetailMAC(key: key).tag(data)
        }
    }

    /// The DER SubjectPublicKeyInfo of `key`'s public half.
    static func spki(_ key: PrivateKey) throws(ICAOCryptoError) -> [UInt8] {
        try wrapping { () throws(CryptoError) in try key.publicKey.spki }
    }

    /// The DER PKCS #8 of `key`.
    static func pkcs8(_ key: PrivateKey) throws(ICAOCryptoError) -> [UInt8] {
        try wrapping { () throws(CryptoError) in try key.pkcs8 }
    }

    static func wrapping<T>(_ body: () throws(CryptoError) -> T) throws(ICAOCryptoError) -> T {
        do {
            return try body()
        } catch {
            throw ICAOCryptoError(error)
        }
    }
}
