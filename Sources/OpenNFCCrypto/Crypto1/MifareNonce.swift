/// The MIFARE Classic nonce generator: a 16-bit LFSR with feedback polynomial x^16 + x^14 + x^13 + x^11 + 1
/// ("Dismantling MIFARE Classic", ESORICS 2008, §3.3). A 32-bit nonce is a window of 32 consecutive output bits; in
/// transmission order (first byte first, least significant bit first) the bits obey
/// a(k+16) = a(k) ⊕ a(k+2) ⊕ a(k+3) ⊕ a(k+5), and suc moves the window one bit on.
package enum MifareNonce {
    /// suc^n(nonce): the nonce `n` bits later. aR = suc^64(nT), aT = suc^96(nT).
    package static func successor(_ nonce: UInt32, _ n: Int) -> UInt32 {
        // Bit i of `a` is air bit i (byte 0's least significant bit is bit 0).
        var a = nonce.byteSwapped
        for _ in 0..<n {
            let next = (a >> 16 ^ a >> 18 ^ a >> 19 ^ a >> 21) & 1
            a = a >> 1 | next << 31
        }
        return a.byteSwapped
    }

    /// Whether `nonce` can come from the card's 16-bit generator (its bits 16–31 follow from bits 0–15).
    package static func isGeneratorOutput(_ nonce: UInt32) -> Bool {
        let a = nonce.byteSwapped
        for k in 0..<16
        where (a >> UInt32(k + 16)) & 1
            != (a >> UInt32(k) ^ a >> UInt32(k + 2) ^ a >> UInt32(k + 3) ^ a >> UInt32(k + 5)) & 1
        {
            return false
        }
        return true
    }

    /// The generator's 32-bit nonce whose first 16 bits on the air are `seed` (transmission order), so a card can
    /// draw nonces that a reader's check of ``isGeneratorOutput(_:)`` accepts.
    package static func fromGenerator(seed: UInt16) -> UInt32 {
        var a = UInt32(seed == 0 ? 1 : seed)
        for k in 0..<16 {
            let next = (a >> UInt32(k) ^ a >> UInt32(k + 2) ^ a >> UInt32(k + 3) ^ a >> UInt32(k + 5)) & 1
            a |= next << UInt32(k + 16)
        }
        return a.byteSwapped
    }
}
