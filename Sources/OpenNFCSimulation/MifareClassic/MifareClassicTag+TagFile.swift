internal import OpenNFCBytes

/// The `mifareClassic` section of tag files (docs/TAG-FILES.md); the root `uid` is the 4-byte UID of block 0, and
/// the keys are where the chip keeps them, in the sector trailers:
///
/// ```json
/// "mifareClassic": {
///   "magic": "none",                                    // or "gen1a", "gen2"
///   "blocks": ["01 02 03 04 04 08 04 00 62 63 …", …]    // every 16-byte block, trailers with key A and key B
/// }
/// ```
///
/// A key a dump could not learn is written `?? ?? ?? ?? ?? ??` in its trailer (``MifareClassicTag/unknownKeys``);
/// `??` anywhere else, or in part of a key, is an error naming the block and byte.
extension MifareClassicTag {
    /// Tag-file registry entries for the Mini, 1K and 4K.
    static var tagFileChips: [TagFileChip] {
        MifareClassicModel.allCases.map { model in
            TagFileChip(
                name: model.rawValue, section: "mifareClassic",
                summary:
                    "MIFARE Classic \(model.shortName == "MINI" ? "Mini" : model.shortName) (Crypto1, "
                    + "\(model.sectorCount) sectors, \(model.blockCount * 16) bytes)",
                uidPrefix: [], uidLength: 4,
                factory: { uid, ndef throws(TagFileError) in
                    do throws(FactoryError) {
                        let tag = try MifareClassicTag(model: model, uid: uid)
                        if let ndef { try tag.formatForNDEF(holding: ndef) }
                        return tag
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in try MifareClassicTag.decode(model, section, uid: uid)
                },
                encode: { tag in
                    guard let t = tag as? MifareClassicTag, t.model == model else { return nil }
                    return t.encodeSection()
                },
                ndefMessage: { tag in (tag as? MifareClassicTag)?.ndefMessage },
                report: { tag in (tag as? MifareClassicTag)?.report })
        }
    }

    static func decode(_ model: MifareClassicModel, _ s: TagFileFields, uid: [UInt8]) throws(TagFileError)
        -> MifareClassicTag
    {
        for (key, _) in s.members where key != "blocks" && key != "magic" {
            throw TagFileError("unknown field", field: s.field(key))
        }
        let magicName = try s.optionalString("magic") ?? "none"
        guard let magic = Magic(rawValue: magicName) else {
            throw TagFileError("expected none, gen1a or gen2, not \(magicName)", field: s.field("magic"))
        }
        var unknown: Set<KeySlot> = []
        let memory = try s.hexList("blocks", count: model.blockCount, size: 16, owner: "a \(model.rawValue)") {
            text, i, field throws(TagFileError) in
            guard text.contains("?") else { return nil }
            let (bytes, slots) = try unknownKeyBlock(text, block: i, field: field)
            unknown.formUnion(slots)
            return bytes
        }
        guard Array(memory[0..<4]) == uid else {
            throw TagFileError("block 0 holds UID \(Hex.encode(memory[0..<4])), not the file's uid", field: "uid")
        }
        do throws(FactoryError) {
            let tag = try MifareClassicTag(model: model, memory: memory, magic: magic)
            tag.unknownKeys = unknown
            return tag
        } catch {
            throw TagFileError(error.reason, field: s.field("blocks"))
        }
    }

    /// A block written with `??` bytes: only a trailer's whole key A (bytes 0–5) or key B (10–15) may be unknown.
    static func unknownKeyBlock(_ text: String, block: Int, field: String) throws(TagFileError) -> ([UInt8], [KeySlot])
    {
        let parts = text.split(separator: " ")
        guard parts.count == 16 else {
            throw TagFileError("with ?? the block is written as 16 bytes separated by spaces", field: field)
        }
        guard MifareClassicModel.isTrailer(block) else {
            throw TagFileError(
                "only the keys of a sector trailer may be unknown (??); block \(block) is data", field: field)
        }
        var bytes: [UInt8] = []
        for (i, p) in parts.enumerated() {
            if p == "??" {
                guard i < 6 || i >= 10 else {
                    throw TagFileError(
                        "byte \(i) is an access or GPB byte: only keys may be unknown (??)", field: field)
                }
                bytes.append(0)
            } else if p.count == 2, let v = UInt8(p, radix: 16) {
                bytes.append(v)
            } else {
                throw TagFileError("byte \(i) '\(p)' is not a hex byte or ??", field: field)
            }
        }
        let sector = MifareClassicModel.sector(ofBlock: block)
        var slots: [KeySlot] = []
        for (range, isB) in [(0..<6, false), (10..<16, true)] {
            let marks = range.filter { parts[$0] == "??" }.count
            if marks == 0 { continue }
            guard marks == 6 else {
                throw TagFileError(
                    "key \(isB ? "B" : "A") is partly unknown: a key is known or unknown (?? ?? ?? ?? ?? ??) as a whole",
                    field: field)
            }
            slots.append(KeySlot(sector: sector, isKeyB: isB))
        }
        return (bytes, slots)
    }

    /// Block `n` as tag files write it: hex, a key the dump did not learn as `??`.
    func blockText(_ n: Int) -> String {
        var parts = block(n).map { Hex.encode([$0]) }
        if MifareClassicModel.isTrailer(n) {
            let sector = MifareClassicModel.sector(ofBlock: n)
            if !isKnown(0x60, sector: sector) { for i in 0..<6 { parts[i] = "??" } }
            if !isKnown(0x61, sector: sector) { for i in 10..<16 { parts[i] = "??" } }
        }
        return parts.joined(separator: " ")
    }

    func encodeSection() -> JSONValue {
        .object([
            ("magic", .string(magic.rawValue)),
            (
                "blocks",
                .array((0..<model.blockCount).map { .string(blockText($0)) })
            ),
        ])
    }

    /// The decoded view for `opennfc tag show`: block 0, and per sector its keys and access conditions.
    var report: TagReport {
        var lines = [
            "Product: MIFARE Classic \(model.shortName), \(model.sectorCount) sectors, \(model.blockCount) blocks, "
                + "UID \(Hex.encode(uid)), SAK \(Hex.encode([model.sak])), magic \(magic.rawValue)",
            "Block 0: \(Hex.encode(block(0), separator: " "))",
        ]
        var sectors: [JSONValue] = []
        for s in 0..<model.sectorCount {
            let t = block(MifareClassicModel.trailerBlock(ofSector: s))
            let conditions = MifareClassicAccessRules.conditions(t[0..<16])
            let text =
                conditions.map { c in c.map { String($0, radix: 2).leftPadded(3) }.joined(separator: " ") }
                ?? "invalid (sector blocked)"
            let keyA = isKnown(0x60, sector: s) ? Hex.encode(t[0..<6]) : "? (unknown)"
            let keyB = isKnown(0x61, sector: s) ? Hex.encode(t[10..<16]) : "? (unknown)"
            lines.append(
                "Sector \(s): key A \(keyA) key B \(keyB) "
                    + "access \(Hex.encode(t[6..<9])) (C1C2C3 per group 0-3: \(text)) GPB \(Hex.encode([t[9]]))")
            sectors.append(
                .object([
                    ("sector", .int(s)), ("keyA", isKnown(0x60, sector: s) ? .string(Hex.encode(t[0..<6])) : .null),
                    ("keyB", isKnown(0x61, sector: s) ? .string(Hex.encode(t[10..<16])) : .null),
                    ("access", .string(Hex.encode(t[6..<10]))),
                ]))
        }
        // The one memory map (blocks in hex, block 0 and the trailers annotated, identical blocks collapsed).
        lines.append("Memory:")
        lines += MifareClassicMemoryMap.map(
            blocks: (0..<model.blockCount).map { block($0) }, uidLength: 4,
            keys: .crypto1(unknown: { s, isKeyB in !self.isKnown(isKeyB ? 0x61 : 0x60, sector: s) })
        ).lines(indent: "  ")
        let access = ndefMessage == nil ? "not NDEF formatted" : "read/write (Crypto1 keys needed)"
        return TagReport(
            lines: lines,
            json: [("product", .string("MIFARE Classic \(model.shortName)")), ("sectors", .array(sectors))],
            ndefAccess: access)
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
