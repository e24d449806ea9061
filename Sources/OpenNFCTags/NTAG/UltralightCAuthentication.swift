internal import OpenNFCBytes
package import OpenNFCCrypto
package import OpenNFCRF

/// MIFARE Ultralight C 3DES authentication and key management from the reader's side (NXP MF0ICU2 product data
/// sheet rev. 3.3: §7.5.5 authentication, §7.5.7 key storage, §7.5.8 AUTH0/AUTH1, §9.5 AUTHENTICATE).
///
/// | Operation | Frames | Notes |
/// |---|---|---|
/// | ``authenticate(key:)`` | `1A 00` → `AF` ek(RndB); `AF` ek(RndA ‖ RndB') → `00` ek(RndA') | 2 frames; 2-key 3DES CBC, IV 0 then the last ciphertext block; RndA from the injected ``RandomSource``; the card's answer is checked (mutual) |
/// | ``changeKey(to:)`` | 4 × WRITE 2Ch–2Fh | needs authentication when AUTH0 ≤ 2Fh; the new key counts from the next activation |
/// | ``configure(auth0:protectReads:)`` | WRITE 2Bh (AUTH1), WRITE 2Ah (AUTH0) | AUTH1 first, AUTH0 last: torn part way, the pages are either unprotected or protected as asked |
///
/// Once authenticated the chip stays so until it is halted, NAKs or leaves the field, so the Type 2 NDEF procedures
/// (``Type2NDEF``) then read and write protected pages as on any Type 2 tag. A wrong key is a NAK
/// (``TagError/Code/commandRejected``) and the chip goes mute until re-activated.
package struct UltralightCAuthentication {
    let link: Type2Link
    let random: any RandomSource

    /// The factory key: pages 2Ch–2Fh spell "BREAKMEIFYOUCAN!", which is the key `49 45 4D 4B 41 45 52 42 21 4E 41 43
    /// 55 4F 59 46` (MF0ICU2 Table 13 with the byte order of Table 11).
    package static let factoryKey: [UInt8] = [
        0x49, 0x45, 0x4D, 0x4B, 0x41, 0x45, 0x52, 0x42, 0x21, 0x4E, 0x41, 0x43, 0x55, 0x4F, 0x59, 0x46,
    ]

    package init(target: RFTarget?, frontend: any RFFrontend, random: any RandomSource = SystemRandomSource()) {
        self.link = Type2Link(frontend: frontend, target: target)
        self.random = random
    }

    /// The three-pass mutual authentication with a 16-byte 2-key 3DES key (k0…k15).
    package func authenticate(key: [UInt8]) throws(TagError) {
        let cipher = try Self.cipher(key)
        let challenge = try exchange([0x1A, 0x00], name: "AUTHENTICATE part 1")
        guard challenge.count == 9, challenge[0] == 0xAF else {
            throw TagError(
                .invalidResponse, "AUTHENTICATE part 1 answered \(challenge.hexString), expected AF and 8 bytes")
        }
        let ekRndB = Array(challenge[1...])
        let rndA = random.bytes(8)
        let token = try Self.crypt { () throws(CryptoError) -> [UInt8] in
            let rndB = try cipher.decryptCBC(ekRndB, iv: [UInt8](repeating: 0, count: 8))
            let rotatedB = Array(rndB[1...]) + [rndB[0]]
            return try cipher.encryptCBC(rndA + rotatedB, iv: ekRndB)
        }
        let answer = try exchange([0xAF] + token, name: "AUTHENTICATE part 2")
        guard answer.count == 9, answer[0] == 0x00 else {
            throw TagError(
                .invalidResponse, "AUTHENTICATE part 2 answered \(answer.hexString), expected 00 and 8 bytes")
        }
        let rotatedA = try Self.crypt { () throws(CryptoError) -> [UInt8] in
            try cipher.decryptCBC(Array(answer[1...]), iv: Array(token[8..<16]))
        }
        guard rotatedA == Array(rndA[1...]) + [rndA[0]] else {
            throw TagError(
                .invalidResponse, "AUTHENTICATE part 2: the tag's answer does not decrypt to RndA': it has another key")
        }
    }

    /// Writes `newKey` (k0…k15) to pages 2Ch–2Fh, stored k7…k0 then k15…k8 (MF0ICU2 §7.5.7 Table 11).
    package func changeKey(to newKey: [UInt8]) throws(TagError) {
        guard newKey.count == 16 else {
            throw TagError(.unsupported, "an Ultralight C key has 16 bytes, not \(newKey.count)")
        }
        let stored = Array(newKey[0..<8].reversed()) + Array(newKey[8..<16].reversed())
        for i in 0..<4 { try link.write(page: 0x2C + i, Array(stored[i * 4..<i * 4 + 4])) }
    }

    /// Protects pages `auth0`… (03h–30h; 30h = off): writes only, or reads too with `protectReads`.
    package func configure(auth0: Int, protectReads: Bool) throws(TagError) {
        guard (3...0x30).contains(auth0) else {
            throw TagError(.unsupported, "AUTH0 must be 03h–30h (30h = no protection), not \(auth0)")
        }
        try link.write(page: 0x2B, [protectReads ? 0x00 : 0x01, 0, 0, 0])
        try link.write(page: 0x2A, [UInt8(auth0), 0, 0, 0])
    }

    static func cipher(_ key: [UInt8]) throws(TagError) -> BlockCipher {
        do {
            return try BlockCipher(.tdes2, key: key)
        } catch {
            throw TagError(.unsupported, "Ultralight C key: \(error.detail)")
        }
    }

    static func crypt<T>(_ body: () throws(CryptoError) -> T) throws(TagError) -> T {
        do {
            return try body()
        } catch {
            throw TagError(.unsupported, "3DES: \(error.detail)")
        }
    }

    private func exchange(_ frame: [UInt8], name: String) throws(TagError) -> [UInt8] {
        let answer: RFResponse
        do {
            answer = try link.frontend.exchange(frame)
        } catch {
            if error.code == .timeout {
                throw TagError(
                    .commandRejected, "\(name) got no answer: not an Ultralight C, or a wrong key", rfError: error)
            }
            throw .rf(error, during: name)
        }
        switch answer {
        case .frame(let b) where b.count == 1 && b[0] & 0xFA == 0:
            throw TagError(.commandRejected, "\(name) refused: wrong key", nak: b[0])
        case .frame(let b): return b
        case .nak(let n): throw TagError(.commandRejected, "\(name) refused: wrong key", nak: n)
        case .ack: throw TagError(.invalidResponse, "\(name) answered ACK, expected data")
        }
    }
}
