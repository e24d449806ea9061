/// The two steps of the three-pass authentication that both sides compute alike ("Dismantling MIFARE Classic",
/// ESORICS 2008, §3.2; the parity rule from "Wirelessly pickpocketing a MIFARE Classic card", IEEE S&P 2009, §2.1).
///
/// | Step | Who | Here |
/// |---|---|---|
/// | cipher ← key, shift in uid ⊕ nT | both (a nested nT arrives enciphered: ``shift(word:encrypted:)`` with `true`) | ``init(key:)``, ``shift(word:encrypted:)`` |
/// | {nR}: nR enters the cipher as input while it enciphers itself | reader | ``encryptReaderNonce(_:)`` |
/// | nR recovered from {nR}, feeding the plaintext back | card | ``decryptReaderNonce(_:)`` |
/// | {aR}, {aT}: plain keystream | both | ``encrypt(_:)``, ``decrypt(_:)`` |
extension Crypto1 {
    /// Enciphers the reader nonce nR (4 bytes, as sent): each bit is shifted in as input, and the byte's parity bit
    /// is enciphered with the keystream bit of the next bit on the air.
    package mutating func encryptReaderNonce(_ nonce: [UInt8]) -> Crypto1Frame {
        var out = Crypto1Frame(bytes: [], parity: [])
        for p in nonce {
            out.bytes.append(p ^ shift(byte: p))
            out.parity.append(Crypto1Frame.oddParity(p) ^ keystreamBit)
        }
        return out
    }

    /// Deciphers {nR} on the card's side, shifting the recovered plaintext in; ``Crypto1Decrypted/parityOK`` tells
    /// whether the reader's enciphered parity bits were right.
    package mutating func decryptReaderNonce(_ frame: Crypto1Frame) -> Crypto1Decrypted {
        var plain: [UInt8] = []
        var ok = frame.parity.count == frame.bytes.count
        for (i, c) in frame.bytes.enumerated() {
            let p = c ^ shift(byte: c, encrypted: true)
            plain.append(p)
            if i < frame.parity.count, frame.parity[i] & 1 != Crypto1Frame.oddParity(p) ^ keystreamBit { ok = false }
        }
        return Crypto1Decrypted(bytes: plain, parityOK: ok)
    }

    /// Deciphers a nested authentication's {nT} on the reader's side: the cipher, freshly loaded with the new key,
    /// shifts in uid ⊕ nT while only uid ⊕ {nT} is known (feedback of the keystream gives the plaintext). Returns nT
    /// and whether the enciphered parity bits matched it.
    package mutating func decryptNestedNonce(_ frame: Crypto1Frame, uid: UInt32) -> (nonce: UInt32, parityOK: Bool) {
        var nonce: UInt32 = 0
        var ok = frame.bytes.count == 4 && frame.parity.count == 4
        for (i, c) in frame.bytes.prefix(4).enumerated() {
            let u = UInt8(truncatingIfNeeded: uid >> UInt32(24 - 8 * i))
            let p = c ^ shift(byte: u ^ c, encrypted: true)
            nonce |= UInt32(p) << UInt32(24 - 8 * i)
            if i < frame.parity.count, frame.parity[i] & 1 != Crypto1Frame.oddParity(p) ^ keystreamBit { ok = false }
        }
        return (nonce, ok)
    }

    /// Enciphers a nested authentication's nT on the card's side (uid ⊕ nT shifted in, plain input).
    package mutating func encryptNestedNonce(_ nonce: UInt32, uid: UInt32) -> Crypto1Frame {
        var out = Crypto1Frame(bytes: [], parity: [])
        for i in 0..<4 {
            let p = UInt8(truncatingIfNeeded: nonce >> UInt32(24 - 8 * i))
            let u = UInt8(truncatingIfNeeded: uid >> UInt32(24 - 8 * i))
            out.bytes.append(p ^ shift(byte: u ^ p))
            out.parity.append(Crypto1Frame.oddParity(p) ^ keystreamBit)
        }
        return out
    }
}

extension UInt32 {
    /// The word from 4 bytes in transmission order (first byte most significant).
    package init(mifareBytes b: [UInt8]) {
        self = b.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The 4 bytes of the word in transmission order.
    package var mifareBytes: [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: self >> UInt32(24 - 8 * $0)) } }
}
