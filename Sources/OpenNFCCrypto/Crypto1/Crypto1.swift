/// The Crypto1 stream cipher of MIFARE Classic, from its public description: Garcia, de Koning Gans, Muijrers,
/// van Rossum, Verdult, Wichers Schreur, Jacobs, "Dismantling MIFARE Classic", ESORICS 2008 (§3 the cipher, §3.1
/// the LFSR and filter, §3.2 the authentication) and Garcia, van Rossum, Verdult, Wichers Schreur, "Wirelessly
/// pickpocketing a MIFARE Classic card", IEEE S&P 2009 (§2 encrypted parity bits, nested authentication).
///
/// | Part | What | Here |
/// |---|---|---|
/// | LFSR | 48 bits x0…x47, feedback L = x0⊕x5⊕x9⊕x10⊕x12⊕x14⊕x15⊕x17⊕x19⊕x24⊕x25⊕x27⊕x29⊕x35⊕x39⊕x41⊕x42⊕x43 | ``state`` (bit i = xi) |
/// | Key load | x(8j+b) = bit b of key byte j (bytes in the order written, bits least significant first) | ``init(key:)`` |
/// | Filter | f(x9, x11, …, x47) = fc(fa, fb, fb, fa, fb) over five groups of four odd-position bits | ``keystreamBit`` |
/// | Input | each shift may take an input bit (uid ⊕ nT, then nR) XORed into the feedback | ``shift(_:encrypted:)`` |
/// | Parity | a byte's parity bit is XORed with the keystream bit that encrypts the next byte's first bit | ``encrypt(_:)`` |
/// | Nonces | 16-bit LFSR x^16+x^14+x^13+x^11+1, suc^64 for aR and suc^96 for aT | ``MifareNonce`` |
///
/// Words and bytes are written as they travel (first byte first, hex `9C599B32` sends `9C` first); within a byte the
/// least significant bit goes first (ISO/IEC 14443-3 §6.2.3.1), and that is the order bits enter the cipher.
/// Not supported: nothing of the cipher is left out; the attacks (key recovery) are not here — not needed to emulate
/// or read a card.
package struct Crypto1: Sendable, Hashable {
    /// The LFSR, bit i = xi (x0 leaves first).
    package private(set) var state: UInt64

    /// The feedback taps of L, as a mask over ``state``.
    static let feedbackMask: UInt64 = [0, 5, 9, 10, 12, 14, 15, 17, 19, 24, 25, 27, 29, 35, 39, 41, 42, 43]
        .reduce(0) { $0 | 1 << UInt64($1) }

    /// The cipher loaded with a 6-byte key (as written in a sector trailer, `FF FF FF FF FF FF`).
    package init(key: [UInt8]) {
        precondition(key.count == 6, "a Crypto1 key has 6 bytes")
        var s: UInt64 = 0
        for (j, byte) in key.enumerated() { s |= UInt64(byte) << UInt64(8 * j) }
        state = s
    }

    /// The cipher loaded with a key held as a 48-bit number whose most significant byte is the first key byte
    /// (`0xA0A1A2A3A4A5` is the key `A0 A1 A2 A3 A4 A5`).
    package init(key: UInt64) {
        self.init(key: (0..<6).map { UInt8(truncatingIfNeeded: key >> UInt64(40 - 8 * $0)) })
    }

    // Two 4-input functions and the 5-input output function as truth tables. The tables are indexed with the
    // earliest (lowest-numbered) input bit as the most significant index bit: fa(x9, x11, x13, x15) looks up bit
    // x9·8 + x11·4 + x13·2 + x15. Values as published for this index order (the 20-bit and 32-bit constants in
    // the cryptanalysis literature, e.g. 0x0d938 and 0xEC57E80A).
    static let fa: UInt32 = 0xD938
    static let fb: UInt32 = 0xF22C
    static let fc: UInt32 = 0xEC57_E80A

    @inline(__always) private func bit(_ i: Int) -> UInt32 { UInt32(truncatingIfNeeded: state >> UInt64(i)) & 1 }

    @inline(__always) private func group(_ first: Int, _ table: UInt32) -> UInt32 {
        let index = bit(first) << 3 | bit(first + 2) << 2 | bit(first + 4) << 1 | bit(first + 6)
        return table >> index & 1
    }

    /// The keystream bit the current state gives (the filter output); it does not move the state.
    package var keystreamBit: UInt8 {
        let index =
            group(41, Self.fb) << 4 | group(33, Self.fa) << 3 | group(25, Self.fb) << 2 | group(17, Self.fb) << 1
            | group(9, Self.fa)
        return UInt8(Self.fc >> index & 1)
    }

    /// One clock: returns the keystream bit, then shifts in L ⊕ `input` — or, with `encrypted`, L ⊕ `input` ⊕ the
    /// keystream bit (the input is ciphertext whose plaintext must be fed back: {nR} on the card, {nT} of a nested
    /// authentication on the reader).
    @discardableResult
    package mutating func shift(_ input: UInt8 = 0, encrypted: Bool = false) -> UInt8 {
        let ks = keystreamBit
        var feed = UInt8((state & Self.feedbackMask).nonzeroBitCount & 1) ^ (input & 1)
        if encrypted { feed ^= ks }
        state = state >> 1 | UInt64(feed) << 47
        return ks
    }

    /// Eight clocks over one byte (least significant bit first); returns the eight keystream bits as a byte.
    @discardableResult
    package mutating func shift(byte input: UInt8, encrypted: Bool = false) -> UInt8 {
        var ks: UInt8 = 0
        for b in 0..<8 { ks |= shift(input >> UInt8(b) & 1, encrypted: encrypted) << UInt8(b) }
        return ks
    }

    /// 32 clocks over a word in transmission order (most significant byte first); returns the keystream word.
    @discardableResult
    package mutating func shift(word input: UInt32, encrypted: Bool = false) -> UInt32 {
        var ks: UInt32 = 0
        for j in 0..<4 {
            let shiftBy = UInt32(24 - 8 * j)
            ks |= UInt32(shift(byte: UInt8(truncatingIfNeeded: input >> shiftBy), encrypted: encrypted)) << shiftBy
        }
        return ks
    }

    /// Encrypts plaintext bytes once authenticated (the state advances with no input): each byte with its
    /// encrypted parity bit, the odd parity of the plaintext byte XORed with the keystream bit that encrypts the
    /// next bit on the air (Garcia et al. 2009 §2.1).
    package mutating func encrypt(_ plain: [UInt8]) -> Crypto1Frame {
        var out = Crypto1Frame(bytes: [], parity: [])
        for p in plain {
            out.bytes.append(p ^ shift(byte: 0))
            out.parity.append(Crypto1Frame.oddParity(p) ^ keystreamBit)
        }
        return out
    }

    /// Decrypts a frame once authenticated; ``Crypto1Decrypted/parityOK`` tells whether every parity bit matched.
    package mutating func decrypt(_ frame: Crypto1Frame) -> Crypto1Decrypted {
        var plain: [UInt8] = []
        var ok = frame.parity.count == frame.bytes.count
        for (i, c) in frame.bytes.enumerated() {
            let p = c ^ shift(byte: 0)
            plain.append(p)
            if i < frame.parity.count, frame.parity[i] & 1 != Crypto1Frame.oddParity(p) ^ keystreamBit { ok = false }
        }
        return Crypto1Decrypted(bytes: plain, parityOK: ok)
    }

    /// Encrypts a 4-bit ACK/NAK answer (ISO/IEC 14443-3 §6.2.3.2 short frame), four keystream bits.
    package mutating func encrypt(nibble: UInt8) -> UInt8 {
        var ks: UInt8 = 0
        for b in 0..<4 { ks |= shift() << UInt8(b) }
        return (nibble ^ ks) & 0x0F
    }

    /// Decrypts a 4-bit answer.
    package mutating func decrypt(nibble: UInt8) -> UInt8 { encrypt(nibble: nibble) }
}

/// Bytes on the air under Crypto1, each with its (encrypted) parity bit.
package struct Crypto1Frame: Sendable, Hashable {
    package var bytes: [UInt8]
    /// One bit (0 or 1) per byte.
    package var parity: [UInt8]

    package init(bytes: [UInt8], parity: [UInt8]) {
        self.bytes = bytes
        self.parity = parity
    }

    /// The ISO/IEC 14443-3 §6.2.3.1 odd parity bit of a byte.
    package static func oddParity(_ b: UInt8) -> UInt8 { UInt8(1 - b.nonzeroBitCount & 1) }
}

/// A decrypted frame and whether its parity bits were right.
package struct Crypto1Decrypted: Sendable, Hashable {
    package var bytes: [UInt8]
    package var parityOK: Bool
}
