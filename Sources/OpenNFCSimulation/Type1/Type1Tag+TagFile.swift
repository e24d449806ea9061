internal import OpenNFCBytes

/// The `type1` section of tag files (docs/TAG-FILES.md); the root `uid` is UID0–UID3, what RID reports:
///
/// ```json
/// "type1": {
///   "blocks": ["01 02 03 04 05 06 07 00", "E1 10 3F 00 01 03 F2 30", …]   // every 8-byte block, UID block included
/// }
/// ```
extension Type1Tag {
    /// Tag-file registry entries for every Type 1 profile.
    static var tagFileChips: [TagFileChip] {
        Type1ChipProfile.all.map { profile in
            TagFileChip(
                name: profile.name, section: "type1",
                summary: "\(profile.displayName) (Type 1, \(profile.memorySize) bytes memory)", uidPrefix: [],
                uidLength: 4, newUIDLengths: [7, 4],
                factory: { uid, ndef throws(TagFileError) in
                    do throws(FactoryError) {
                        if let ndef { return try Type1Tag.factory(profile, uid: uid, holding: ndef) }
                        return try Type1Tag.factory(profile, uid: uid)
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in
                    try Type1Tag.decode(profile, section, uid: uid)
                },
                encode: { tag in (tag as? Type1Tag).map { $0.encodeSection() } },
                ndefMessage: { tag in (tag as? Type1Tag)?.ndefMessage },
                report: { tag in (tag as? Type1Tag)?.report })
        }
    }

    static func decode(_ profile: Type1ChipProfile, _ s: TagFileFields, uid: [UInt8]) throws(TagFileError) -> Type1Tag {
        for (key, _) in s.members where key != "blocks" {
            throw TagFileError("unknown field", field: s.field(key))
        }
        let blocks = try s.array("blocks")
        guard blocks.count == profile.blockCount else {
            throw TagFileError(
                "\(profile.displayName) has \(profile.blockCount) blocks, found \(blocks.count)",
                field: s.field("blocks"))
        }
        var memory: [UInt8] = []
        memory.reserveCapacity(profile.memorySize)
        for (i, block) in blocks.enumerated() {
            let field = "\(s.field("blocks"))[\(i)]"
            guard let text = block.stringValue else { throw TagFileError("expected a hex string", field: field) }
            memory += try TagFileFields.hex(text, field: field, count: 8)
        }
        guard Array(memory[0..<4]) == uid else {
            throw TagFileError("block 0 holds UID0-UID3 \(Hex.encode(memory[0..<4])), not the file's uid", field: "uid")
        }
        return Type1Tag(unchecked: profile, memory: memory)
    }

    func encodeSection() -> JSONValue {
        .object([
            (
                "blocks",
                .array(
                    (0..<profile.blockCount).map { b in .string(Hex.encode(memory[b * 8..<b * 8 + 8], separator: " ")) }
                )
            )
        ])
    }

    /// The decoded view for `opennfc tag show`: header ROM, CC, TLVs, locked blocks and the memory map.
    var report: TagReport {
        var lines: [String] = []
        var json: [(String, JSONValue)] = []
        lines.append(
            "Product: \(profile.displayName), \(profile.blockCount) blocks (\(profile.memorySize) bytes), "
                + "HR0 \(Hex.encode([profile.hr0])) HR1 \(Hex.encode([profile.hr1])), UID0-6 \(Hex.encode(uid))")
        json += [
            ("product", .string(profile.displayName)), ("blocks", .int(profile.blockCount)),
            ("hr0", .string(Hex.encode([profile.hr0]))), ("hr1", .string(Hex.encode([profile.hr1]))),
            ("uid7", .string(Hex.encode(uid))),
        ]
        let cc = memory[8..<12]
        if isNDEFFormatted {
            lines.append(
                "Capability container: \(Hex.encode(cc, separator: " ")): NDEF mapping \(cc[9] >> 4).\(cc[9] & 0x0F), "
                    + "\((Int(cc[10]) + 1) * 8)-byte memory, read access \(cc[11] >> 4), write access \(cc[11] & 0x0F)")
        } else {
            lines.append("Capability container: \(Hex.encode(cc, separator: " ")) (not NDEF formatted)")
        }
        json.append(("cc", .string(Hex.encode(cc))))
        let tlvs = self.tlvs
        var i = 0
        while i < tlvs.count {
            let t = tlvs[i]
            // A run of NULL TLVs (one padding byte each, NFC Forum T1T §2.3.1) is one line, not one per byte.
            var last = i
            while t.type == 0x00, last + 1 < tlvs.count, tlvs[last + 1].type == 0x00 { last += 1 }
            if last > i {
                lines.append("NULL TLVs (00h) at bytes \(t.offset)–\(tlvs[last].offset): \(last - i + 1) padding bytes")
                i = last + 1
                continue
            }
            lines.append(
                "TLV \(Hex.encode([t.type]))h at byte \(t.offset): \(t.value.count) bytes"
                    + (t.value.isEmpty ? "" : " \(Hex.encode(t.value.prefix(16), separator: " "))")
                    + (t.value.count > 16 ? " …" : ""))
            i += 1
        }
        json.append(
            (
                "tlvs",
                .array(
                    tlvs.map { t in
                        .object([
                            ("type", .int(Int(t.type))), ("offset", .int(t.offset)), ("length", .int(t.value.count)),
                        ])
                    })
            ))
        let locked = (1..<profile.blockCount).filter { isLocked(block: $0) }
        lines.append(
            "Locked blocks: "
                + (locked.isEmpty ? "none" : locked.map { Hex.encode([UInt8($0)]) + "h" }.joined(separator: " ")))
        json.append(("lockedBlocks", .array(locked.map { .int($0) })))
        // The one memory map (blocks in hex, Topaz datasheet §7 roles, identical blocks collapsed into `*`).
        lines.append("Memory:")
        lines += MemoryMap(
            bytes: memory, width: 8,
            note: { b in
                switch b {
                case 0: "UID0-6, reserved"
                case 1: "CC, data"
                case 0x0D: "reserved"
                case 0x0E: "LOCK0-1, OTP0-5"
                case 0x0F: "reserved, dynamic lock bytes"
                default: ""
                }
            }
        ).lines(indent: "  ")
        let access = !isNDEFFormatted ? "not NDEF formatted" : isNDEFReadOnly ? "read-only" : "read/write"
        return TagReport(lines: lines, json: json, ndefAccess: access)
    }
}
