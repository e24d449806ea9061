internal import OpenNFCBytes

/// The `mifarePlus` section of tag files (docs/TAG-FILES.md); the root `uid` is the chip's 7-byte UID or 4-byte NUID
/// (chip names ending `-4b`):
///
/// ```json
/// "mifarePlus": {
///   "securityLevel": 3,                               // 0, 1 or 3
///   "blocks": ["04 11 22 33 44 55 66 08 44 00 …", …], // 128 (2K) or 256 (4K) blocks; SL1 trailers hold Crypto1 keys
///   "keys": {"4000": "FF…FF", "4001": "??", …, "9000": "…"}, // every AES key; "??" = unknown (a dump did not learn it)
///   "configuration": {"B000": "00…", …},              // B000–B003
///   "personalised": ["9000", "9001", "9003"],         // SL0: what WritePerso wrote (CommitPerso checks it)
///   "signature": "…",                                 // Read_Sig: 56 bytes
///   "production": "5A504C55531226"                    // GetVersion: batch (5), week, year
/// }
/// ```
///
/// SL1 trailers may write a Crypto1 key as `?? ?? ?? ?? ?? ??` as in the `mifareClassic` section.
extension MIFAREPlusTag {
    /// Tag-file registry entries: EV1 and EV2, 2K and 4K, 7-byte UID and 4-byte NUID (`-4b`).
    static var tagFileChips: [TagFileChip] {
        MIFAREPlusModel.allCases.map { model in
            TagFileChip(
                name: model.chip, section: "mifarePlus",
                summary:
                    "\(model.displayName) (AES, SL0/SL1/SL3; \(model.sectorCount) sectors, \(model.blockCount * 16) "
                    + "bytes); a new one is in SL0 as NXP ships it",
                uidPrefix: model.uidLength == 7 ? [0x04] : [0x0F], uidLength: model.uidLength,
                factory: { uid, ndef throws(TagFileError) in
                    guard ndef == nil else {
                        throw TagFileError(
                            "a new \(model.chip) is in security level 0 and holds no NDEF message; write its "
                                + "'mifarePlus' section (docs/TAG-FILES.md) to start it personalised")
                    }
                    do throws(FactoryError) {
                        return try MIFAREPlusTag(model: model, uid: uid)
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in try decode(model, section, uid: uid) },
                encode: { tag in
                    guard let t = tag as? MIFAREPlusTag, t.model == model else { return nil }
                    return t.encodeSection()
                },
                ndefMessage: { _ in nil },
                report: { tag in (tag as? MIFAREPlusTag)?.report })
        }
    }

    static func decode(_ model: MIFAREPlusModel, _ s: TagFileFields, uid: [UInt8]) throws(TagFileError)
        -> MIFAREPlusTag
    {
        let known = ["securityLevel", "blocks", "keys", "configuration", "personalised", "signature", "production"]
        for (key, _) in s.members where !known.contains(key) {
            throw TagFileError("unknown field", field: s.field(key))
        }
        let level = try s.int("securityLevel", in: 0...3)
        guard level != 2 else {
            throw TagFileError("a MIFARE Plus EV1/EV2 has security levels 0, 1 and 3", field: s.field("securityLevel"))
        }
        let tag: MIFAREPlusTag
        do throws(FactoryError) {
            tag = try MIFAREPlusTag(model: model, uid: uid, securityLevel: UInt8(level))
        } catch {
            throw TagFileError(error.reason, field: "uid")
        }
        var unknownClassic: Set<MifareClassicTag.KeySlot> = []
        let memory = try s.hexList("blocks", count: model.blockCount, size: 16, owner: "a \(model.chip)") {
            text, i, field throws(TagFileError) in
            guard text.contains("?") else { return nil }
            let (bytes, slots) = try MifareClassicTag.unknownKeyBlock(text, block: i, field: field)
            unknownClassic.formUnion(slots)
            return bytes
        }
        let block0 = Array(memory[0..<16])
        guard Array(block0.prefix(uid.count)) == uid else {
            throw TagFileError(
                "block 0 holds UID \(Hex.encode(block0.prefix(uid.count))), not the file's uid",
                field: s.field("blocks"))
        }
        tag.classic.memory.replaceSubrange(0..<memory.count, with: memory)
        tag.classic.unknownKeys.formUnion(unknownClassic)
        if s.contains("keys") {
            let keys = try s.object("keys")
            for (name, value) in keys.members {
                let field = keys.field(name)
                guard let address = UInt16(name, radix: 16), name.count == 4, tag.keys[address] != nil else {
                    throw TagFileError("\(model.chip) has no AES key \(name)", field: field)
                }
                guard let text = value.stringValue else {
                    throw TagFileError("expected a hex string or ??", field: field)
                }
                if text == "??" {
                    tag.unknownKeys.insert(address)
                    tag.keys[address] = [UInt8](repeating: 0, count: 16)
                } else {
                    tag.keys[address] = try TagFileFields.hex(text, field: field, count: 16)
                }
            }
        }
        if s.contains("configuration") {
            let configuration = try s.object("configuration")
            for (name, value) in configuration.members {
                let field = configuration.field(name)
                guard let address = UInt16(name, radix: 16), name.count == 4, tag.configuration[address] != nil else {
                    throw TagFileError("the configuration blocks are B000–B003, not \(name)", field: field)
                }
                guard let text = value.stringValue else { throw TagFileError("expected a hex string", field: field) }
                tag.configuration[address] = try TagFileFields.hex(text, field: field, count: 16)
            }
        }
        var personalised: Set<UInt16> = []
        if s.contains("personalised") {
            for (i, entry) in try s.array("personalised").enumerated() {
                let field = "\(s.field("personalised"))[\(i)]"
                guard let text = entry.stringValue, let a = UInt16(text, radix: 16), tag.isPersonalisable(a) else {
                    throw TagFileError("expected an address WritePerso can write (\"9000\")", field: field)
                }
                personalised.insert(a)
            }
        }
        tag.restoreState(
            signature: try s.optionalHex("signature", count: 56), production: try s.optionalHex("production", count: 7),
            personalised: personalised)
        return tag
    }

    func encodeSection() -> JSONValue {
        let classicText = classic
        var members: [(String, JSONValue)] = [
            ("securityLevel", .int(Int(securityLevel))),
            ("blocks", .array((0..<model.blockCount).map { .string(classicText.blockText($0)) })),
            (
                "keys",
                .object(
                    model.keyAddresses.map { a in
                        (Self.addressText(a), .string(unknownKeys.contains(a) ? "??" : Hex.encode(keys[a] ?? [])))
                    })
            ),
            (
                "configuration",
                .object(
                    MIFAREPlusModel.configurationAddresses.map {
                        (Self.addressText($0), .string(Hex.encode(configuration[$0] ?? [])))
                    })
            ),
        ]
        if securityLevel == 0 && !personalised.isEmpty {
            members.append(("personalised", .array(personalised.sorted().map { .string(Self.addressText($0)) })))
        }
        members.append(("signature", .string(Hex.encode(signature))))
        members.append(("production", .string(Hex.encode(production))))
        return .object(members)
    }
}
