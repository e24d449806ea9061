internal import OpenNFCBytes

/// The `desfire` section of tag files for chip `desfire-ev1` (docs/TAG-FILES.md):
///
/// ```json
/// "desfire": {
///   "version": {"hardware": "04 01 01 01 00 18 05", "software": "04 01 01 01 04 18 05",
///               "batch": "BA 34 98 BA D0", "productionWeek": "29", "productionYear": "12"},
///   "applications": [
///     {"aid": "00 00 01", "keySettings": "0F", "keyCount": "21", "isoFileID": "E1 05",
///      "dfName": "D2 76 00 00 85 01 01",
///      "files": [{"number": 1, "isoFileID": "E1 03", "communication": "00", "accessRights": "EE EE",
///                 "data": ["00 0F 20 00 3B 00 34 04 06 E1 04 10 00 00 00"]}, …]}
///   ]
/// }
/// ```
///
/// AIDs are written as values, most significant byte first (`00 00 01` travels `01 00 00`); access rights as the
/// 16-bit value Read|Write|Read&Write|Change (`EE EE`: all free).
extension DESFireEV1Tag {
    static let sectionKeys: Set<String> = [
        "activation", "version", "masterKey", "applications", "keySettings", "configuration",
    ]
    static let configurationKeys: Set<String> = [
        "formatDisabled", "randomID", "defaultKey", "defaultKeyVersion", "ats",
    ]

    /// The `configuration` object (SetConfiguration), only what differs from the factory state.
    func configurationJSON() -> JSONValue {
        let c = configuration
        var m: [(String, JSONValue)] = []
        if c.formatDisabled { m.append(("formatDisabled", .bool(true))) }
        if c.randomID { m.append(("randomID", .bool(true))) }
        if c.defaultKey.contains(where: { $0 != 0 }) || c.defaultKeyVersion != 0 {
            m.append(("defaultKey", .string(Hex.encode(c.defaultKey, separator: " "))))
            m.append(("defaultKeyVersion", ISODEPTagFileCoding.byte(c.defaultKeyVersion)))
        }
        if let ats = c.ats { m.append(("ats", .string(Hex.encode(ats, separator: " ")))) }
        return .object(m)
    }

    static func decodeConfiguration(_ c: TagFileFields) throws(TagFileError) -> DESFireConfiguration {
        try ISODEPTagFileCoding.checkKeys(c, configurationKeys)
        var out = DESFireConfiguration()
        if c.contains("formatDisabled") { out.formatDisabled = try c.bool("formatDisabled") }
        if c.contains("randomID") { out.randomID = try c.bool("randomID") }
        if let k = try c.optionalHex("defaultKey", count: 24) { out.defaultKey = k }
        out.defaultKeyVersion = try ISODEPTagFileCoding.optionalByte(c, "defaultKeyVersion") ?? 0
        if let ats = try c.optionalHex("ats") {
            guard (2...20).contains(ats.count), Int(ats[0]) == ats.count else {
                throw TagFileError("an ATS starts with its length byte TL and has 2-20 bytes", field: c.field("ats"))
            }
            out.ats = ats
        }
        return out
    }

    static func keyJSON(_ k: DESFireKey) -> JSONValue {
        .object([
            ("type", .string(k.type.rawValue)), ("value", .string(Hex.encode(k.bytes, separator: " "))),
            ("version", ISODEPTagFileCoding.byte(k.version)),
        ])
    }

    static func decodeKey(_ value: JSONValue, path: String) throws(TagFileError) -> DESFireKey {
        let k = try TagFileFields(value, path: path)
        try ISODEPTagFileCoding.checkKeys(k, ["type", "value", "version"])
        let name = try k.string("type")
        guard let type = DESFireKey.KeyType(rawValue: name) else {
            throw TagFileError("key type must be des, 2k3des, 3k3des or aes, not '\(name)'", field: k.field("type"))
        }
        let bytes = try k.hex("value", count: type.length)
        let version = try ISODEPTagFileCoding.optionalByte(k, "version") ?? 0
        do throws(ISODEPCardError) {
            return try DESFireKey(type, bytes: bytes, version: version)
        } catch {
            throw TagFileError(error.reason, field: k.field("value"))
        }
    }

    static let fileKeys: Set<String> = [
        "number", "isoFileID", "communication", "accessRights", "type", "data", "value", "lowerLimit", "upperLimit",
        "limitedCredit", "freeGetValue", "limitedCreditValue", "recordSize", "maxRecords", "records",
    ]

    /// A file's type and contents: `data` for standard (the default, no `type`) and `backup` files; `value`,
    /// `lowerLimit`, `upperLimit`, `limitedCredit`, `freeGetValue`, `limitedCreditValue` for `value` files;
    /// `recordSize`, `maxRecords` and `records` (hex, oldest first) for `linear-record` and `cyclic-record` files.
    static func kindJSON(_ f: DESFireFile) -> [(String, JSONValue)] {
        typealias C = ISODEPTagFileCoding
        switch f.kind {
        case .standard: return [("data", C.data(f.contents))]
        case .backup: return [("type", .string("backup")), ("data", C.data(f.contents))]
        case .value(let lower, let upper, let limited, let free):
            return [
                ("type", .string("value")), ("value", .int(Int(f.value))), ("lowerLimit", .int(Int(lower))),
                ("upperLimit", .int(Int(upper))), ("limitedCredit", .bool(limited)), ("freeGetValue", .bool(free)),
                ("limitedCreditValue", .int(Int(f.limitedCreditValue))),
            ]
        case .linearRecord(let size, let most), .cyclicRecord(let size, let most):
            let cyclic = f.kind.typeByte == 0x04
            return [
                ("type", .string(cyclic ? "cyclic-record" : "linear-record")), ("recordSize", .int(size)),
                ("maxRecords", .int(most)),
                ("records", .array(f.records.map { .string(Hex.encode($0, separator: " ")) })),
            ]
        }
    }

    static func decodeKind(_ f: TagFileFields, into file: inout DESFireFile) throws(TagFileError) {
        typealias C = ISODEPTagFileCoding
        let type = try f.optionalString("type") ?? "standard"
        let int32 = Int(Int32.min)...Int(Int32.max)
        switch type {
        case "standard", "backup":
            file.kind = type == "backup" ? .backup : .standard
            file.contents = try C.data(f, "data")
        case "value":
            let lower = Int32(try f.int("lowerLimit", in: int32))
            let upper = Int32(try f.int("upperLimit", in: Int(lower)...Int(Int32.max)))
            file.kind = .value(
                lower: lower, upper: upper,
                limitedCredit: f.contains("limitedCredit") ? try f.bool("limitedCredit") : false,
                freeGetValue: f.contains("freeGetValue") ? try f.bool("freeGetValue") : false)
            file.value = Int32(try f.int("value", in: Int(lower)...Int(upper)))
            if f.contains("limitedCreditValue") {
                file.limitedCreditValue = Int32(try f.int("limitedCreditValue", in: 0...Int(Int32.max)))
            }
        case "linear-record", "cyclic-record":
            let size = try f.int("recordSize", in: 1...0xFF_FFFF)
            let cyclic = type == "cyclic-record"
            let most = try f.int("maxRecords", in: (cyclic ? 2 : 1)...0xFF_FFFF)
            file.kind =
                cyclic
                ? .cyclicRecord(recordSize: size, maxRecords: most) : .linearRecord(recordSize: size, maxRecords: most)
            let capacity = cyclic ? most - 1 : most
            if f.contains("records") {
                let rows = try f.array("records")
                guard rows.count <= capacity else {
                    throw TagFileError("\(rows.count) records, the file keeps \(capacity)", field: f.field("records"))
                }
                for (i, row) in rows.enumerated() {
                    let field = "\(f.field("records"))[\(i)]"
                    guard let text = row.stringValue else { throw TagFileError("expected a hex string", field: field) }
                    file.records.append(try TagFileFields.hex(text, field: field, count: size))
                }
            }
        default:
            throw TagFileError(
                "file type must be standard, backup, value, linear-record or cyclic-record, not '\(type)'",
                field: f.field("type"))
        }
    }

    /// The tag-file registry entry of chip `desfire-ev1`.
    static var tagFileChips: [TagFileChip] {
        [
            TagFileChip(
                name: "desfire-ev1", section: "desfire",
                summary: "MIFARE DESFire EV1 4K, NDEF-formatted as Android does it (application 000001, E103/E104)",
                factory: { uid, ndef throws(TagFileError) in
                    do throws(ISODEPCardError) {
                        return try DESFireEV1Tag.ndefFormatted(uid: uid, holding: ndef ?? [])
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in try DESFireEV1Tag.decode(section, uid: uid) },
                encode: { tag in (tag as? DESFireEV1Tag)?.encodeSection() },
                ndefMessage: { tag in
                    guard let m = (tag as? DESFireEV1Tag)?.ndefMessage, !m.isEmpty else { return nil }
                    return m
                },
                report: { tag in (tag as? DESFireEV1Tag)?.report })
        ]
    }

    func encodeSection() -> JSONValue {
        typealias C = ISODEPTagFileCoding
        let v = version
        let hex = { (b: [UInt8]) -> JSONValue in .string(Hex.encode(b, separator: " ")) }
        var extra: [(String, JSONValue)] = []
        if piccKeySettings != 0x0F { extra.append(("keySettings", C.byte(piccKeySettings))) }
        if !configuration.isFactory { extra.append(("configuration", configurationJSON())) }
        return .object(
            [
                ("activation", C.activation(realActivation)),
                ("masterKey", Self.keyJSON(masterKey)),
            ] + extra + [
                (
                    "version",
                    .object([
                        ("hardware", hex(v.hardware)), ("software", hex(v.software)), ("batch", hex(v.batch)),
                        ("productionWeek", C.byte(v.productionWeek)), ("productionYear", C.byte(v.productionYear)),
                    ])
                ),
                (
                    "applications",
                    .array(
                        applications.map { app in
                            var m: [(String, JSONValue)] = [
                                (
                                    "aid",
                                    hex([
                                        UInt8(app.aid >> 16 & 0xFF), UInt8(app.aid >> 8 & 0xFF), UInt8(app.aid & 0xFF),
                                    ])
                                ),
                                ("keySettings", C.byte(app.keySettings)),
                                ("keyCount", C.byte(app.keyCount)),
                            ]
                            if let fid = app.isoFileID { m.append(("isoFileID", C.uint16(fid))) }
                            if let name = app.dfName { m.append(("dfName", hex(name))) }
                            m.append(("keys", .array(app.keys.map(Self.keyJSON))))
                            m.append(
                                (
                                    "files",
                                    .array(
                                        app.files.map { f in
                                            var fm: [(String, JSONValue)] = [("number", .int(Int(f.number)))]
                                            if let fid = f.isoFileID { fm.append(("isoFileID", C.uint16(fid))) }
                                            fm += [
                                                ("communication", C.byte(f.communicationSettings)),
                                                ("accessRights", C.uint16(f.accessRights)),
                                            ]
                                            return .object(fm + Self.kindJSON(f))
                                        })
                                ))
                            return .object(m)
                        })
                ),
            ])
    }

    static func decode(_ s: TagFileFields, uid: [UInt8]) throws(TagFileError) -> DESFireEV1Tag {
        typealias C = ISODEPTagFileCoding
        try C.checkKeys(s, sectionKeys)
        var version = DESFireEV1Tag.Version()
        if s.contains("version") {
            let v = try s.object("version")
            try C.checkKeys(v, ["hardware", "software", "batch", "productionWeek", "productionYear"])
            if let b = try v.optionalHex("hardware", count: 7) { version.hardware = b }
            if let b = try v.optionalHex("software", count: 7) { version.software = b }
            if let b = try v.optionalHex("batch", count: 5) { version.batch = b }
            if let b = try C.optionalByte(v, "productionWeek") { version.productionWeek = b }
            if let b = try C.optionalByte(v, "productionYear") { version.productionYear = b }
        }
        var applications: [DESFireApplication] = []
        if s.contains("applications") {
            for (i, value) in try s.array("applications").enumerated() {
                let a = try TagFileFields(value, path: "\(s.field("applications"))[\(i)]")
                try C.checkKeys(a, ["aid", "keySettings", "keyCount", "isoFileID", "dfName", "files", "keys"])
                let aid = try a.hex("aid", count: 3)
                var app = DESFireApplication(aid: UInt32(aid[0]) << 16 | UInt32(aid[1]) << 8 | UInt32(aid[2]))
                if let b = try C.optionalByte(a, "keySettings") { app.keySettings = b }
                if let b = try C.optionalByte(a, "keyCount") { app.keyCount = b }
                if a.contains("keys") {
                    app.keys = []
                    for (j, k) in try a.array("keys").enumerated() {
                        app.keys.append(try Self.decodeKey(k, path: "\(a.field("keys"))[\(j)]"))
                    }
                } else {
                    app.keys = DESFireApplication(aid: app.aid, keyCount: app.keyCount).keys
                }
                app.isoFileID = try C.optionalUInt16(a, "isoFileID")
                app.dfName = try a.optionalHex("dfName")
                if a.contains("files") {
                    for (j, fileValue) in try a.array("files").enumerated() {
                        let f = try TagFileFields(fileValue, path: "\(a.field("files"))[\(j)]")
                        try C.checkKeys(f, Self.fileKeys)
                        var file = DESFireFile(
                            number: UInt8(try f.int("number", in: 0...31)),
                            isoFileID: try C.optionalUInt16(f, "isoFileID"),
                            communicationSettings: try C.optionalByte(f, "communication") ?? 0,
                            accessRights: try C.optionalUInt16(f, "accessRights") ?? 0xEEEE, contents: [])
                        try Self.decodeKind(f, into: &file)
                        app.files.append(file)
                    }
                }
                applications.append(app)
            }
        }
        var master = DESFireKey.zero(.des)
        if let v = s.value("masterKey") { master = try Self.decodeKey(v, path: s.field("masterKey")) }
        let tag: DESFireEV1Tag
        do throws(ISODEPCardError) {
            tag = try DESFireEV1Tag(uid: uid, applications: applications, version: version, masterKey: master)
        } catch {
            throw TagFileError(error.reason, field: s.field("applications"))
        }
        tag.activation = try C.activation(s, over: tag.activation)
        if let b = try C.optionalByte(s, "keySettings") { tag.piccKeySettings = b }
        if s.contains("configuration") {
            tag.configuration = try Self.decodeConfiguration(try s.object("configuration"))
        }
        return tag
    }
}
