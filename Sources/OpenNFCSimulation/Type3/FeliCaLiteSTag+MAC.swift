internal import OpenNFCCrypto

/// Session key, MAC and MAC_A of the FeliCa Lite-S (Lite-S User's Manual §4, "Security"), with two-key 3DES from
/// OpenNFCCrypto (libcrypto).
///
/// The card works little-endian: every 8-byte quantity (CK halves, RC halves, MAC) travels byte-reversed against the
/// manual's big-endian notation. With K = CK1 ‖ CK2 and RC = RC1 ‖ RC2 in that notation:
/// - writing RC starts a session: SK = 3DES-CBC(K, IV 0, RC1 ‖ RC2), 16 bytes (SK1 ‖ SK2);
/// - MAC (block `81`, read after other blocks): 3DES-CBC with key SK1 ‖ SK2 and IV RC1 over the blocks read before it,
///   every 8-byte group byte-reversed; the last cipher block, byte-reversed, is the MAC;
/// - MAC_A read (block `91`): the same over a first group naming the blocks read before it (block number, `00`, per
///   block, filled with `FF`), then their data;
/// - MAC_A write (a write of one block and `91`): key SK2 ‖ SK1 over the group `WCNT(3) 00 block 00 91 00`, then
///   the 16 bytes written.
extension FeliCaLiteSTag {
    /// Reverses each 8-byte half of a 16-byte block: wire order ⇄ the manual's notation.
    static func reversedHalves(_ b: [UInt8]) -> [UInt8] { Array(b[0..<8].reversed()) + Array(b[8..<16].reversed()) }

    /// The MAC IV, RC1 in the manual's notation, from RC as written.
    static func ivFrom(_ rc: [UInt8]) -> [UInt8] { Array(rc[0..<8].reversed()) }

    /// A write of RC: the session key from CK and the challenge; external authentication ends.
    func startSession(_ written: [UInt8]) {
        rc = written
        externallyAuthenticated = false
        let key = Self.reversedHalves(ck)
        let challenge = Self.reversedHalves(written)
        sessionKey = try? BlockCipher(.tdes2, key: key).encryptCBC(challenge, iv: [UInt8](repeating: 0, count: 8))
    }

    /// The MAC of `data` (a multiple of 8 bytes) under `key` and `iv`, in wire order; nil if libcrypto fails.
    static func mac(_ data: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8]? {
        guard data.count % 8 == 0, !data.isEmpty else { return nil }
        var swapped: [UInt8] = []
        swapped.reserveCapacity(data.count)
        for g in stride(from: 0, to: data.count, by: 8) { swapped += data[g..<g + 8].reversed() }
        guard let out = try? BlockCipher(.tdes2, key: key).encryptCBC(swapped, iv: iv) else { return nil }
        return Array(out.suffix(8).reversed())
    }

    /// The first MAC_A group of a read: each block number read before MAC_A followed by `00`, then `FF`s.
    static func readMACHead(_ blocks: [Int]) -> [UInt8] {
        var head = [UInt8](repeating: 0xFF, count: 8)
        for (i, b) in blocks.prefix(4).enumerated() {
            head[2 * i] = UInt8(b & 0xFF)
            head[2 * i + 1] = 0x00
        }
        return head
    }
}
