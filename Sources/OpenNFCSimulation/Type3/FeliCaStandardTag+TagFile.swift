internal import OpenNFCBytes

/// The `felicaStandard` section of tag files for chip `felica-standard` (docs/TAG-FILES.md); the root `uid` is the
/// first system's IDm:
///
/// ```json
/// "felicaStandard": {
///   "pmm": "03 01 4B 02 4F 49 93 FF",
///   "systems": [
///     { "code": "0003", "idm": "01 …",
///       "areas": [{ "code": "0000", "end": "FFFE", "keyVersion": "0000" }],
///       "services": [{ "code": "090F", "keyVersion": "0000", "blocks": ["00 …", …] }] }
///   ]
/// }
/// ```
extension FeliCaStandardTag {
    static var tagFileChips: [TagFileChip] {
        [
            TagFileChip(
                name: "felica-standard", section: "felicaStandard",
                summary: "FeliCa Standard (systems, areas and services from the tag file; no NDEF)",
                uidPrefix: [0x01, 0x2E], uidLength: 8,
                factory: { uid, ndef throws(TagFileError) in
                    guard ndef == nil else {
                        throw TagFileError("a FeliCa Standard card carries no NDEF: give its systems in the file")
                    }
                    return FeliCaStandardTag.factory(idm: uid)
                },
                decode: { _, section, uid throws(TagFileError) in try FeliCaStandardTag.decode(section, idm: uid) },
                encode: { tag in (tag as? FeliCaStandardTag).map { $0.encodeSection() } },
                ndefMessage: { _ in nil },
                report: { tag in (tag as? FeliCaStandardTag)?.report })
        ]
    }

    /// What `tag new` makes: one system `0003`, area `0000`–`FFFE`, four 4-block services: `1009` random
    /// read/write, `100B` random read-only, `100D` cyclic read/write (all without key) and `1008` random with key.
    public static func factory(idm: [UInt8]) -> FeliCaStandardTag {
        let zeros = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: 4)
        return FeliCaStandardTag(systems: [
            System(
                code: 0x0003, idm: idm, areas: [Area(code: 0x0000, end: 0xFFFE)],
                services: [
                    Service(code: 0x1009, blocks: zeros), Service(code: 0x100B, blocks: zeros),
                    Service(code: 0x100D, blocks: zeros), Service(code: 0x1008, blocks: zeros),
                ])
        ])
    }

    static func code16(_ s: TagFileFields, _ key: String) throws(TagFileError) -> UInt16 {
        let b = try s.hex(key, count: 2)
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }

    /// The members a system, an area and a service object may have; any other is an error naming the node.
    static let systemKeys: Set<String> = ["code", "idm", "areas", "services"]
    static let areaKeys: Set<String> = ["code", "end", "keyVersion"]
    static let serviceKeys: Set<String> = ["code", "keyVersion", "blocks"]

    static func hex4(_ c: UInt16) -> String { Hex.encode([UInt8(c >> 8), UInt8(c & 0xFF)]) }

    /// Throws for the first member of `f` outside `known`, naming the system, area or service it sits in.
    static func rejectUnknown(_ f: TagFileFields, _ known: Set<String>, in node: String) throws(TagFileError) {
        for (key, _) in f.members where !known.contains(key) {
            throw TagFileError(
                "unknown field '\(key)' in \(node) (known: \(known.sorted().joined(separator: ", ")))",
                field: f.field(key))
        }
    }

    static func decode(_ s: TagFileFields, idm: [UInt8]) throws(TagFileError) -> FeliCaStandardTag {
        for (key, _) in s.members where key != "pmm" && key != "systems" {
            throw TagFileError("unknown field", field: s.field(key))
        }
        let pmm = try s.hex("pmm", count: 8)
        var systems: [System] = []
        let list = try s.array("systems")
        guard !list.isEmpty else { throw TagFileError("at least one system", field: s.field("systems")) }
        for (i, value) in list.enumerated() {
            let f = try TagFileFields(value, path: "\(s.field("systems"))[\(i)]")
            let system = "system \(hex4(try code16(f, "code")))"
            try rejectUnknown(f, systemKeys, in: system)
            var areas: [Area] = []
            for (j, a) in try f.array("areas").enumerated() {
                let af = try TagFileFields(a, path: "\(f.field("areas"))[\(j)]")
                try rejectUnknown(af, areaKeys, in: "area \(hex4(try code16(af, "code"))) of \(system)")
                areas.append(
                    Area(
                        code: try code16(af, "code"), end: try code16(af, "end"),
                        keyVersion: af.contains("keyVersion") ? try code16(af, "keyVersion") : 0))
            }
            var services: [Service] = []
            for (j, v) in try f.array("services").enumerated() {
                let sf = try TagFileFields(v, path: "\(f.field("services"))[\(j)]")
                try rejectUnknown(sf, serviceKeys, in: "service \(hex4(try code16(sf, "code"))) of \(system)")
                var blocks: [[UInt8]] = []
                for (k, b) in try sf.array("blocks").enumerated() {
                    let field = "\(sf.field("blocks"))[\(k)]"
                    guard let text = b.stringValue else { throw TagFileError("expected a hex string", field: field) }
                    blocks.append(try TagFileFields.hex(text, field: field, count: 16))
                }
                guard !blocks.isEmpty else {
                    throw TagFileError("a service has at least one block", field: sf.field("blocks"))
                }
                let code = try code16(sf, "code")
                guard !services.contains(where: { $0.code == code }) else {
                    throw TagFileError(
                        "service \(Hex.encode([UInt8(code >> 8), UInt8(code & 0xFF)])) twice", field: sf.field("code"))
                }
                services.append(
                    Service(
                        code: code, keyVersion: sf.contains("keyVersion") ? try code16(sf, "keyVersion") : 0,
                        blocks: blocks))
            }
            let sysIDm = i == 0 ? idm : try f.hex("idm", count: 8)
            if i == 0, f.contains("idm"), try f.hex("idm", count: 8) != idm {
                throw TagFileError("the first system's IDm is the file's uid", field: f.field("idm"))
            }
            systems.append(System(code: try code16(f, "code"), idm: sysIDm, areas: areas, services: services))
        }
        return FeliCaStandardTag(systems: systems, pmm: pmm)
    }

    func encodeSection() -> JSONValue {
        func code(_ c: UInt16) -> JSONValue { .string(Hex.encode([UInt8(c >> 8), UInt8(c & 0xFF)])) }
        return .object([
            ("pmm", .string(Hex.encode(pmm, separator: " "))),
            (
                "systems",
                .array(
                    systems.map { sys in
                        .object([
                            ("code", code(sys.code)), ("idm", .string(Hex.encode(sys.idm, separator: " "))),
                            (
                                "areas",
                                .array(
                                    sys.areas.map { a in
                                        .object([
                                            ("code", code(a.code)), ("end", code(a.end)),
                                            ("keyVersion", code(a.keyVersion)),
                                        ])
                                    })
                            ),
                            (
                                "services",
                                .array(
                                    sys.services.map { v in
                                        .object([
                                            ("code", code(v.code)), ("keyVersion", code(v.keyVersion)),
                                            (
                                                "blocks",
                                                .array(v.blocks.map { .string(Hex.encode($0, separator: " ")) })
                                            ),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    /// `opennfc tag show`: each system with its areas and services.
    var report: TagReport {
        func hex(_ c: UInt16) -> String { Hex.encode([UInt8(c >> 8), UInt8(c & 0xFF)]) }
        var lines = [
            "Product: FeliCa Standard, PMm \(Hex.encode(pmm)), \(systems.count) system\(systems.count == 1 ? "" : "s")"
        ]
        for sys in systems {
            lines.append("System \(hex(sys.code)): IDm \(Hex.encode(sys.idm))")
            for a in sys.areas { lines.append("  Area \(hex(a.code))-\(hex(a.end))") }
            for v in sys.services {
                let kind = v.isCyclic ? "cyclic" : v.isRandom ? "random" : v.isPurse ? "purse" : "other"
                let access = v.isReadOnly ? "read-only" : "read/write"
                lines.append(
                    "  Service \(hex(v.code)): \(kind), \(access), \(v.needsKey ? "key" : "no key"), \(v.blocks.count) blocks"
                )
                lines += MemoryMap(bytes: v.blocks.flatMap { $0 }, width: 16).lines(indent: "    ")
            }
        }
        return TagReport(
            lines: lines,
            json: [("pmm", .string(Hex.encode(pmm))), ("systems", .int(systems.count))],
            ndefAccess: "not NDEF formatted")
    }
}
