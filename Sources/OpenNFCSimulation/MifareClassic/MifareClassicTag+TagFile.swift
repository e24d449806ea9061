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
        let blocks = try s.array("blocks")
        guard blocks.count == model.blockCount else {
            throw TagFileError(
                "a \(model.rawValue) has \(model.blockCount) blocks, found \(blocks.count)", field: s.field("blocks"))
        }
        var memory: [UInt8] = []
        memory.reserveCapacity(model.blockCount * 16)
        for (i, block) in blocks.enumerated() {
            let field = "\(s.field("blocks"))[\(i)]"
            guard let text = block.stringValue else { throw TagFileError("expected a hex string", field: field) }
            memory += try TagFileFields.hex(text, field: field, count: 16)
        }
        guard Array(memory[0..<4]) == uid else {
            throw TagFileError("block 0 holds UID \(Hex.encode(memory[0..<4])), not the file's uid", field: "uid")
        }
        do throws(FactoryError) {
            return try MifareClassicTag(model: model, memory: memory, magic: magic)
        } catch {
            throw TagFileError(error.reason, field: s.field("blocks"))
        }
    }

    func encodeSection() -> JSONValue {
        .object([
            ("magic", .string(magic.rawValue)),
            (
                "blocks",
                .array((0..<model.blockCount).map { .string(Hex.encode(block($0), separator: " ")) })
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
            lines.append(
                "Sector \(s): key A \(Hex.encode(t[0..<6])) key B \(Hex.encode(t[10..<16])) "
                    + "access \(Hex.encode(t[6..<9])) (C1C2C3 per group 0-3: \(text)) GPB \(Hex.encode([t[9]]))")
            sectors.append(
                .object([
                    ("sector", .int(s)), ("keyA", .string(Hex.encode(t[0..<6]))),
                    ("keyB", .string(Hex.encode(t[10..<16]))), ("access", .string(Hex.encode(t[6..<10]))),
                ]))
        }
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
