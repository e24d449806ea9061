internal import OpenNFCBytes

/// The `type2` section of tag files (docs/TAG-FILES.md):
///
/// ```json
/// "type2": {
///   "pages": ["04 01 02 8F", "03 04 05 06", …],   // every page, PWD/PACK as stored
///   "signature": "00 … 00",                        // READ_SIG answer, 32 bytes
///   "counters": [0, 0, 0],                         // EV1 counters 0-2; NTAG21x NFC counter at index 2
///   "tearingFlags": "BD BD BD",
///   "failedAuthentications": 0,
///   "password": "FF FF FF FF", "pack": "00 00"     // chips with PWD_AUTH; override the PWD/PACK pages
///   "key": "49 45 … 46"                            // Ultralight C: the 3DES key k0…k15; overrides pages 2Ch–2Fh
/// }
/// ```
extension Type2Tag {
    static let sectionKeys: Set<String> = [
        "pages", "signature", "counters", "tearingFlags", "failedAuthentications", "password", "pack", "key",
    ]

    /// Tag-file registry entries for every Type 2 profile.
    static var tagFileChips: [TagFileChip] {
        Type2ChipProfile.all.map { profile in
            TagFileChip(
                name: profile.name, section: "type2",
                summary: "\(profile.displayName) (Type 2, \(profile.userBytes) bytes user memory)",
                factory: { uid, ndef throws(TagFileError) in
                    do throws(FactoryError) {
                        if let ndef { return try Type2Tag.factory(profile, uid: uid, holding: ndef) }
                        return try Type2Tag.factory(profile, uid: uid)
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in
                    try Type2Tag.decode(profile, section, uid: uid)
                },
                encode: { tag in (tag as? Type2Tag).map { $0.encodeSection() } },
                ndefMessage: { tag in (tag as? Type2Tag)?.ndefMessage },
                report: { tag in (tag as? Type2Tag)?.report })
        }
    }

    static func decode(_ profile: Type2ChipProfile, _ s: TagFileFields, uid: [UInt8]) throws(TagFileError) -> Type2Tag {
        for (key, _) in s.members where !sectionKeys.contains(key) {
            throw TagFileError("unknown field", field: s.field(key))
        }
        let memory = try s.hexList("pages", count: profile.pageCount, size: 4, owner: profile.displayName)
        guard Array(memory[0..<3]) + Array(memory[4..<8]) == uid else {
            throw TagFileError(
                "pages 0-1 hold UID \(Hex.encode(memory[0..<3] + memory[4..<8])), not the file's uid",
                field: "uid")
        }
        let tag = Type2Tag(unchecked: profile, memory: memory)
        if let sig = try s.optionalHex("signature", count: 32) { tag.signature = sig }
        if s.contains("counters") {
            let a = try s.array("counters")
            guard a.count == 3 else { throw TagFileError("expected 3 counters", field: s.field("counters")) }
            for (i, v) in a.enumerated() {
                guard let n = v.intValue, (0...0xFF_FFFF).contains(n) else {
                    throw TagFileError("expected a 24-bit counter value", field: "\(s.field("counters"))[\(i)]")
                }
                tag.counters[i] = UInt32(n)
            }
        }
        if let flags = try s.optionalHex("tearingFlags", count: 3) { tag.tearingFlags = flags }
        if s.contains("failedAuthentications") {
            tag.failedAuthentications = try s.int("failedAuthentications", in: 0...7)
        }
        for (key, count, page) in [("password", 4, profile.pwdPage), ("pack", 2, profile.packPage)] {
            guard let bytes = try s.optionalHex(key, count: count) else { continue }
            guard let page else {
                throw TagFileError("\(profile.displayName) has no password", field: s.field(key))
            }
            for (i, b) in bytes.enumerated() { tag.memory[page * 4 + i] = b }
        }
        if let key = try s.optionalHex("key", count: 16) {
            do throws(FactoryError) {
                try tag.setUltralightCKey(key)
            } catch {
                throw TagFileError(error.reason, field: s.field("key"))
            }
            tag.reset()
        }
        return tag
    }

    func encodeSection() -> JSONValue {
        var members: [(String, JSONValue)] = [
            (
                "pages",
                .array(
                    (0..<profile.pageCount).map { p in
                        .string(Hex.encode(memory[p * 4..<p * 4 + 4], separator: " "))
                    })
            ),
            ("signature", .string(Hex.encode(signature, separator: " "))),
            ("counters", .array(counters.map { .int(Int($0)) })),
            ("tearingFlags", .string(Hex.encode(tearingFlags, separator: " "))),
            ("failedAuthentications", .int(failedAuthentications)),
        ]
        if let key = ultralightCKeyPages {
            members.append(("key", .string(Hex.encode(key, separator: " "))))
        }
        if let pwd = profile.pwdPage, let pack = profile.packPage {
            members.append(("password", .string(Hex.encode(memory[pwd * 4..<pwd * 4 + 4], separator: " "))))
            members.append(("pack", .string(Hex.encode(memory[pack * 4..<pack * 4 + 2], separator: " "))))
        }
        return .object(members)
    }
}
