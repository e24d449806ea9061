internal import OpenNFCBytes

/// The `type5` section of tag files (docs/TAG-FILES.md):
///
/// ```json
/// "type5": {
///   "blocks": ["E1 40 0E 01", "03 00 FE 00", …],   // every block
///   "lockedBlocks": [0, 1],                        // blocks locked with Lock Block
///   "dsfid": "00", "afi": "00", "dsfidLocked": false, "afiLocked": false
/// }
/// ```
extension ISO15693Tag {
    static let sectionKeys: Set<String> = ["blocks", "lockedBlocks", "dsfid", "afi", "dsfidLocked", "afiLocked"]

    /// Tag-file registry entries for every ISO 15693 profile.
    static var tagFileChips: [TagFileChip] {
        ISO15693ChipProfile.all.map { profile in
            TagFileChip(
                name: profile.name, section: "type5",
                summary: "\(profile.displayName) (Type 5, \(profile.blockCount) blocks of \(profile.blockSize) bytes)",
                uidPrefix: profile.uidPrefix, uidLength: 8,
                factory: { uid, ndef throws(TagFileError) in
                    do throws(ISO15693TagError) {
                        return try ISO15693Tag.factory(profile, uid: uid, holding: ndef ?? [])
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in try ISO15693Tag.decode(profile, section, uid: uid) },
                encode: { tag in (tag as? ISO15693Tag).map { $0.encodeSection() } },
                ndefMessage: { tag in (tag as? ISO15693Tag)?.ndefMessage },
                report: { tag in (tag as? ISO15693Tag)?.report })
        }
    }

    static func decode(_ profile: ISO15693ChipProfile, _ s: TagFileFields, uid: [UInt8]) throws(TagFileError)
        -> ISO15693Tag
    {
        for (key, _) in s.members where !sectionKeys.contains(key) {
            throw TagFileError("unknown field", field: s.field(key))
        }
        let blocks = try s.array("blocks")
        guard blocks.count == profile.blockCount else {
            throw TagFileError(
                "\(profile.displayName) has \(profile.blockCount) blocks, found \(blocks.count)",
                field: s.field("blocks"))
        }
        var memory: [UInt8] = []
        memory.reserveCapacity(profile.blockCount * profile.blockSize)
        for (i, block) in blocks.enumerated() {
            let field = "\(s.field("blocks"))[\(i)]"
            guard let text = block.stringValue else { throw TagFileError("expected a hex string", field: field) }
            memory += try TagFileFields.hex(text, field: field, count: profile.blockSize)
        }
        let tag: ISO15693Tag
        do throws(ISO15693TagError) {
            tag = try ISO15693Tag(profile: profile, uid: uid, memory: memory)
        } catch {
            throw TagFileError(error.reason, field: "uid")
        }
        if s.contains("lockedBlocks") {
            for (i, v) in try s.array("lockedBlocks").enumerated() {
                guard let n = v.intValue, (0..<profile.blockCount).contains(n) else {
                    throw TagFileError(
                        "expected a block number 0-\(profile.blockCount - 1)", field: "\(s.field("lockedBlocks"))[\(i)]"
                    )
                }
                tag.lockedBlocks.insert(n)
            }
        }
        if let d = try s.optionalHex("dsfid", count: 1) { tag.dsfid = d[0] }
        if let a = try s.optionalHex("afi", count: 1) { tag.afi = a[0] }
        if s.contains("dsfidLocked") { tag.dsfidLocked = try s.bool("dsfidLocked") }
        if s.contains("afiLocked") { tag.afiLocked = try s.bool("afiLocked") }
        return tag
    }

    func encodeSection() -> JSONValue {
        let n = profile.blockSize
        return .object([
            (
                "blocks",
                .array(
                    (0..<profile.blockCount).map { b in .string(Hex.encode(memory[b * n..<(b + 1) * n], separator: " "))
                    })
            ),
            ("lockedBlocks", .array(lockedBlocks.sorted().map { .int($0) })),
            ("dsfid", .string(Hex.encode([dsfid]))), ("afi", .string(Hex.encode([afi]))),
            ("dsfidLocked", .bool(dsfidLocked)), ("afiLocked", .bool(afiLocked)),
        ])
    }
}
