extension CMAC {
    /// The CMAC of `data` whose CBC chain starts from `iv` instead of the zero block, as MIFARE DESFire EV1 secure
    /// messaging chains one MAC into the next (the IV is the previous CMAC). NIST SP 800-38B §6.2 with the CBC
    /// initial value replaced: subkeys K1, K2 from L = E_K(0) (§6.1, Rb = 87h for 128-bit and 1Bh for 64-bit blocks),
    /// the last block XORed with K1 (complete) or padded `80 00…` and XORed with K2, then CBC from `iv` through
    /// OpenSSL. With a zero `iv` this is ``tag(_:)``.
    package func tag(_ data: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        let n = algorithm.blockLength
        guard iv.count == n else {
            throw CryptoError(.invalidDataLength, "a \(algorithm.rawValue) IV has \(n) bytes, this one has \(iv.count)")
        }
        let cipher = try BlockCipher(algorithm, key: rawKey)
        let l = try cipher.encryptECB([UInt8](repeating: 0, count: n))
        let rb: UInt8 = n == 16 ? 0x87 : 0x1B
        let k1 = Self.double(l, rb)
        let k2 = Self.double(k1, rb)
        var message = data
        let complete = !message.isEmpty && message.count % n == 0
        if !complete {
            message.append(0x80)
            while message.count % n != 0 { message.append(0) }
        }
        let subkey = complete ? k1 : k2
        let last = message.count - n
        for i in 0..<n { message[last + i] ^= subkey[i] }
        return Array(try cipher.encryptCBC(message, iv: iv).suffix(n))
    }

    /// Multiplication by x in GF(2^n): shift left one bit, XOR Rb into the last byte when the top bit fell out.
    static func double(_ block: [UInt8], _ rb: UInt8) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: block.count)
        for i in 0..<block.count {
            out[i] = block[i] << 1 | (i + 1 < block.count ? block[i + 1] >> 7 : 0)
        }
        if block[0] & 0x80 != 0 { out[block.count - 1] ^= rb }
        return out
    }
}

/// CRC-32 as MIFARE DESFire EV1 uses it in enciphered frames: the IEEE 802.3 polynomial (reflected, EDB88320h),
/// initial value FFFFFFFFh, and no final XOR (the catalogued CRC-32/JAMCRC); sent least significant byte first.
package enum DESFireCRC32 {
    package static func checksum<C: Collection>(_ data: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc
    }

    /// The four CRC bytes, least significant first.
    package static func bytes<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        let c = checksum(data)
        return [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF), UInt8(c >> 24)]
    }
}
