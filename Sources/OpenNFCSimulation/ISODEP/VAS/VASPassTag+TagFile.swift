internal import OpenNFCBytes

/// The `vas` section of tag files for chip `vas-pass` (docs/TAG-FILES.md):
///
/// ```json
/// "vas": {
///   "activation": {"atqa": "00 04", "sak": "20", "ats": "05 78 80 70 02"},
///   "passes": [
///     {"passTypeIdentifier": "pass.com.example.loyalty", "vasData": "6D31…", "mobileToken": "0102", "status": "62 87"}
///   ]
/// }
/// ```
///
/// `vasData` and `mobileToken` are hex (or arrays of hex rows); `mobileToken` and `status` are optional (`status`
/// answers that status word instead of the data, e.g. `62 87` for a pass that is not activated).
extension VASPassTag {
    /// The tag-file registry entry of chip `vas-pass`.
    static var tagFileChips: [TagFileChip] {
        [
            TagFileChip(
                name: "vas-pass", section: "vas",
                summary: "Apple Wallet pass holder answering VAS terminals (OSE.VAS.01; no NDEF)", uidPrefix: [0x08],
                uidLength: 4,
                factory: { uid, ndef throws(TagFileError) in
                    guard ndef == nil else { throw TagFileError("a vas-pass holds passes, not an NDEF message") }
                    do throws(ISODEPCardError) {
                        return try VASPassTag(uid: uid, passes: [])
                    } catch {
                        throw TagFileError(error.reason)
                    }
                },
                decode: { _, section, uid throws(TagFileError) in try VASPassTag.decode(section, uid: uid) },
                encode: { tag in (tag as? VASPassTag)?.encodeSection() },
                ndefMessage: { _ in nil })
        ]
    }

    func encodeSection() -> JSONValue {
        .object([
            ("activation", ISODEPTagFileCoding.activation(activation)),
            (
                "passes",
                .array(
                    passes.map { p in
                        var members: [(String, JSONValue)] = [
                            ("passTypeIdentifier", .string(p.passTypeIdentifier)),
                            ("vasData", ISODEPTagFileCoding.data(p.vasData)),
                            ("mobileToken", ISODEPTagFileCoding.data(p.mobileToken)),
                        ]
                        if let s = p.status { members.append(("status", ISODEPTagFileCoding.uint16(s))) }
                        return .object(members)
                    })
            ),
        ])
    }

    static func decode(_ s: TagFileFields, uid: [UInt8]) throws(TagFileError) -> VASPassTag {
        typealias C = ISODEPTagFileCoding
        try C.checkKeys(s, ["activation", "passes"])
        var passes: [Pass] = []
        for (i, value) in try s.array("passes").enumerated() {
            let p = try TagFileFields(value, path: "\(s.field("passes"))[\(i)]")
            try C.checkKeys(p, ["passTypeIdentifier", "vasData", "mobileToken", "status"])
            let id = try p.string("passTypeIdentifier")
            guard !id.isEmpty else {
                throw TagFileError("empty pass type identifier", field: p.field("passTypeIdentifier"))
            }
            passes.append(
                Pass(
                    passTypeIdentifier: id, vasData: try C.data(p, "vasData"),
                    mobileToken: p.contains("mobileToken") ? try C.data(p, "mobileToken") : [],
                    status: try C.optionalUInt16(p, "status")))
        }
        let tag: VASPassTag
        do throws(ISODEPCardError) {
            tag = try VASPassTag(uid: uid, passes: passes)
        } catch {
            throw TagFileError(error.reason, field: s.path)
        }
        tag.activation = try C.activation(s, over: tag.activation)
        return tag
    }
}
