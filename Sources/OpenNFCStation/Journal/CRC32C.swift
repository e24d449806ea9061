/// CRC-32C (Castagnoli): reflected polynomial 0x82F63B78, initial and final XOR 0xFFFFFFFF (RFC 3720 §12.1, the
/// iSCSI CRC; check value of "123456789" is 0xE3069283). The journal's per-record check.
enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
        return c
    }

    static func checksum<C: Collection>(_ data: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in data { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
