import OpenNFCBytes
import OpenNFCSystem

/// The checks `opennfc doctor` runs: the configuration rules Core NFC enforces at run time (docs/PARITY.md §13, §14.13,
/// §14.14), applied to an app's Info.plist, entitlements and sources before the app ever reaches a phone.
struct DoctorChecks {
    static let usageKey = AppConfiguration.usageDescriptionKey
    static let formatsKey = AppConfiguration.formatsKey
    static let aidsKey = AppConfiguration.selectIdentifiersKey
    static let systemCodesKey = AppConfiguration.systemCodesKey
    static let knownFormats: Set<String> = ["NDEF", "TAG", "PACE"]
    /// The NFC Forum Type 4 NDEF application (mapping v2 and v1): generic, so better listed after an app's own AIDs.
    static let ndefAIDs: Set<String> = ["D2760000850101", "D2760000850100"]
    /// Registered payment-scheme RIDs (Visa, Mastercard, Amex, JCB, Discover, UnionPay) and the PPSE name
    /// `2PAY.SYS.DDF01`: Core NFC does not deliver tags through these outside `NFCPaymentTagReaderSession`.
    static let paymentRIDs = ["A000000003", "A000000004", "A000000025", "A000000065", "A000000152", "A000000333"]
    static let ppse = "325041592E5359532E4444463031"

    var info: ConfigFile?
    var entitlements: ConfigFile?
    var sources: SourceFacts?
    var sourcesPath: String?

    private(set) var findings: [DoctorFinding] = []

    mutating func run() -> [DoctorFinding] {
        findings = []
        checkMisplacedKeys()
        checkUsageDescription()
        checkFormats()
        checkAIDs()
        checkSystemCodes()
        checkClassic()
        var hce = HCEChecks(info: info, entitlements: entitlements)
        findings += hce.run()
        if let sources, sources.sessions.isEmpty, let sourcesPath {
            add(
                .advice, SourceLocation(file: sourcesPath, line: nil),
                "no Core NFC reader session is created in the \(sources.filesScanned) source file(s) scanned",
                "point --sources at the directory holding the code that creates NFCNDEFReaderSession or "
                    + "NFCTagReaderSession")
        }
        let order: (DoctorFinding) -> Int = { $0.severity == .error ? 0 : 1 }
        return findings.enumerated().sorted { a, b in
            order(a.element) != order(b.element) ? order(a.element) < order(b.element) : a.offset < b.offset
        }.map(\.element)
    }

    private mutating func add(_ s: DoctorFinding.Severity, _ l: SourceLocation, _ m: String, _ f: String) {
        findings.append(DoctorFinding(severity: s, location: l, message: m, fix: f))
    }

    /// Sessions of a kind, or nil when no sources were scanned (then the rule is checked as if the app used it).
    private func sessions(_ kind: SourceFacts.SessionKind) -> [SourceFacts.Session]? {
        sources.map { $0.sessions.filter { $0.kind == kind } }
    }

    private var usesNFC: Bool { sources.map { !$0.sessions.isEmpty } ?? true }

    // MARK: Keys in the wrong file

    private mutating func checkMisplacedKeys() {
        if let info, info.values[Self.formatsKey] != nil {
            add(
                .error, info.location(ofKey: Self.formatsKey),
                "\(Self.formatsKey) is an entitlement, but it is in the Info.plist where iOS never looks for it",
                "move the key into the app's .entitlements file")
        }
        if let entitlements {
            for key in [Self.usageKey, Self.aidsKey, Self.systemCodesKey] where entitlements.values[key] != nil {
                add(
                    .error, entitlements.location(ofKey: key),
                    "\(key) belongs in the Info.plist, but it is in the entitlements file where Core NFC never reads it",
                    "move the key into the app's Info.plist")
            }
        }
    }

    // MARK: Usage description

    private mutating func checkUsageDescription() {
        guard let info, usesNFC else { return }
        switch info.values[Self.usageKey] {
        case nil:
            add(
                .error, info.location(ofKey: Self.usageKey),
                "\(Self.usageKey) is missing: iOS terminates the app when it starts an NFC reader session",
                "add <key>\(Self.usageKey)</key> with a <string> saying in one sentence why the app reads tags")
        case .string(let s) where s.allSatisfy(\.isWhitespace):
            add(
                .error, info.location(ofKey: Self.usageKey),
                "\(Self.usageKey) is empty: iOS terminates the app when it starts an NFC reader session",
                "write one sentence saying why the app reads tags")
        case .string:
            break
        case .some(let v):
            add(
                .error, info.location(ofKey: Self.usageKey),
                "\(Self.usageKey) is \(v.typeName), not a string", "make it a <string> saying why the app reads tags")
        }
    }

    // MARK: Formats entitlement

    private mutating func checkFormats() {
        guard let entitlements else { return }
        let loc = entitlements.location(ofKey: Self.formatsKey)
        var formats: Set<String> = []
        switch entitlements.strings(Self.formatsKey) {
        case nil:
            if usesNFC {
                add(
                    .error, loc,
                    "\(Self.formatsKey) is missing: every reader session is invalidated at once with "
                        + "readerErrorSecurityViolation",
                    "add the key as an array holding TAG (and PACE if the app reads ID documents)")
            }
            return
        case .failure(let wrong)?:
            add(
                .error, loc, "\(Self.formatsKey) is \(wrong.found), not an array of strings",
                "make it an <array> of <string>s such as TAG")
            return
        case .success(let list)?:
            formats = Set(list)
            for f in list where !Self.knownFormats.contains(f) {
                add(
                    .error,
                    SourceLocation(
                        file: entitlements.path, line: entitlements.line(ofValue: f, inKey: Self.formatsKey) ?? loc.line
                    ),
                    "'\(f)' is not a reader-session format; Core NFC knows NDEF, TAG and PACE",
                    "replace it with TAG (tag and NDEF sessions), NDEF or PACE")
            }
            if formats.contains("NDEF") {
                add(
                    .advice,
                    SourceLocation(
                        file: entitlements.path,
                        line: entitlements.line(ofValue: "NDEF", inKey: Self.formatsKey) ?? loc.line),
                    "App Store processing rejects the NDEF format for apps whose minimum iOS is 13 or later "
                        + "(ITMS-90778)",
                    "list TAG instead of NDEF; TAG also covers NFCNDEFReaderSession")
            }
        }
        guard let sources else { return }
        for s in sources.sessions {
            switch s.kind {
            case .ndef where formats.isDisjoint(with: ["NDEF", "TAG"]):
                add(
                    .error, s.location,
                    "NFCNDEFReaderSession is created here, but \(Self.formatsKey) lists neither TAG nor NDEF, "
                        + "so the session is invalidated at once",
                    "add <string>TAG</string> to \(Self.formatsKey) at \(loc)")
            case .tag where !formats.contains("TAG"):
                add(
                    .error, s.location,
                    "NFCTagReaderSession is created here, but \(Self.formatsKey) does not list TAG, "
                        + "so the session is invalidated at once",
                    "add <string>TAG</string> to \(Self.formatsKey) at \(loc)")
            default:
                break
            }
            if s.kind == .tag, s.pollingOptions.contains("pace"), !formats.contains("PACE") {
                add(
                    .error, s.location,
                    "this NFCTagReaderSession polls with .pace, but \(Self.formatsKey) does not list PACE",
                    "add <string>PACE</string> to \(Self.formatsKey) at \(loc)")
            }
        }
    }

    // MARK: ISO 7816 AIDs

    private mutating func checkAIDs() {
        let needsAIDs: SourceLocation? =
            sources.flatMap { s in
                s.iso7816Use ?? s.selects.first?.location
            }
        var declared: [String] = []
        if let info {
            let loc = info.location(ofKey: Self.aidsKey)
            switch info.strings(Self.aidsKey) {
            case nil:
                if let use = needsAIDs {
                    add(
                        .error, use,
                        "the app talks to ISO 7816 tags here, but the Info.plist has no \(Self.aidsKey), so Core NFC "
                            + "never delivers an ISO 7816 tag",
                        "add <key>\(Self.aidsKey)</key> to \(info.path) with an <array> of the AIDs the app selects")
                }
            case .failure(let wrong)?:
                add(
                    .error, loc, "\(Self.aidsKey) is \(wrong.found), not an array of strings",
                    "make it an <array> of AID <string>s such as A0000002471001")
            case .success(let list)?:
                declared = list.map { $0.uppercased() }
                checkAIDEntries(list, in: info)
                if list.isEmpty, let use = needsAIDs {
                    add(
                        .error, use,
                        "the app talks to ISO 7816 tags here, but \(Self.aidsKey) is empty, so Core NFC never "
                            + "delivers an ISO 7816 tag",
                        "add the AIDs the app selects to \(Self.aidsKey) at \(loc)")
                }
            }
        }
        guard let sources else { return }
        var reported = Set<String>()
        for sel in sources.selects {
            guard let aid = sel.aid else {
                add(
                    .advice, sel.location,
                    "this SELECT's AID could not be worked out from the source",
                    "make sure the AID it selects is listed in \(Self.aidsKey)")
                continue
            }
            let hex = aid.hexString
            if info != nil, !declared.contains(hex), reported.insert(hex).inserted {
                add(
                    .error, sel.location,
                    "the app SELECTs AID \(hex) here, but \(Self.aidsKey) does not declare it, so Core NFC fails "
                        + "the command with a security violation",
                    "add <string>\(hex)</string> to \(Self.aidsKey)"
                        + (info.map { " in \($0.location(ofKey: Self.aidsKey))" } ?? ""))
            }
        }
        // Order: the first declared AID the card answers wins (initialSelectedAID); generic NDEF AIDs first would
        // hide the app's own application on cards that carry both.
        if let info, let firstNDEF = declared.firstIndex(where: { Self.ndefAIDs.contains($0) }),
            let laterOwn = declared[firstNDEF...].first(where: { !Self.ndefAIDs.contains($0) && !isPayment($0) })
        {
            add(
                .advice,
                SourceLocation(
                    file: info.path,
                    line: info.line(ofValue: declared[firstNDEF], inKey: Self.aidsKey) ?? info.line(ofKey: Self.aidsKey)
                ),
                "the generic NDEF application \(declared[firstNDEF]) is listed before \(laterOwn); Core NFC selects "
                    + "the first listed AID a card answers and reports it as initialSelectedAID",
                "list the app's own AIDs first and the NDEF application AIDs last")
        }
        let selectOrder = sources.selects.compactMap { $0.aid?.hexString }.reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        let declaredSelected = declared.filter { selectOrder.contains($0) }
        let sourceOrder = selectOrder.filter { declaredSelected.contains($0) }
        if let info, declaredSelected.count > 1, declaredSelected != sourceOrder {
            add(
                .advice, info.location(ofKey: Self.aidsKey),
                "\(Self.aidsKey) lists \(declaredSelected.joined(separator: ", ")) but the sources select them in the "
                    + "order \(sourceOrder.joined(separator: ", "))",
                "order the array as the app prefers them; the first one a card answers is selected before "
                    + "the app sees the tag")
        }
    }

    private func isPayment(_ aid: String) -> Bool {
        aid == Self.ppse || Self.paymentRIDs.contains { aid.hasPrefix($0) }
    }

    private mutating func checkAIDEntries(_ list: [String], in info: ConfigFile) {
        var seen = Set<String>()
        for raw in list {
            let loc = SourceLocation(
                file: info.path, line: info.line(ofValue: raw, inKey: Self.aidsKey) ?? info.line(ofKey: Self.aidsKey))
            let aid = raw.uppercased()
            guard !aid.isEmpty, aid.count % 2 == 0, aid.allSatisfy(\.isHexDigit) else {
                add(
                    .error, loc, "'\(raw)' in \(Self.aidsKey) is not an AID in hex",
                    "write the AID as an even number of hex digits, e.g. A0000002471001")
                continue
            }
            if !(10...32).contains(aid.count) {
                add(
                    .error, loc,
                    "'\(raw)' is \(aid.count / 2) bytes; an AID has 5 to 16 (ISO/IEC 7816-4 §8.2.1.2) and iOS skips "
                        + "this entry",
                    "use the application's full AID")
            }
            if isPayment(aid) {
                add(
                    .error, loc,
                    "'\(raw)' is a payment AID; Core NFC does not deliver tags through payment AIDs in reader sessions",
                    "remove it (payment cards need NFCPaymentTagReaderSession and Apple's payment entitlement)")
            }
            if !seen.insert(aid).inserted {
                add(.advice, loc, "'\(raw)' is listed more than once in \(Self.aidsKey)", "remove the duplicate")
            }
        }
    }

    // MARK: FeliCa system codes

    private mutating func checkSystemCodes() {
        let needs: SourceLocation? = sources.flatMap { s in
            s.feliCaUse ?? s.sessions.first { $0.pollingOptions.contains("iso18092") }?.location
        }
        guard let info else { return }
        let loc = info.location(ofKey: Self.systemCodesKey)
        var declared: [String] = []
        switch info.strings(Self.systemCodesKey) {
        case nil:
            if let use = needs {
                add(
                    .error, use,
                    "the app reads FeliCa tags here, but the Info.plist has no \(Self.systemCodesKey), so Core NFC "
                        + "never delivers a FeliCa tag",
                    "add <key>\(Self.systemCodesKey)</key> to \(info.path) with the system codes, e.g. 12FC")
            }
            return
        case .failure(let wrong)?:
            add(
                .error, loc, "\(Self.systemCodesKey) is \(wrong.found), not an array of strings",
                "make it an <array> of 4-hex-digit <string>s such as 12FC")
            return
        case .success(let list)?:
            for raw in list {
                let l = SourceLocation(
                    file: info.path, line: info.line(ofValue: raw, inKey: Self.systemCodesKey) ?? loc.line)
                let code = raw.uppercased()
                if code.count != 4 || !code.allSatisfy(\.isHexDigit) {
                    add(
                        .error, l, "'\(raw)' in \(Self.systemCodesKey) is not a system code (4 hex digits)",
                        "write it as 4 hex digits, e.g. 12FC")
                } else if code.hasPrefix("FF") || code.hasSuffix("FF") {
                    add(
                        .error, l, "'\(raw)' uses the FF wildcard, which Core NFC does not accept",
                        "list each system code the app needs explicitly")
                } else {
                    declared.append(code)
                }
            }
            if list.isEmpty, let use = needs {
                add(
                    .error, use,
                    "the app reads FeliCa tags here, but \(Self.systemCodesKey) is empty, so Core NFC never delivers "
                        + "a FeliCa tag",
                    "add the system codes to \(Self.systemCodesKey) at \(loc)")
            }
            if !list.isEmpty, declared.isEmpty, let use = needs {
                add(
                    .error, use,
                    "the app reads FeliCa tags here, but no entry of \(Self.systemCodesKey) is a valid system code, "
                        + "so a tag session polling .iso18092 ends at begin() with 2 (missing required entitlement)",
                    "list at least one 4-hex-digit system code without FF at \(loc)")
            }
        }
        for poll in sources?.feliCaPolls ?? [] {
            guard let code = poll.systemCode, code.count == 2 else { continue }
            let hex = code.hexString
            if code[0] == 0xFF || code[1] == 0xFF {
                // Core NFC refuses the wildcard in polling(systemCode:) (docs/DIFFERENCES.md "FeliCa").
                add(
                    .error, poll.location,
                    "the app polls the wildcard system code \(hex) here; Core NFC fails polling(systemCode:) with 3 "
                        + "(invalid parameter) for a code with FF",
                    "poll each system code the app needs explicitly and declare it in \(Self.systemCodesKey)")
            } else if !declared.contains(hex) {
                add(
                    .error, poll.location,
                    "the app polls system code \(hex) here, but \(Self.systemCodesKey) does not declare it, so "
                        + "polling(systemCode:) fails with 2 (missing required entitlement) and a tag that has only "
                        + "this system code is never delivered",
                    "add <string>\(hex)</string> to \(Self.systemCodesKey) at \(loc)")
            }
        }
    }

    // MARK: MIFARE Classic

    private mutating func checkClassic() {
        for m in sources?.classicExpectations ?? [] {
            add(
                .error, m.location,
                "the app expects MIFARE Classic here (\(m.what)); Core NFC does not support MIFARE Classic "
                    + "(NFCMiFareFamily has no Classic case and there is no Crypto1 authentication)",
                "use MIFARE DESFire, Ultralight/NTAG or an ISO 7816 card, or read Classic cards on a PC/SC reader")
        }
    }
}
