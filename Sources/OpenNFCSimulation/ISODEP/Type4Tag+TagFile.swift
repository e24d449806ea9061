internal import OpenNFCBytes

/// The `iso7816` section of tag files for chip `type4` (docs/TAG-FILES.md):
///
/// ```json
/// "iso7816": {
///   "activation": {"atqa": "03 44", "sak": "20", "ats": "06 77 77 71 02 80"},
///   "mappingVersion": "20", "mle": 255, "mlc": 255, "extendedLength": false, "answersBothNDEFNames": true,
///   "ccFile": {"writeAccess": "FF", "data": ["00 0F 20 00 FF 00 FF 04 06 E1 04 10 00 00 00"]},
///   "ndefFile": {"id": "E1 04", "readAccess": "00", "writeAccess": "00", "data": ["00 0E D1 01 …", …]}
/// }
/// ```
///
/// Without `ccFile` and `ndefFile` the card hosts no NDEF application. `"pace": true` makes the card advertise PACE
/// (EF.CardAccess in the MF, ``Type4Configuration/paceCardAccess``). `mappingVersion`, `mle` and `mlc` are the
/// card's behaviour; the CC file data is what it stores (a reader may have rewritten it). Applets are Swift code
/// and are not stored: install them after loading (``Type4Tag/install(_:)``).
extension Type4Tag {
    static let sectionKeys: Set<String> = [
        "activation", "mappingVersion", "mle", "mlc", "extendedLength", "answersBothNDEFNames", "ccFile",
        "ndefFile", "pace",
    ]

    /// The tag-file registry entries of chips `type4` (NFC-A) and `type4b` (NFC-B, identified by its PUPI).
    static var tagFileChips: [TagFileChip] {
        let ndefMessage: @Sendable (any VirtualTag) -> [UInt8]? = { tag in
            guard let t = tag as? Type4Tag, t.configuration.hostsNDEFApplication, !t.ndefMessage.isEmpty
            else { return nil }
            return t.ndefMessage
        }
        return [
            TagFileChip(
                name: "type4", section: "iso7816",
                summary: "NFC Forum Type 4 Tag (ISO-DEP, mapping 2.0, NDEF file E104 of 4096 bytes)",
                factory: { uid, ndef throws(TagFileError) in
                    do throws(ISODEPCardError) {
                        return try Type4Tag.factory(uid: uid, holding: ndef ?? [])
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in try Type4Tag.decode(section, uid: uid) },
                encode: { tag in (tag as? Type4Tag)?.encodeSection() },
                ndefMessage: ndefMessage, report: { tag in (tag as? Type4Tag)?.report }),
            TagFileChip(
                name: "type4b", section: "iso7816",
                summary: "NFC Forum Type 4 Tag on NFC-B (ISO-DEP type B: ATQB, ATTRIB; 4-byte PUPI as the UID)",
                uidPrefix: [], uidLength: 4,
                factory: { uid, ndef throws(TagFileError) in
                    do throws(ISODEPCardError) {
                        return try Type4Tag.typeB(pupi: uid, holding: ndef ?? [])
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in try Type4Tag.decode(section, uid: uid, typeB: true) },
                encode: { tag in (tag as? Type4Tag)?.encodeSection() }, ndefMessage: ndefMessage,
                report: { tag in (tag as? Type4Tag)?.report }),
        ]
    }

    func encodeSection() -> JSONValue {
        let c = configuration
        var members: [(String, JSONValue)] = [
            ("activation", ISODEPTagFileCoding.activation(activation)),
            ("mappingVersion", ISODEPTagFileCoding.byte(c.mappingVersion)),
            ("mle", .int(c.mle)),
            ("mlc", .int(c.mlc)),
            ("extendedLength", .bool(c.extendedLength)),
            ("answersBothNDEFNames", .bool(c.answersBothNDEFNames)),
        ]
        if c.supportsPACE { members.append(("pace", .bool(true))) }
        if c.hostsNDEFApplication {
            let access = ndefAccess
            members.append(
                (
                    "ccFile",
                    .object([
                        ("writeAccess", ISODEPTagFileCoding.byte(c.ccWriteAccess)),
                        ("data", ISODEPTagFileCoding.data(capabilityContainerFile)),
                    ])
                ))
            members.append(
                (
                    "ndefFile",
                    .object([
                        ("id", ISODEPTagFileCoding.uint16(c.ndefFileID)),
                        ("readAccess", ISODEPTagFileCoding.byte(access.read)),
                        ("writeAccess", ISODEPTagFileCoding.byte(access.write)),
                        ("data", ISODEPTagFileCoding.data(ndefFile)),
                    ])
                ))
        }
        return .object(members)
    }

    static func decode(_ s: TagFileFields, uid: [UInt8], typeB: Bool = false) throws(TagFileError) -> Type4Tag {
        typealias C = ISODEPTagFileCoding
        try C.checkKeys(s, sectionKeys)
        var c = Type4Configuration()
        if let v = try C.optionalByte(s, "mappingVersion") { c.mappingVersion = v }
        if s.contains("mle") { c.mle = try s.int("mle", in: 0...0xFFFF) }
        if s.contains("mlc") { c.mlc = try s.int("mlc", in: 0...0xFFFF) }
        c.extendedLength = try C.bool(s, "extendedLength", default: false)
        c.answersBothNDEFNames = try C.bool(s, "answersBothNDEFNames", default: true)
        c.supportsPACE = try C.bool(s, "pace", default: false)
        guard s.contains("ccFile") == s.contains("ndefFile") else {
            throw TagFileError("give both 'ccFile' and 'ndefFile', or neither (no NDEF application)", field: s.path)
        }
        c.hostsNDEFApplication = s.contains("ndefFile")
        var ccData: [UInt8]?
        var ndefData: [UInt8] = []
        if c.hostsNDEFApplication {
            let cc = try s.object("ccFile")
            try C.checkKeys(cc, ["writeAccess", "data"])
            if let w = try C.optionalByte(cc, "writeAccess") { c.ccWriteAccess = w }
            let ccBytes = try C.data(cc, "data")
            let ccSize = c.usesExtendedNDEFFile ? 17 : 15
            guard ccBytes.count == ccSize else {
                let which = c.usesExtendedNDEFFile ? " of mapping 3.0 (ENDEF File Control TLV)" : ""
                throw TagFileError(
                    "the CC file\(which) has \(ccSize) bytes, found \(ccBytes.count)", field: cc.field("data"))
            }
            ccData = ccBytes
            let n = try s.object("ndefFile")
            try C.checkKeys(n, ["id", "readAccess", "writeAccess", "data"])
            if let id = try C.optionalUInt16(n, "id") { c.ndefFileID = id }
            if let r = try C.optionalByte(n, "readAccess") { c.readAccess = r }
            if let w = try C.optionalByte(n, "writeAccess") { c.writeAccess = w }
            ndefData = try C.data(n, "data")
            c.ndefFileSize = ndefData.count
        }
        let tag: Type4Tag
        do throws(ISODEPCardError) {
            tag = try Type4Tag(uid: uid, configuration: c, ndefFile: ndefData)
        } catch {
            throw TagFileError(error.reason, field: s.path)
        }
        if typeB {
            do throws(ISODEPCardError) {
                tag.activation = try Type4Tag.typeBActivation(pupi: uid)
            } catch {
                throw TagFileError(error.reason, field: "uid")
            }
        }
        tag.activation = try C.activation(s, over: tag.activation)
        if let ccData { tag.restoreCapabilityContainer(ccData) }
        return tag
    }
}
