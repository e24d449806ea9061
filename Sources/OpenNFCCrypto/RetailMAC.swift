/// ISO/IEC 9797-1 MAC algorithm 3 with DES (the "retail MAC"): single-DES CBC under key A over every block, then the
/// last block decrypted under key B and encrypted under key A, an 8-byte MAC. ICAO Doc 9303 Part 11 §9.8 (secure
/// messaging with 3DES) and §4.3.3.2 (BAC's mutual authentication) use it with padding method 2. Composed from
/// libcrypto's DES operations (``BlockCipher``); nothing cryptographic is computed here.
package struct RetailMAC: Sendable {
    private let a: BlockCipher
    private let b: BlockCipher

    /// A MAC under the 16-byte key A ‖ B (the two-key 3DES form).
    package init(key: [UInt8]) throws(CryptoError) {
        guard key.count == 16 else {
            throw CryptoError(
                .invalidKeyLength, "a retail MAC key has 16 bytes (key A ‖ key B), this one has \(key.count)")
        }
        a = try BlockCipher(.des, key: Array(key.prefix(8)))
        b = try BlockCipher(.des, key: Array(key.suffix(8)))
    }

    /// The MAC of `data` after ISO/IEC 9797-1 padding method 2 (`80` then zeros to a whole block, always added).
    package func tag(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try tag(padded: Padding.method2(data, blockLength: 8))
    }

    /// The MAC of data that is already a whole number of 8-byte blocks (padded by the caller), no padding added.
    package func tag(padded data: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !data.isEmpty, data.count % 8 == 0 else {
            throw CryptoError(.invalidDataLength, "the retail MAC needs whole 8-byte blocks, not \(data.count) bytes")
        }
        let chain = try a.encryptCBC(data, iv: [UInt8](repeating: 0, count: 8))
        let last = Array(chain.suffix(8))
        return try a.encryptECB(try b.decryptECB(last))
    }
}

/// ISO/IEC 9797-1 padding method 2 (ISO/IEC 7816-4 §5.6.3's `80 00…`): a `80` byte, then zeros to a whole block.
package enum Padding {
    /// `data` ‖ `80` ‖ zeros up to a multiple of `blockLength` (a whole block is added to aligned data).
    package static func method2(_ data: [UInt8], blockLength: Int) -> [UInt8] {
        var out = data
        out.append(0x80)
        while out.count % blockLength != 0 { out.append(0) }
        return out
    }

    /// `padded` without its method-2 padding, or nil when it does not end in `80 00…` within the last block.
    package static func removeMethod2(_ padded: [UInt8], blockLength: Int) -> [UInt8]? {
        var i = padded.count - 1
        while i >= 0, padded[i] == 0, padded.count - i <= blockLength { i -= 1 }
        guard i >= 0, padded[i] == 0x80, padded.count - i <= blockLength else { return nil }
        return Array(padded[..<i])
    }
}

/// The key derivation function of ICAO Doc 9303 Part 11 §9.7.1 (BSI TR-03110-3 §A.2.3): the key is the first bytes of
/// H(secret ‖ counter as 4 bytes big-endian), with SHA-1 for 3DES and AES-128 and SHA-256 for AES-192 and AES-256;
/// 3DES keys take bytes 1–16 (two-key 3DES, K3 = K1) with each byte's parity bit adjusted to odd (FIPS 46-3).
package enum ICAOKDF {
    /// Counter 1: the encryption key.
    package static let encryption: UInt32 = 1
    /// Counter 2: the MAC key.
    package static let mac: UInt32 = 2
    /// Counter 3: the PACE password key Kπ.
    package static let password: UInt32 = 3

    /// The `cipher` key derived from `secret` with `counter`. `cipher` is ``CipherAlgorithm/tdes2`` or an AES.
    package static func derive(_ secret: [UInt8], counter: UInt32, for cipher: CipherAlgorithm) throws(CryptoError)
        -> [UInt8]
    {
        let input =
            secret + [
                UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF),
            ]
        switch cipher {
        case .tdes2: return adjustParity(Array(try Digest.hash(.sha1, input).prefix(16)))
        case .aes128: return Array(try Digest.hash(.sha1, input).prefix(16))
        case .aes192: return Array(try Digest.hash(.sha256, input).prefix(24))
        case .aes256: return try Digest.hash(.sha256, input)
        case .des, .tdes3:
            throw CryptoError(.invalidKeyLength, "ICAO Doc 9303 derives no \(cipher.rawValue) keys (3DES is two-key)")
        }
    }

    /// Each byte with its least significant bit set so that the byte has an odd number of ones (DES key parity).
    package static func adjustParity(_ key: [UInt8]) -> [UInt8] {
        key.map { b in (b & 0xFE) | (((b >> 1).nonzeroBitCount % 2 == 0) ? 1 : 0) }
    }
}
