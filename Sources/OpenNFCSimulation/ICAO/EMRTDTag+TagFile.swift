internal import Foundation
internal import OpenNFCBytes

/// The `emrtd` section of tag files for chips `passport` and `id-card` (docs/TAG-FILES.md):
///
/// ```json
/// "emrtd": {
///   "activation": {"technology": "nfcB", "applicationData": "00 00 00 00", "protocolInfo": "00 81 75"},
///   "testKeys": "TEST keys generated for this virtual document: they prove nothing about a real one",
///   "can": "123456", "paceOnly": false, "pace": ["GM-AES-128-13"],
///   "chipAuthentication": {"cipher": "AES-128", "privateKey": ["30 81 …"]},
///   "activeAuthentication": {"privateKey": ["30 82 …"]},
///   "pki": {"cscaCertificate": [...], "cscaPrivateKey": [...], "documentSignerCertificate": [...],
///           "documentSignerPrivateKey": [...]},
///   "faults": ["cloned"],
///   "files": {"EF.CardAccess": [...], "EF.ATR/INFO": [...], "EF.COM": [...], "DG1": [...], …, "EF.SOD": [...]}
/// }
/// ```
///
/// The files are kept byte for byte (a fault's effect included), so the signature of EF.SOD survives the round
/// trip; the MRZ BAC and PACE use is DG1's.
extension EMRTDTag {
    static let testKeysNote = "TEST keys generated for this virtual document: they prove nothing about a real one"

    /// The registry entries of chips `passport` (TD3, NFC-B) and `id-card` (TD1, NFC-A): ICAO's specimen
    /// documents unless `tag new` gives holder data.
    static var tagFileChips: [TagFileChip] {
        [EMRTDDocument.Kind.passport, .idCard].map { kind in
            TagFileChip(
                name: kind.rawValue, section: "emrtd",
                summary: kind == .passport
                    ? "ICAO 9303 eMRTD passport (TD3; BAC, PACE, SM, CA, AA; TEST keys), NFC-B"
                    : "ICAO 9303 eMRTD ID card (TD1; BAC, PACE, SM, CA, AA; TEST keys), NFC-A",
                uidPrefix: [0x08], uidLength: 4,
                factory: { uid, ndef throws(TagFileError) in
                    guard ndef == nil else { throw TagFileError("a \(kind.rawValue) holds LDS files, not NDEF") }
                    return try specimen(kind, uid: uid)
                },
                decode: { _, section, uid throws(TagFileError) in try decode(section, uid: uid) },
                encode: { tag in (tag as? EMRTDTag)?.encodeSection() },
                ndefMessage: { _ in nil },
                report: { tag in (tag as? EMRTDTag)?.report })
        }
    }

    /// Today's date (UTC) for certificate validity.
    package static func today() -> EMRTDTestPKI.Day {
        let t = DERTime(secondsSince1970: Int(Date().timeIntervalSince1970))
        return EMRTDTestPKI.Day(year: t.year, month: t.month, day: t.day)
    }

    /// ICAO's specimen document of `kind`, issued today under a fresh test PKI.
    static func specimen(_ kind: EMRTDDocument.Kind, uid: [UInt8]) throws(TagFileError) -> EMRTDTag {
        var options = EMRTDIssueOptions(kind: kind, today: today())
        options.can = "123456"
        let document: EMRTDDocument
        do throws(EMRTDIssueError) {
            document = try EMRTDIssuer.issue(kind, holder: .specimen(kind), options: options)
        } catch {
            throw TagFileError(error.reason)
        }
        do throws(ISODEPCardError) {
            return EMRTDTag(document: document, activation: try defaultActivation(kind: kind, uid: uid))
        } catch {
            throw TagFileError(error.reason, field: "uid")
        }
    }

    func encodeSection() -> JSONValue {
        typealias C = ISODEPTagFileCoding
        let d = document
        var members: [(String, JSONValue)] = [
            ("activation", C.activation(activation)), ("testKeys", .string(Self.testKeysNote)),
        ]
        if let can = d.can { members.append(("can", .string(can))) }
        members.append(("paceOnly", .bool(d.paceOnly)))
        members.append(("pace", .array(d.pace.map { .string($0.name) })))
        if let key = d.chipAuthenticationKey {
            members.append(
                (
                    "chipAuthentication",
                    .object([("cipher", .string(d.chipAuthenticationCipher.rawValue)), ("privateKey", C.data(key))])
                ))
        }
        if let key = d.activeAuthenticationKey {
            members.append(("activeAuthentication", .object([("privateKey", C.data(key))])))
        }
        members.append(
            (
                "pki",
                .object([
                    ("cscaCertificate", C.data(d.pki.cscaCertificate)),
                    ("cscaPrivateKey", C.data(d.pki.cscaPrivateKey)),
                    ("documentSignerCertificate", C.data(d.pki.documentSignerCertificate)),
                    ("documentSignerPrivateKey", C.data(d.pki.documentSignerPrivateKey)),
                ])
            ))
        members.append(("faults", .array(d.faults.sorted().map { .string($0.rawValue) })))
        members.append(("files", .object(d.files.keys.sorted().map { ($0.description, C.data(d.files[$0] ?? [])) })))
        return .object(members)
    }

    static func decode(_ s: TagFileFields, uid: [UInt8]) throws(TagFileError) -> EMRTDTag {
        typealias C = ISODEPTagFileCoding
        try C.checkKeys(
            s,
            [
                "activation", "testKeys", "can", "paceOnly", "pace", "chipAuthentication", "activeAuthentication",
                "pki", "faults", "files",
            ])
        var files: [LDSFile: [UInt8]] = [:]
        let f = try s.object("files")
        for (name, _) in f.members {
            guard let file = LDSFile(named: name) else {
                throw TagFileError(
                    "unknown file (use EF.CardAccess, EF.ATR/INFO, EF.COM, EF.SOD, DG1…DG16)", field: f.field(name))
            }
            files[file] = try C.data(f, name)
        }
        for needed in [LDSFile.com, .sod, .dataGroup(1)] where files[needed] == nil {
            throw TagFileError("missing \(needed)", field: f.path)
        }
        var pace: [PACEProtocol] = []
        for (i, value) in (s.contains("pace") ? try s.array("pace") : []).enumerated() {
            guard let name = value.stringValue, let p = PACEProtocol(name: name) else {
                throw TagFileError(
                    "expected a PACE protocol such as GM-AES-128-13 (GM, 3DES or AES-128/192/256, parameter 8–18)",
                    field: "\(s.field("pace"))[\(i)]")
            }
            pace.append(p)
        }
        var faults: Set<EMRTDFault> = []
        for (i, value) in (s.contains("faults") ? try s.array("faults") : []).enumerated() {
            guard let name = value.stringValue, let fault = EMRTDFault(rawValue: name) else {
                throw TagFileError(
                    "unknown fault (use " + EMRTDFault.allCases.map(\.rawValue).joined(separator: ", ") + ")",
                    field: "\(s.field("faults"))[\(i)]")
            }
            faults.insert(fault)
        }
        var caKey: [UInt8]?
        var caCipher = SMCipherName.aes128
        if s.contains("chipAuthentication") {
            let ca = try s.object("chipAuthentication")
            try C.checkKeys(ca, ["cipher", "privateKey"])
            let name = try ca.string("cipher")
            guard let cipher = SMCipherName(rawValue: name) else {
                throw TagFileError("expected 3DES, AES-128, AES-192 or AES-256", field: ca.field("cipher"))
            }
            caCipher = cipher
            caKey = try C.data(ca, "privateKey")
        }
        var aaKey: [UInt8]?
        if s.contains("activeAuthentication") {
            let aa = try s.object("activeAuthentication")
            try C.checkKeys(aa, ["privateKey"])
            aaKey = try C.data(aa, "privateKey")
        }
        let p = try s.object("pki")
        try C.checkKeys(
            p, ["cscaCertificate", "cscaPrivateKey", "documentSignerCertificate", "documentSignerPrivateKey"])
        let pki = EMRTDTestPKI(
            cscaCertificate: try C.data(p, "cscaCertificate"), cscaPrivateKey: try C.data(p, "cscaPrivateKey"),
            documentSignerCertificate: try C.data(p, "documentSignerCertificate"),
            documentSignerPrivateKey: try C.data(p, "documentSignerPrivateKey"))
        let can = try s.optionalString("can")
        if let can, !(can.count == 6 && can.allSatisfy({ $0.isASCII && $0.isNumber })) {
            throw TagFileError("a card access number has 6 digits", field: s.field("can"))
        }
        let probe = EMRTDDocument(
            kind: .passport, files: files, can: nil, paceOnly: false, pace: [], activeAuthenticationKey: nil,
            chipAuthenticationKey: nil, pki: pki)
        guard let mrz = probe.mrz else {
            throw TagFileError(
                "DG1 does not hold a valid MRZ (61 { 5F1F <88 or 90 characters> })", field: f.field("DG1"))
        }
        let kind: EMRTDDocument.Kind = mrz.format == .td3 ? .passport : .idCard
        let document = EMRTDDocument(
            kind: kind, files: files, can: can, paceOnly: try C.bool(s, "paceOnly", default: false), pace: pace,
            activeAuthenticationKey: aaKey, chipAuthenticationKey: caKey, chipAuthenticationCipher: caCipher,
            pki: pki, faults: faults)
        var typeB = kind == .passport
        if s.contains("activation") {
            typeB = try s.object("activation").optionalString("technology") == "nfcB"
        }
        let base: VirtualActivation
        do throws(ISODEPCardError) {
            base = try defaultActivation(kind: kind, uid: uid, typeB: typeB)
        } catch {
            throw TagFileError(error.reason, field: "uid")
        }
        return EMRTDTag(document: document, activation: try C.activation(s, over: base))
    }
}
