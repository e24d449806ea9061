internal import OpenNFCBytes

/// The `felica` section of tag files for chip `felica-lite-s` (docs/TAG-FILES.md); the root `uid` is the IDm:
///
/// ```json
/// "felica": {
///   "pmm": "00 F1 00 00 00 01 43 00",
///   "blocks": ["10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 23", …],   // S_PAD0–S_PAD13 and REG (15 blocks)
///   "id": "00 00 00 00 00 00 00 00",                                   // ID block bytes 8–15
///   "serC": "0B 00 …", "sysC": "88 B4 …", "ckv": "00 …", "ck": "00 …", "mc": "FF FF FF 01 07 …",
///   "writeCount": 0
/// }
/// ```
extension FeliCaLiteSTag {
    static let sectionKeys: Set<String> = ["pmm", "blocks", "id", "serC", "sysC", "ckv", "ck", "mc", "writeCount"]

    /// The tag-file registry entry.
    static var tagFileChips: [TagFileChip] {
        [
            TagFileChip(
                name: "felica-lite-s", section: "felica",
                summary: "FeliCa Lite-S RC-S966 (Type 3, 13 NDEF blocks, system codes 88B4 and 12FC)",
                uidPrefix: [0x01, 0x2E], uidLength: 8,
                factory: { uid, ndef throws(TagFileError) in
                    do throws(FactoryError) {
                        if let ndef { return try FeliCaLiteSTag.factory(idm: uid, holding: ndef) }
                        return try FeliCaLiteSTag.factory(idm: uid)
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in try FeliCaLiteSTag.decode(section, idm: uid) },
                encode: { tag in (tag as? FeliCaLiteSTag).map { $0.encodeSection() } },
                ndefMessage: { tag in (tag as? FeliCaLiteSTag)?.ndefMessage },
                report: { tag in (tag as? FeliCaLiteSTag)?.report })
        ]
    }

    static func decode(_ s: TagFileFields, idm: [UInt8]) throws(TagFileError) -> FeliCaLiteSTag {
        for (key, _) in s.members where !sectionKeys.contains(key) {
            throw TagFileError("unknown field", field: s.field(key))
        }
        let blocks = try s.array("blocks")
        guard blocks.count == 15 else {
            throw TagFileError(
                "a FeliCa Lite-S has 15 user blocks (S_PAD0-13, REG), found \(blocks.count)",
                field: s.field("blocks"))
        }
        var user: [[UInt8]] = []
        for (i, block) in blocks.enumerated() {
            let field = "\(s.field("blocks"))[\(i)]"
            guard let text = block.stringValue else { throw TagFileError("expected a hex string", field: field) }
            user.append(try TagFileFields.hex(text, field: field, count: 16))
        }
        let tag = FeliCaLiteSTag(
            idm: idm, pmm: try s.hex("pmm", count: 8), user: user, idData: try s.hex("id", count: 8),
            serC: try s.hex("serC", count: 16), sysC: try s.hex("sysC", count: 16), ckv: try s.hex("ckv", count: 16),
            ck: try s.hex("ck", count: 16), mc: try s.hex("mc", count: 16),
            writeCount: try s.int("writeCount", in: 0...0xFF_FFFF))
        return tag
    }

    func encodeSection() -> JSONValue {
        func hex(_ b: [UInt8]) -> JSONValue { .string(Hex.encode(b, separator: " ")) }
        return .object([
            ("pmm", hex(pmm)), ("blocks", .array(user.map(hex))), ("id", hex(idData)), ("serC", hex(serC)),
            ("sysC", hex(sysC)), ("ckv", hex(ckv)), ("ck", hex(ck)), ("mc", hex(mc)), ("writeCount", .int(writeCount)),
        ])
    }

    /// The decoded view for `opennfc tag show`: PMm, system codes, MC, the attribute block.
    var report: TagReport {
        var lines: [String] = [
            "Product: FeliCa Lite-S (RC-S966), IDm \(Hex.encode(idm)), PMm \(Hex.encode(pmm))",
            "System codes: \(systemCodesAfterPowerUp.map { Hex.encode([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }.joined(separator: ", "))",
            "MC: \(Hex.encode(mc, separator: " ")) (system blocks \(mc[2] == 0xFF ? "writable" : "read-only"), "
                + "write counter \(writeCount))",
        ]
        let info = attributeInformation
        if let info {
            lines.append(
                "Attribute block: \(Hex.encode(user[0], separator: " ")): Nbr \(info.nbr), Nbw \(info.nbw), "
                    + "Nmaxb \(info.nmaxb), WriteF \(Hex.encode([info.writeF])), RW \(Hex.encode([info.rw])), "
                    + "Ln \(info.ln)")
        } else {
            lines.append("Attribute block: \(Hex.encode(user[0], separator: " ")) (not NDEF formatted)")
        }
        let writable = (0..<15).filter { b in (Int(mc[0]) | Int(mc[1]) << 8) >> b & 1 != 0 }
        lines.append(
            "Writable user blocks: \(writable.count == 15 ? "all" : writable.map(String.init).joined(separator: " "))")
        // The one memory map: the blocks by number with their names (FeliCa Lite-S User's Manual §3.2); CK as the
        // tag file holds it (a card never reads it back).
        lines.append("Memory:")
        lines += MemoryMap(
            rows: Self.mapBlocks.compactMap { b, name in
                let bytes = b == 0x87 ? ck : blockData(b)
                let note = b == 0 && info != nil ? "S_PAD0, NDEF attribute information" : name
                return bytes.map { MemoryMap.Row(number: b, bytes: $0, note: note) }
            }, rowWidth: 16
        ).lines(indent: "  ")
        let formatted = info != nil && mc[3] & 0x01 != 0
        let readOnly = info?.rw == 0x00 || (Int(mc[0]) | Int(mc[1]) << 8) & 0x3FFF != 0x3FFF
        return TagReport(
            lines: lines,
            json: [
                ("idm", .string(Hex.encode(idm))), ("pmm", .string(Hex.encode(pmm))),
                ("mc", .string(Hex.encode(mc))), ("writeCount", .int(writeCount)),
                ("attributeBlock", .string(Hex.encode(user[0]))),
            ],
            ndefAccess: !formatted ? "not NDEF formatted" : readOnly ? "read-only" : "read/write")
    }

    /// The blocks of the memory map and their names (FeliCa Lite-S User's Manual §3.2).
    static let mapBlocks: [(Int, String)] =
        [(0, "S_PAD0 (user blocks S_PAD0-13)")] + (1..<14).map { ($0, "") } + [
            (0x0E, "REG"), (0x82, "ID"), (0x83, "D_ID"), (0x84, "SER_C"), (0x85, "SYS_C"), (0x86, "CKV"),
            (0x87, "CK (never read back from a card)"), (0x88, "MC"), (0x90, "WCNT"), (0x92, "STATE"),
        ]

    /// The system codes the card will answer after its next power-up (from the stored MC).
    var systemCodesAfterPowerUp: [UInt16] { mc[3] & 0x01 != 0 ? [nativeCode, Self.ndefSystemCode] : [nativeCode] }
}
