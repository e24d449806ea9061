import OpenNFCBytes
import OpenNFCSimulation

/// `tag new --chip passport|id-card`: the holder's data, the access secrets, the PKI and the faults of a virtual
/// eMRTD (docs/PASSPORT.md). Without holder data the chip is ICAO's specimen document.
extension Commands {
    static let passportOptions: [Command.Option] = [
        .init(
            name: "mrz", value: "<text>",
            help: "passport/id-card: the whole MRZ, 88 (TD3) or 90 (TD1) characters, lines joined or on separate lines."
        ),
        .init(
            name: "document-number", value: "<text>", help: "passport/id-card: document number (with the fields below)."
        ),
        .init(name: "surname", value: "<text>", help: "passport/id-card: surname."),
        .init(name: "given-names", value: "<text>", help: "passport/id-card: given names."),
        .init(name: "nationality", value: "<AAA>", help: "passport/id-card: nationality, 3 letters (default UTO)."),
        .init(
            name: "issuing-state", value: "<AAA>", help: "passport/id-card: issuing state (default: the nationality)."),
        .init(name: "date-of-birth", value: "<YYMMDD>", help: "passport/id-card: date of birth."),
        .init(name: "date-of-expiry", value: "<YYMMDD>", help: "passport/id-card: date of expiry."),
        .init(name: "sex", value: "<M|F|<>", help: "passport/id-card: sex (default <, unspecified)."),
        .init(
            name: "photo", value: "<file.jpg>",
            help: "passport/id-card: the JPEG face for DG2 (default: a test portrait)."),
        .init(
            name: "can", value: "<6 digits>", help: "passport/id-card: card access number for PACE (default 123456)."),
        .init(name: "pace-only", help: "passport/id-card: refuse BAC (6A 88), as recent PACE-only documents do."),
        .init(
            name: "pki", value: "<dir>", help: "passport/id-card: sign under this PKI (opennfc passport pki -o DIR)."),
        .init(
            name: "fault", value: "<fault>",
            help: "passport/id-card: " + EMRTDFault.allCases.map(\.rawValue).joined(separator: "|") + ".",
            repeatable: true),
        .init(
            name: "nfc", value: "<a|b>", help: "passport/id-card: technology (default b for passport, a for id-card)."),
    ]

    static let passportFieldNames = [
        "document-number", "surname", "given-names", "nationality", "issuing-state", "date-of-birth",
        "date-of-expiry", "sex",
    ]

    /// The eMRTD `tag new` asked for, or nil when the chip is not `passport`/`id-card` (its options are then refused).
    static func passportTag(_ inv: Invocation, chip: String, uid: [UInt8]) throws -> (any VirtualTag)? {
        let given = (passportOptions.map(\.name)).filter { inv.value($0) != nil || inv.flag($0) }
        guard let kind = EMRTDDocument.Kind(rawValue: chip) else {
            if let first = given.first { throw CLIError.usage("--\(first) applies to --chip passport or id-card only") }
            return nil
        }
        var holder = EMRTDHolder.specimen(kind)
        let fields = passportFieldNames.filter { inv.value($0) != nil }
        if let text = inv.value("mrz") {
            guard fields.isEmpty else { throw CLIError.usage("give --mrz or the fields (--\(fields[0])), not both") }
            do {
                holder = EMRTDHolder(mrz: try MRZ(parsing: text))
            } catch {
                throw CLIError.usage("--mrz: \(error)")
            }
        } else if !fields.isEmpty {
            for needed in ["document-number", "surname", "date-of-birth", "date-of-expiry"]
            where inv.value(needed) == nil {
                throw CLIError.usage("--\(needed) is needed with the holder fields (or give --mrz)")
            }
            let nationality = (inv.value("nationality") ?? "UTO").uppercased()
            holder = EMRTDHolder(
                mrz: MRZ(
                    format: kind == .passport ? .td3 : .td1,
                    issuingState: (inv.value("issuing-state") ?? nationality).uppercased(),
                    surname: (inv.value("surname") ?? "").uppercased(),
                    givenNames: (inv.value("given-names") ?? "").uppercased(),
                    documentNumber: (inv.value("document-number") ?? "").uppercased(), nationality: nationality,
                    dateOfBirth: inv.value("date-of-birth") ?? "", sex: (inv.value("sex") ?? "<").uppercased(),
                    dateOfExpiry: inv.value("date-of-expiry") ?? ""))
        }
        if let path = inv.value("photo") { holder.photo = try InputFile.bytes(path, what: "photo") }
        var options = EMRTDIssueOptions(kind: kind, today: EMRTDTag.today())
        options.can = inv.value("can") ?? "123456"
        options.paceOnly = inv.flag("pace-only")
        for name in inv.values("fault") {
            guard let fault = EMRTDFault(rawValue: name) else {
                throw CLIError.usage(
                    "--fault \(name): choose from " + EMRTDFault.allCases.map(\.rawValue).joined(separator: ", "))
            }
            options.faults.insert(fault)
        }
        if let dir = inv.value("pki") { options.pki = try loadPKI(dir) }
        let typeB: Bool?
        switch inv.value("nfc")?.lowercased() {
        case nil: typeB = nil
        case "a": typeB = false
        case "b": typeB = true
        case let other?: throw CLIError.usage("--nfc \(other): give a (NFC-A) or b (NFC-B)")
        }
        do {
            let document = try EMRTDIssuer.issue(kind, holder: holder, options: options)
            return EMRTDTag(
                document: document, activation: try EMRTDTag.defaultActivation(kind: kind, uid: uid, typeB: typeB))
        } catch {
            throw CLIError.failure("cannot issue the \(kind.rawValue): \(error)")
        }
    }

    /// The PKI `opennfc passport pki` wrote to `dir`.
    static func loadPKI(_ dir: String) throws -> EMRTDTestPKI {
        func file(_ name: String) throws -> [UInt8] { try InputFile.bytes(dir + "/" + name, what: "PKI file") }
        let names = EMRTDTestPKI.FileNames.self
        return EMRTDTestPKI(
            cscaCertificate: try file(names.cscaCertificate), cscaPrivateKey: try file(names.cscaPrivateKey),
            documentSignerCertificate: try file(names.documentSignerCertificate),
            documentSignerPrivateKey: try file(names.documentSignerPrivateKey))
    }
}
