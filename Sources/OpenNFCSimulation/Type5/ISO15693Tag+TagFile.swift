internal import OpenNFCBytes

/// The `type5` section of tag files (docs/TAG-FILES.md):
///
/// ```json
/// "type5": {
///   "blocks": ["E1 40 0E 01", "03 00 FE 00", …],   // every block
///   "lockedBlocks": [0, 1],                        // blocks locked with Lock Block
///   "dsfid": "00", "afi": "00", "dsfidLocked": false, "afiLocked": false,
///   "nxp": { "passwords": {"easAfi": "00000000", …}, "lockedPasswords": [], "privacy": false, … },  // ICODE
///   "st25dv": { "configuration": "88 03 01 …", "passwords": ["0000000000000000", …] }           // ST25DV
/// }
/// ```
///
/// `nxp` and `st25dv` are optional (absent: factory state); docs/TAG-FILES.md lists their members.
extension ISO15693Tag {
    static let sectionKeys: Set<String> = [
        "blocks", "lockedBlocks", "dsfid", "afi", "dsfidLocked", "afiLocked", "nxp", "st25dv",
    ]
    static let nxpKeys: Set<String> = [
        "passwords", "lockedPasswords", "privacy", "destroyed", "eas", "easLocked", "easId", "easProtected",
        "afiProtected", "protectionPointer", "protectionCondition", "protectionLocked", "password64", "signature",
    ]

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
        if s.contains("nxp") {
            guard profile.custom == .icodeSLIX || profile.custom == .icodeSLIX2 else {
                throw TagFileError("\(profile.displayName) is not an NXP ICODE chip", field: s.field("nxp"))
            }
            try decodeNXP(tag, try s.object("nxp"))
        }
        if s.contains("st25dv") {
            guard profile.custom == .st25dv else {
                throw TagFileError("\(profile.displayName) is not an ST25DV", field: s.field("st25dv"))
            }
            let o = try s.object("st25dv")
            for (key, _) in o.members where key != "configuration" && key != "passwords" {
                throw TagFileError("unknown field", field: o.field(key))
            }
            if let c = try o.optionalHex("configuration", count: 16) { tag.st25.configuration = c }
            if o.contains("passwords") {
                let list = try o.array("passwords")
                guard list.count == 4 else {
                    throw TagFileError(
                        "expected 4 passwords (RF_PWD_0-3), found \(list.count)", field: o.field("passwords"))
                }
                for (i, v) in list.enumerated() {
                    let field = "\(o.field("passwords"))[\(i)]"
                    guard let text = v.stringValue else { throw TagFileError("expected a hex string", field: field) }
                    tag.st25.passwords[i] = try TagFileFields.hex(text, field: field, count: 8)
                }
            }
            tag.st25.powerOn()
        }
        return tag
    }

    static func decodeNXP(_ tag: ISO15693Tag, _ o: TagFileFields) throws(TagFileError) {
        for (key, _) in o.members where !nxpKeys.contains(key) {
            throw TagFileError("unknown field", field: o.field(key))
        }
        let names = NXPState.passwordNames.filter { tag.nxp.passwords[$0.id] != nil }
        if o.contains("passwords") {
            let pw = try o.object("passwords")
            for (key, _) in pw.members where !names.contains(where: { $0.name == key }) {
                throw TagFileError(
                    "\(tag.profile.displayName) has no such password (it has \(names.map(\.name).joined(separator: ", ")))",
                    field: pw.field(key))
            }
            for (id, name) in names {
                if let v = try pw.optionalHex(name, count: 4) { tag.nxp.passwords[id] = v }
            }
        }
        if o.contains("lockedPasswords") {
            for (i, v) in try o.array("lockedPasswords").enumerated() {
                guard let name = v.stringValue, let id = names.first(where: { $0.name == name })?.id else {
                    throw TagFileError(
                        "expected a password name (\(names.map(\.name).joined(separator: ", ")))",
                        field: "\(o.field("lockedPasswords"))[\(i)]")
                }
                tag.nxp.lockedPasswords.insert(id)
            }
        }
        let slix2 = tag.profile.custom == .icodeSLIX2
        func flag(_ key: String, slix2Only: Bool = false) throws(TagFileError) -> Bool? {
            guard o.contains(key) else { return nil }
            let v = try o.bool(key)
            if slix2Only && !slix2 && v {
                throw TagFileError(
                    "\(tag.profile.displayName) has no such feature (ICODE SLIX2 only)", field: o.field(key))
            }
            return v
        }
        if let v = try flag("privacy", slix2Only: true) { tag.nxp.privacy = v }
        if let v = try flag("destroyed", slix2Only: true) { tag.nxp.destroyed = v }
        if let v = try flag("eas") { tag.nxp.eas = v }
        if let v = try flag("easLocked") { tag.nxp.easLocked = v }
        if let v = try flag("easProtected") { tag.nxp.easProtected = v }
        if let v = try flag("afiProtected") { tag.nxp.afiProtected = v }
        if let v = try flag("protectionLocked", slix2Only: true) { tag.nxp.protectionLocked = v }
        if let v = try flag("password64", slix2Only: true) { tag.nxp.password64 = v }
        if let v = try o.optionalHex("easId", count: 2) { tag.nxp.easID = v }
        if let v = try o.optionalHex("protectionPointer", count: 1) { tag.nxp.protectionPointer = v[0] }
        if let v = try o.optionalHex("protectionCondition", count: 1) { tag.nxp.protectionCondition = v[0] }
        if let v = try o.optionalHex("signature", count: 32) {
            guard slix2 else {
                throw TagFileError(
                    "\(tag.profile.displayName) has no originality signature", field: o.field("signature"))
            }
            tag.nxp.signature = v
        }
    }

    func encodeNXP() -> JSONValue {
        let names = NXPState.passwordNames.filter { nxp.passwords[$0.id] != nil }
        var members: [(String, JSONValue)] = [
            ("passwords", .object(names.map { ($0.name, .string(Hex.encode(nxp.passwords[$0.id]!))) })),
            (
                "lockedPasswords",
                .array(names.filter { nxp.lockedPasswords.contains($0.id) }.map { .string($0.name) })
            ),
            ("eas", .bool(nxp.eas)), ("easLocked", .bool(nxp.easLocked)), ("easId", .string(Hex.encode(nxp.easID))),
            ("easProtected", .bool(nxp.easProtected)), ("afiProtected", .bool(nxp.afiProtected)),
        ]
        if profile.custom == .icodeSLIX2 {
            members += [
                ("privacy", .bool(nxp.privacy)), ("destroyed", .bool(nxp.destroyed)),
                ("protectionPointer", .string(Hex.encode([nxp.protectionPointer]))),
                ("protectionCondition", .string(Hex.encode([nxp.protectionCondition]))),
                ("protectionLocked", .bool(nxp.protectionLocked)), ("password64", .bool(nxp.password64)),
                ("signature", .string(Hex.encode(nxp.signature))),
            ]
        }
        return .object(members)
    }

    func encodeSection() -> JSONValue {
        let n = profile.blockSize
        var custom: [(String, JSONValue)] = []
        switch profile.custom {
        case .icodeSLIX, .icodeSLIX2: custom = [("nxp", encodeNXP())]
        case .st25dv:
            custom = [
                (
                    "st25dv",
                    .object([
                        ("configuration", .string(Hex.encode(st25.configuration, separator: " "))),
                        ("passwords", .array(st25.passwords.map { .string(Hex.encode($0)) })),
                    ])
                )
            ]
        case .none: break
        }
        return .object(
            [
                (
                    "blocks",
                    .array(
                        (0..<profile.blockCount).map { b in
                            .string(Hex.encode(memory[b * n..<(b + 1) * n], separator: " "))
                        })
                ),
                ("lockedBlocks", .array(lockedBlocks.sorted().map { .int($0) })),
                ("dsfid", .string(Hex.encode([dsfid]))), ("afi", .string(Hex.encode([afi]))),
                ("dsfidLocked", .bool(dsfidLocked)), ("afiLocked", .bool(afiLocked)),
            ] + custom)
    }
}
