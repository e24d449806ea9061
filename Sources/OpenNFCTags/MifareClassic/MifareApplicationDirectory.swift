/// The MIFARE Application Directory as a reader reads NXP AN10787: MAD1 in sector 0 (blocks 1–2: CRC, info byte,
/// 15 two-byte AIDs for sectors 1–15), MAD2 on the 4K in sector 16 (blocks 64–66: CRC, info, 23 AIDs for sectors
/// 17–39); the general purpose byte of sector 0's trailer says whether a MAD is there (DA, bit 7) and which version
/// (ADV, bits 1–0). AIDs are stored function-cluster-last: the NFC Forum application E1 03 is the bytes `03 E1`.
package struct MifareApplicationDirectory: Sendable, Hashable {
    /// The MAD sectors' key A (AN10787 §3.6).
    package static let keyA: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
    /// The NFC Forum application as stored in the MAD.
    package static let ndefAID: [UInt8] = [0x03, 0xE1]

    /// The info byte (publisher sector in bits 5–0).
    package var info: UInt8
    /// The AID of each sector (index = sector; sector 0 and 16 hold the MAD itself and are `00 00` here).
    package var aids: [[UInt8]]

    package init(info: UInt8 = 0x01, aids: [[UInt8]]) {
        self.info = info
        self.aids = aids
    }

    /// A MAD giving every sector but the MAD's own to `aid`.
    package static func allSectors(_ aid: [UInt8], model: MifareClassicCard.Model) -> MifareApplicationDirectory {
        MifareApplicationDirectory(
            aids: (0..<model.sectorCount).map { $0 == 0 || $0 == 16 ? [0, 0] : aid })
    }

    /// The sectors that hold `aid`, in order.
    package func sectors(for aid: [UInt8]) -> [Int] { aids.indices.filter { aids[$0] == aid } }

    /// CRC-8 of AN10787 §3.7: polynomial x⁸+x⁴+x³+x²+1 (1Dh), preset C7h.
    package static func crc(_ bytes: [UInt8]) -> UInt8 {
        var crc: UInt8 = 0xC7
        for b in bytes {
            crc ^= b
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x1D : crc << 1 }
        }
        return crc
    }

    /// MAD1: blocks 1 and 2 (32 bytes).
    package var mad1Blocks: [[UInt8]] {
        var body: [UInt8] = [info]
        for s in 1..<16 { body += s < aids.count ? aids[s] : [0, 0] }
        let all = [Self.crc(body)] + body
        return [Array(all[0..<16]), Array(all[16..<32])]
    }

    /// MAD2: blocks 64–66 (48 bytes), for a 4K.
    package var mad2Blocks: [[UInt8]] {
        var body: [UInt8] = [info]
        for s in 17..<40 { body += s < aids.count ? aids[s] : [0, 0] }
        let all = [Self.crc(body)] + body
        return (0..<3).map { Array(all[16 * $0..<16 * $0 + 16]) }
    }

    /// Decodes MAD1 (blocks 1, 2) and, when given, MAD2 (blocks 64–66), checking each CRC.
    package static func decode(mad1: [UInt8], mad2: [UInt8]? = nil, sectorCount: Int) throws(TagError)
        -> MifareApplicationDirectory
    {
        guard mad1.count == 32 else { throw TagError(.invalidResponse, "MAD1 is 32 bytes, got \(mad1.count)") }
        let crc1 = crc(Array(mad1[1...]))
        guard mad1[0] == crc1 else {
            throw TagError(
                .notFormatted,
                "MAD1 CRC in block 1 byte 0 is \(String(mad1[0], radix: 16)), the content gives \(String(crc1, radix: 16))"
            )
        }
        var aids: [[UInt8]] = [[0, 0]]
        for s in 1..<16 { aids.append(Array(mad1[2 * s..<2 * s + 2])) }
        if let mad2 {
            guard mad2.count == 48 else { throw TagError(.invalidResponse, "MAD2 is 48 bytes, got \(mad2.count)") }
            let crc2 = crc(Array(mad2[1...]))
            guard mad2[0] == crc2 else {
                throw TagError(
                    .notFormatted,
                    "MAD2 CRC in block 64 byte 0 is \(String(mad2[0], radix: 16)), the content gives \(String(crc2, radix: 16))"
                )
            }
            aids.append([0, 0])
            for s in 17..<40 { aids.append(Array(mad2[2 * (s - 16)..<2 * (s - 16) + 2])) }
        }
        return MifareApplicationDirectory(info: mad1[1], aids: Array(aids.prefix(sectorCount)))
    }
}

extension MifareClassicCard {
    /// Reads the MAD (sector 0, and sector 16 on a 4K whose GPB says MAD2) with the MAD key A.
    package func readMAD(keyA: [UInt8] = MifareApplicationDirectory.keyA) throws(TagError) -> MifareApplicationDirectory
    {
        try authenticate(sector: 0, keyA: true, key: keyA)
        let mad1 = try readBlock(1) + readBlock(2)
        let trailer = try readBlock(3)
        let gpb = trailer[9]
        guard gpb & 0x80 != 0 else {
            throw TagError(
                .notFormatted, "sector 0's general purpose byte \(String(gpb, radix: 16)) says no MAD (DA bit 7 clear)")
        }
        var mad2: [UInt8]?
        if model == .classic4K && gpb & 0x03 == 0x02 {
            try authenticate(sector: 16, keyA: true, key: keyA)
            mad2 = try readBlock(64) + readBlock(65) + readBlock(66)
        }
        return try MifareApplicationDirectory.decode(mad1: mad1, mad2: mad2, sectorCount: model.sectorCount)
    }

    /// Writes the MAD and the MAD sectors' trailers (key A `A0A1A2A3A4A5`, access `78 77 88`, GPB `C1`/`C2`,
    /// `keyB`), authenticating each MAD sector with `currentKey` (key A when `currentKeyIsA`).
    package func writeMAD(
        _ mad: MifareApplicationDirectory, currentKey: [UInt8], currentKeyIsA: Bool, keyB: [UInt8]
    ) throws(TagError) {
        let gpb: UInt8 = model == .classic4K ? 0xC2 : 0xC1
        try authenticate(sector: 0, keyA: currentKeyIsA, key: currentKey)
        let blocks = mad.mad1Blocks
        try writeBlock(1, blocks[0])
        try writeBlock(2, blocks[1])
        try writeTrailer(sector: 0, keyA: MifareApplicationDirectory.keyA, access: .mad, gpb: gpb, keyB: keyB)
        if model == .classic4K {
            try authenticate(sector: 16, keyA: currentKeyIsA, key: currentKey)
            for (i, b) in mad.mad2Blocks.enumerated() { try writeBlock(64 + i, b) }
            try writeTrailer(sector: 16, keyA: MifareApplicationDirectory.keyA, access: .mad, gpb: gpb, keyB: keyB)
        }
    }
}
