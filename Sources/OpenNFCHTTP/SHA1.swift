/// SHA-1 (FIPS 180-4 §6.1), used only for the WebSocket handshake (RFC 6455 §4.2.2: `Sec-WebSocket-Accept` is
/// base64(SHA-1(key + GUID))). It is a hash over public data here, not a security primitive.
package enum SHA1 {
    /// The 20-byte digest of `message`.
    package static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
        )
        // FIPS 180-4 §5.1.1: append 1 bit, zeros to 448 mod 512, then the 64-bit big-endian bit length.
        var m = message
        let bitLength = UInt64(message.count) &* 8
        m.append(0x80)
        while m.count % 64 != 56 { m.append(0) }
        for i in (0..<8).reversed() { m.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        var w = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: m.count, by: 64) {
            for t in 0..<16 {
                let j = block + t * 4
                w[t] = UInt32(m[j]) << 24 | UInt32(m[j + 1]) << 16 | UInt32(m[j + 2]) << 8 | UInt32(m[j + 3])
            }
            for t in 16..<80 { w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
            var (a, b, c, d, e) = h
            for t in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch t {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[t]
                (e, d, c, b, a) = (d, c, rotl(b, 30), a, temp)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        var out: [UInt8] = []
        for v in [h.0, h.1, h.2, h.3, h.4] {
            out += [
                UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8),
                UInt8(truncatingIfNeeded: v),
            ]
        }
        return out
    }

    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }
}

/// Base64 (RFC 4648 §4, with padding), for the WebSocket key and accept values.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let b0 = bytes[i]
            let b1 = n > 1 ? bytes[i + 1] : 0
            let b2 = n > 2 ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(n > 1 ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(n > 2 ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Strict decoding: padded, canonical, nothing outside the alphabet; nil otherwise.
    package static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        for q in stride(from: 0, to: chars.count, by: 4) {
            var v: [UInt8] = []
            var pad = 0
            for j in 0..<4 {
                let c = chars[q + j]
                if c == UInt8(ascii: "=") {
                    guard q + 4 == chars.count, j >= 2 else { return nil }
                    pad += 1
                    v.append(0)
                } else {
                    guard pad == 0, let x = alphabet.firstIndex(of: c) else { return nil }
                    v.append(UInt8(x))
                }
            }
            let bytes = [v[0] << 2 | v[1] >> 4, (v[1] & 0x0F) << 4 | v[2] >> 2, (v[2] & 0x03) << 6 | v[3]]
            out += bytes.prefix(3 - pad)
        }
        guard encode(out) == text else { return nil }
        return out
    }
}
