internal import OpenNFCBytes

/// JSON helpers shared by the Type 4 and DESFire tag-file sections (docs/TAG-FILES.md): file contents as rows of
/// 16 hex bytes, single bytes and 16-bit values as hex strings, the activation object.
enum ISODEPTagFileCoding {
    static let rowLength = 16

    /// File contents as an array of hex rows of 16 bytes (the last may be shorter); empty contents give `[]`.
    static func data(_ bytes: [UInt8]) -> JSONValue {
        .array(
            stride(from: 0, to: bytes.count, by: rowLength).map {
                .string(Hex.encode(bytes[$0..<min($0 + rowLength, bytes.count)], separator: " "))
            })
    }

    /// File contents from a hex string or an array of hex strings (concatenated).
    static func data(_ s: TagFileFields, _ key: String) throws(TagFileError) -> [UInt8] {
        let value = try s.require(key)
        if value.stringValue != nil { return try s.hex(key) }
        guard let rows = value.arrayValue else {
            throw TagFileError("expected hex text or an array of hex rows", field: s.field(key))
        }
        var out: [UInt8] = []
        for (i, row) in rows.enumerated() {
            let field = "\(s.field(key))[\(i)]"
            guard let text = row.stringValue else { throw TagFileError("expected a hex string", field: field) }
            out += try TagFileFields.hex(text, field: field)
        }
        return out
    }

    static func byte(_ b: UInt8) -> JSONValue { .string(Hex.encode([b])) }

    static func byte(_ s: TagFileFields, _ key: String) throws(TagFileError) -> UInt8 {
        try s.hex(key, count: 1)[0]
    }

    static func optionalByte(_ s: TagFileFields, _ key: String) throws(TagFileError) -> UInt8? {
        s.contains(key) ? try byte(s, key) : nil
    }

    /// A 16-bit value written big-endian as 4 hex digits (`"E1 04"`).
    static func uint16(_ v: UInt16) -> JSONValue {
        .string(Hex.encode([UInt8(v >> 8), UInt8(v & 0xFF)], separator: " "))
    }

    static func uint16(_ s: TagFileFields, _ key: String) throws(TagFileError) -> UInt16 {
        let b = try s.hex(key, count: 2)
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }

    static func optionalUInt16(_ s: TagFileFields, _ key: String) throws(TagFileError) -> UInt16? {
        s.contains(key) ? try uint16(s, key) : nil
    }

    static func bool(_ s: TagFileFields, _ key: String, default d: Bool) throws(TagFileError) -> Bool {
        s.contains(key) ? try s.bool(key) : d
    }

    /// Rejects members not in `known`.
    static func checkKeys(_ s: TagFileFields, _ known: Set<String>) throws(TagFileError) {
        for (key, _) in s.members where !known.contains(key) {
            throw TagFileError("unknown field", field: s.field(key))
        }
    }

    /// `{"atqa": "03 44", "sak": "20", "ats": "06 77 …"}`, or for a Type B card
    /// `{"technology": "nfcB", "applicationData": "00 00 00 00", "protocolInfo": "00 81 75"}` (the PUPI is the UID).
    static func activation(_ a: VirtualActivation) -> JSONValue {
        if case .nfcB(let b) = a.air {
            return .object([
                ("technology", .string("nfcB")),
                ("applicationData", .string(Hex.encode(b.applicationData, separator: " "))),
                ("protocolInfo", .string(Hex.encode(b.protocolInfo, separator: " "))),
            ])
        }
        var members: [(String, JSONValue)] = [
            ("atqa", uint16(a.sensRes ?? 0)), ("sak", byte(a.selRes ?? 0)),
        ]
        if let ats = a.ats { members.append(("ats", .string(Hex.encode(ats, separator: " ")))) }
        return .object(members)
    }

    /// Applies an optional `activation` member over `base`; the ATS must have its TL byte equal to its length.
    static func activation(_ s: TagFileFields, over base: VirtualActivation) throws(TagFileError) -> VirtualActivation {
        guard s.contains("activation") else { return base }
        let a = try s.object("activation")
        if a.contains("technology") || base.technology == .nfcB {
            guard try a.optionalString("technology") ?? "nfcB" == "nfcB", base.technology == .nfcB else {
                throw TagFileError(
                    "\"technology\": \"nfcB\" belongs to chip type4b (an NFC-B card); type4 is NFC-A",
                    field: a.field("technology"))
            }
            try checkKeys(a, ["technology", "applicationData", "protocolInfo"])
            let app = try a.optionalHex("applicationData") ?? [0x00, 0x00, 0x00, 0x00]
            let info = try a.optionalHex("protocolInfo") ?? Type4Tag.defaultTypeBProtocolInfo
            do throws(ISODEPCardError) {
                return try Type4Tag.typeBActivation(pupi: base.uid, applicationData: app, protocolInfo: info)
            } catch {
                throw TagFileError(error.reason, field: a.path)
            }
        }
        try checkKeys(a, ["atqa", "sak", "ats"])
        var out = base
        if let atqa = try optionalUInt16(a, "atqa") { out.sensRes = atqa }
        if let sak = try optionalByte(a, "sak") { out.selRes = sak }
        if let ats = try a.optionalHex("ats") {
            guard let tl = ats.first, Int(tl) == ats.count, ats.count >= 2 else {
                throw TagFileError("an ATS starts with its length byte TL (and has T0)", field: a.field("ats"))
            }
            out.ats = ats
        }
        return out
    }
}
