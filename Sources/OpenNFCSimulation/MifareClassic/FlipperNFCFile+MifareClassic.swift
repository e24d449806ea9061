internal import OpenNFCBytes

/// Flipper Zero `.nfc` files of MIFARE Classic, from the format description in flipperzero-firmware
/// documentation/file_formats/NfcFileFormats.md: `Device type: Mifare Classic`, `UID`, `ATQA` (most significant
/// byte first), `SAK`, `Mifare Classic type: MINI|1K|4K`, `Data format version: 2`, then `Block N:` with 16 bytes,
/// `??` for bytes the reader could not read (a key it did not find).
///
/// | Feature | Import | Export |
/// |---|---|---|
/// | Version 4, data format version 2, MINI/1K/4K | ✓ | ✓ (always this form) |
/// | `??` bytes | read as `00`; a trailer's key A or key B all `??` is an unknown key (``MifareClassicTag/unknownKeys``) | a sector whose trailer is all zeros (what `opennfc dump` saves for a sector no key opened, docs/TAG-FILES.md) is written as `??`, block 0 excepted; an unknown key as `??` |
/// | Missing `Block N` lines | error naming the block | every block |
/// | 2K, Plus, 7-byte UIDs | error naming the line | — |
/// | `magic` (gen1a, gen2) | read as a genuine chip | not stored (Flipper has no field for it) |
extension FlipperNFCFile {
    static func decodeMifareClassic(_ values: [String: Entry]) throws(TagFileError) -> MifareClassicTag {
        try checkVersion(values)
        let typeEntry = try require(values, "Mifare Classic type")
        guard let model = MifareClassicModel.allCases.first(where: { $0.shortName == typeEntry.value.uppercased() })
        else {
            throw TagFileError(
                "'\(typeEntry.value)' is not MINI, 1K or 4K", field: "Mifare Classic type", line: typeEntry.line)
        }
        if let format = values["Data format version"], format.value != "2" {
            throw TagFileError(
                "data format version '\(format.value)' is not supported (2 is)", field: "Data format version",
                line: format.line)
        }
        let uidEntry = try require(values, "UID")
        let uid = try hexValue(values, "UID", count: nil) ?? []
        guard uid.count == 4 else {
            throw TagFileError(
                "a \(uid.count)-byte UID; only 4-byte UIDs are simulated", field: "UID", line: uidEntry.line)
        }
        var memory: [UInt8] = []
        memory.reserveCapacity(model.blockCount * 16)
        var unknown: Set<MifareClassicTag.KeySlot> = []
        for b in 0..<model.blockCount {
            let entry = try require(values, "Block \(b)")
            let parts = entry.value.split(separator: " ")
            guard parts.count == 16 else {
                throw TagFileError(
                    "expected 16 bytes, found \(parts.count)", field: "Block \(b)", line: entry.line)
            }
            for (i, p) in parts.enumerated() {
                if p == "??" {
                    memory.append(0)
                } else if p.count == 2, let v = UInt8(p, radix: 16) {
                    memory.append(v)
                } else {
                    throw TagFileError("byte \(i) '\(p)' is not a hex byte", field: "Block \(b)", line: entry.line)
                }
            }
            if MifareClassicModel.isTrailer(b) {
                let s = MifareClassicModel.sector(ofBlock: b)
                if parts[0..<6].allSatisfy({ $0 == "??" }) { unknown.insert(.init(sector: s, isKeyB: false)) }
                if parts[10..<16].allSatisfy({ $0 == "??" }) { unknown.insert(.init(sector: s, isKeyB: true)) }
            }
        }
        guard Array(memory[0..<4]) == uid else {
            throw TagFileError(
                "block 0 holds UID \(Hex.encode(memory[0..<4])), not the file's \(Hex.encode(uid))", field: "UID",
                line: uidEntry.line)
        }
        do throws(MifareClassicTag.FactoryError) {
            let tag = try MifareClassicTag(model: model, memory: memory)
            tag.unknownKeys = unknown
            return tag
        } catch {
            throw TagFileError(error.reason)
        }
    }

    static func encodeMifareClassic(_ t: MifareClassicTag) -> String {
        let a = t.activation
        var lines = header("Mifare Classic", a)
        lines += [
            "# Mifare Classic specific data",
            "Mifare Classic type: \(t.model.shortName)",
            "Data format version: 2",
            "# Mifare Classic blocks, '??' means unknown data",
        ]
        for s in 0..<t.model.sectorCount {
            let first = MifareClassicModel.firstBlock(ofSector: s)
            let blocks = (first..<first + MifareClassicModel.blockCount(inSector: s)).map { t.block($0) }
            // An all-zero trailer never reads back from a card (access bytes 00 00 00 fail their check): unread.
            let unread = blocks[blocks.count - 1].allSatisfy { $0 == 0 }
            for i in blocks.indices {
                let text =
                    unread && first + i != 0
                    ? Array(repeating: "??", count: 16).joined(separator: " ") : t.blockText(first + i)
                lines.append("Block \(first + i): \(text)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
