package import OpenNFCBytes

/// The one memory map (``MemoryMap``, docs/CLI.md "Memory maps") of the MIFARE Classic block layout, which MIFARE
/// Plus shares (NXP MF1S50yyX §8.6, MF1S70yyX §8.6): one line a 16-byte block, numbered in hex, with what the block
/// holds: block 0's UID, BCC, SAK and ATQA; each sector trailer's access conditions decoded (C1 C2 C3 of groups 0–3,
/// MF1S50yyX §8.7) and its general purpose byte; value blocks (MF1S50yyX §8.6.2.1) with their value and address; the
/// MIFARE Application Directory (NXP AN10787 §3: sector 0, and sector 16 for MAD2); blocks not read as `--`.
package enum MifareClassicMemoryMap {
    /// How the sector keys are kept.
    package enum Keys {
        /// In the trailers, as MIFARE Classic and MIFARE Plus in SL1 keep them (key A bytes 0–5, key B 10–15);
        /// `unknown(sector, isKeyB)` says a key the dump did not learn (its bytes are not the card's).
        case crypto1(unknown: (_ sector: Int, _ isKeyB: Bool) -> Bool)
        /// Apart, as MIFARE Plus in SL0/SL3 keeps its AES keys: trailer byte 5 is the SL3 access byte.
        case aes
    }

    /// The map of `blocks` (16 bytes each; nil where nothing was read); `uidLength` 4 (NUID: UID0–3, BCC, SAK,
    /// ATQA in block 0) or 7 (UID0–6).
    package static func map(blocks: [[UInt8]?], uidLength: Int, keys: Keys) -> MemoryMap {
        // MAD: the DA bit (7) of sector 0's GPB; MAD2 (ADV 10b in bits 1–0) adds sector 16 (AN10787 §3.3).
        let gpb0 = blocks.count > 3 ? blocks[3].map { $0[9] } : nil
        var mad: Set<Int> = []
        if let g = gpb0, g & 0x80 != 0 {
            mad.insert(0)
            if g & 0x03 == 0x02, blocks.count > 67 { mad.insert(16) }
        }
        let rows = blocks.enumerated().map { b, bytes in
            MemoryMap.Row(number: b, bytes: bytes, note: note(b, bytes, uidLength: uidLength, keys: keys, mad: mad))
        }
        return MemoryMap(rows: rows, rowWidth: 16)
    }

    static func note(_ b: Int, _ bytes: [UInt8]?, uidLength: Int, keys: Keys, mad: Set<Int>) -> String {
        let sector = MifareClassicModel.sector(ofBlock: b)
        let trailer = MifareClassicModel.isTrailer(b)
        guard let bytes, bytes.count == 16 else {
            if trailer { return "sector \(sector) trailer: not read" }
            return b == MifareClassicModel.firstBlock(ofSector: sector) ? "sector \(sector): not read (no key)" : ""
        }
        if b == 0 { return blockZero(bytes, uidLength: uidLength) }
        if trailer { return trailerNote(bytes, sector: sector, keys: keys) }
        if mad.contains(sector) { return sector == 0 ? "MAD1 (application directory)" : "MAD2 (application directory)" }
        if let (value, address) = valueBlock(bytes) {
            return "value block: value \(value), address \(Hex.encode([address]))"
        }
        return ""
    }

    /// Block 0, the manufacturer block: a NUID's UID0–3, BCC (their XOR, ISO/IEC 14443-3 §6.5.3.3), SAK and ATQA;
    /// a 7-byte UID's UID0–6.
    static func blockZero(_ bytes: [UInt8], uidLength: Int) -> String {
        guard uidLength == 4 else { return "block 0: UID0-6, manufacturer data" }
        let bcc = bytes[0..<4].reduce(0, ^)
        return "block 0: UID0-3, BCC"
            + (bytes[4] == bcc ? "" : " (wrong: UID0-3 give \(Hex.encode([bcc])))") + ", SAK, ATQA, manufacturer data"
    }

    static func trailerNote(_ t: [UInt8], sector: Int, keys: Keys) -> String {
        var parts: [String]
        if let c = MifareClassicAccessRules.conditions(t[0..<16]) {
            let groups = c.map { v in String(v >> 2 & 1) + String(v >> 1 & 1) + String(v & 1) }
            var text = "sector \(sector) trailer: access C1C2C3 " + groups.joined(separator: " ")
            if c == [0, 0, 0, 1] { text += " (transport configuration)" }
            parts = [text]
        } else {
            parts = ["sector \(sector) trailer: access bits invalid (the sector is blocked)"]
        }
        parts.append("GPB \(Hex.encode([t[9]]))")
        switch keys {
        case .crypto1(let unknown):
            if unknown(sector, false) { parts.append("key A unknown") }
            if unknown(sector, true) { parts.append("key B unknown") }
        case .aes:
            parts.append("SL3 access byte \(Hex.encode([t[5]]))")
        }
        return parts.joined(separator: ", ")
    }

    /// A value block's value and address (MF1S50yyX §8.6.2.1: value, its inverse, value, each 4 bytes LSB first;
    /// then address, inverse, address, inverse), or nil when the block is not in that format.
    package static func valueBlock(_ b: [UInt8]) -> (Int32, UInt8)? {
        guard b.count == 16 else { return nil }
        for i in 0..<4 where b[i] != b[i + 8] || b[i] != ~b[i + 4] { return nil }
        guard b[12] == b[14], b[13] == b[15], b[12] == ~b[13] else { return nil }
        let raw = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
        return (Int32(bitPattern: raw), b[12])
    }
}
