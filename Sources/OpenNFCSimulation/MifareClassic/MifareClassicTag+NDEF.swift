/// NFC-formatted MIFARE Classic as card issuers ship it (NXP AN10787 "MIFARE Application Directory" §3, and the
/// NFC Forum mapping of NXP AN1304/AN1305 "NFC Type MIFARE Classic Tag Operation" §6): a MAD in sector 0 (and
/// sector 16 on the 4K) whose entries name the NFC Forum application `E1 03` (stored `03 E1`) for every other
/// sector, MAD sector keys A `A0 A1 A2 A3 A4 A5`, NDEF sector keys A `D3 F7 D3 F7 D3 F7`, key B `FF…FF` in both, and
/// the NDEF TLV stream from sector 1 block 4 on.
extension MifareClassicTag {
    static let madKeyA: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
    static let nfcKeyA: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]

    /// CRC-8 of the MAD (AN10787 §3.7: polynomial x⁸+x⁴+x³+x²+1, preset C7h, no final XOR).
    static func madCRC(_ bytes: [UInt8]) -> UInt8 {
        var crc: UInt8 = 0xC7
        for b in bytes {
            crc ^= b
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x1D : crc << 1 }
        }
        return crc
    }

    /// The sectors the MAD gives to the NFC Forum application (every sector but the MAD's own).
    var ndefSectors: [Int] { (1..<model.sectorCount).filter { $0 != 16 || model != .classic4K } }

    /// Formats the chip for NDEF (all sectors, MAD1 or MAD1+MAD2) holding `message` (an empty NDEF TLV when nil).
    package func formatForNDEF(holding message: [UInt8]? = nil) throws(FactoryError) {
        let sectors = ndefSectors
        let capacity = sectors.reduce(0) { $0 + 16 * (MifareClassicModel.blockCount(inSector: $1) - 1) }
        let m = message ?? []
        var tlv: [UInt8] =
            (m.count < 0xFF ? [0x03, UInt8(m.count)] : [0x03, 0xFF, UInt8(m.count >> 8), UInt8(m.count & 0xFF)]) + m
        // The Terminator TLV only where it fits (AN1305 §6.2: a full area has none).
        if tlv.count < capacity { tlv.append(0xFE) }
        guard tlv.count <= capacity else {
            throw FactoryError("an NDEF message of \(m.count) bytes does not fit in \(capacity) bytes of NDEF sectors")
        }
        // MAD1: block 1 = CRC, info byte (publisher sector 0, none), AIDs of sectors 1–15; block 2 the rest.
        var mad1: [UInt8] = [0x01]
        for s in 1..<16 { mad1 += s < model.sectorCount ? [0x03, 0xE1] : [0x00, 0x00] }
        mad1 = [Self.madCRC(mad1)] + mad1
        try setBlock(1, Array(mad1[0..<16]))
        try setBlock(2, Array(mad1[16..<32]))
        let madTrailerGPB: UInt8 = model == .classic4K ? 0xC2 : 0xC1
        let ff = [UInt8](repeating: 0xFF, count: 6)
        try setBlock(3, Self.madKeyA + [0x78, 0x77, 0x88, madTrailerGPB] + ff)
        if model == .classic4K {
            // MAD2 in sector 16 (blocks 64–66): CRC, info, AIDs of sectors 17–39.
            var mad2: [UInt8] = [0x01]
            for _ in 17..<40 { mad2 += [0x03, 0xE1] }
            mad2 = [Self.madCRC(mad2)] + mad2
            for i in 0..<3 { try setBlock(64 + i, Array(mad2[16 * i..<16 * i + 16])) }
            try setBlock(67, Self.madKeyA + [0x78, 0x77, 0x88, madTrailerGPB] + ff)
        }
        var stream = tlv + [UInt8](repeating: 0, count: capacity - tlv.count)
        for s in sectors {
            let first = MifareClassicModel.firstBlock(ofSector: s)
            for b in first..<MifareClassicModel.trailerBlock(ofSector: s) {
                try setBlock(b, Array(stream.prefix(16)))
                stream.removeFirst(16)
            }
            try setBlock(MifareClassicModel.trailerBlock(ofSector: s), Self.nfcKeyA + [0x7F, 0x07, 0x88, 0x40] + ff)
        }
    }

    /// The NDEF message of an NFC-formatted chip (the first NDEF TLV of the MAD's `03 E1` sectors), nil otherwise.
    package var ndefMessage: [UInt8]? {
        let mad1 = block(1) + block(2)
        guard mad1[0] == Self.madCRC(Array(mad1[1...])) else { return nil }
        var aids: [Int: [UInt8]] = [:]
        for s in 1..<min(16, model.sectorCount) { aids[s] = Array(mad1[2 * s..<2 * s + 2]) }
        if model == .classic4K {
            let mad2 = block(64) + block(65) + block(66)
            if mad2[0] == Self.madCRC(Array(mad2[1...])) {
                for s in 17..<40 { aids[s] = Array(mad2[2 * (s - 16)..<2 * (s - 16) + 2]) }
            }
        }
        var stream: [UInt8] = []
        for s in 1..<model.sectorCount where aids[s] == [0x03, 0xE1] {
            for b in MifareClassicModel.firstBlock(ofSector: s)..<MifareClassicModel.trailerBlock(ofSector: s) {
                stream += block(b)
            }
        }
        return CardTLV.firstNDEF(stream, in: 0..<stream.count)
    }
}
