import OpenNFCBytes
import OpenNFCSystem

/// `doctor`'s host card emulation checks (`CardSession`, iOS 17.4; docs/CARD-EMULATION.md): the rules that make
/// `CardSession()` trap, and the AID prefixes that decide which SELECTs reach the app, applied to the entitlements
/// before the app reaches a phone.
struct HCEChecks {
    static let hceKey = AppConfiguration.hceKey
    static let prefixesKey = AppConfiguration.hcePrefixesKey
    static let defaultAppKey = AppConfiguration.hceDefaultContactlessAppKey

    var info: ConfigFile?
    var entitlements: ConfigFile?
    private(set) var findings: [DoctorFinding] = []

    init(info: ConfigFile?, entitlements: ConfigFile?) {
        self.info = info
        self.entitlements = entitlements
    }

    mutating func run() -> [DoctorFinding] {
        findings = []
        if let info {
            for key in [Self.hceKey, Self.prefixesKey, Self.defaultAppKey] where info.values[key] != nil {
                add(
                    .error, info.location(ofKey: key),
                    "\(key) is an entitlement; in Info.plist iOS ignores it and CardSession() traps",
                    "move the key to the app's .entitlements file")
            }
        }
        guard let entitlements else { return findings }
        let enabled: Bool
        switch entitlements.values[Self.hceKey] {
        case nil: enabled = false
        case .bool(let b)?: enabled = b
        case let other?:
            add(
                .error, entitlements.location(ofKey: Self.hceKey), "\(Self.hceKey) is \(other.typeName), not a Boolean",
                "make it <true/>")
            enabled = false
        }
        let prefixes: [String]?
        switch entitlements.strings(Self.prefixesKey) {
        case nil: prefixes = nil
        case .failure(let wrong)?:
            add(
                .error, entitlements.location(ofKey: Self.prefixesKey),
                "\(Self.prefixesKey) is \(wrong.found), not an array of strings",
                "make it an <array> of <string>s, one AID or AID prefix (at least 5 bytes) each")
            return findings
        case .success(let list)?: prefixes = list
        }
        if case .bool(true)? = entitlements.values[Self.defaultAppKey], !enabled {
            add(
                .error, entitlements.location(ofKey: Self.defaultAppKey),
                "\(Self.defaultAppKey) without \(Self.hceKey): the app cannot emulate a card, let alone be the default",
                "add \(Self.hceKey) <true/> and the AID prefixes")
        }
        if enabled && (prefixes ?? []).isEmpty {
            add(
                .error, entitlements.location(ofKey: Self.prefixesKey),
                "\(Self.hceKey) is on but \(Self.prefixesKey) lists no AID: CardSession() traps",
                "add the AIDs (or RID-long prefixes) the app answers, e.g. F0010203040506")
        }
        if !enabled, let p = prefixes, !p.isEmpty {
            add(
                .error, entitlements.location(ofKey: Self.hceKey),
                "\(Self.prefixesKey) is set but \(Self.hceKey) is not true: CardSession() traps",
                "add \(Self.hceKey) <true/>")
        }
        checkPrefixes(prefixes ?? [], in: entitlements)
        return findings
    }

    private mutating func checkPrefixes(_ list: [String], in file: ConfigFile) {
        var valid: [(String, String)] = []
        for raw in list {
            let loc = SourceLocation(
                file: file.path,
                line: file.line(ofValue: raw, inKey: Self.prefixesKey) ?? file.line(ofKey: Self.prefixesKey))
            let aid = raw.uppercased()
            guard !aid.isEmpty, aid.count % 2 == 0, aid.allSatisfy(\.isHexDigit) else {
                add(
                    .error, loc, "'\(raw)' in \(Self.prefixesKey) is not an AID prefix in hex",
                    "write it as an even number of hex digits, e.g. F0010203040506")
                continue
            }
            guard (10...32).contains(aid.count) else {
                add(
                    .error, loc,
                    "'\(raw)' is \(aid.count / 2) bytes; an AID prefix is at least a RID (5 bytes) and an AID at "
                        + "most 16 (ISO/IEC 7816-4 §8.2.1.2): iOS skips it and no SELECT reaches the app through it",
                    "use the application's RID or full AID")
                continue
            }
            if let covering = valid.first(where: { aid.hasPrefix($0.1) }) {
                add(
                    .advice, loc, "'\(raw)' is already covered by the prefix '\(covering.0)'",
                    "remove it, or list the longer AIDs alone")
            }
            valid.append((raw, aid))
        }
    }

    private mutating func add(_ s: DoctorFinding.Severity, _ l: SourceLocation, _ m: String, _ f: String) {
        findings.append(DoctorFinding(severity: s, location: l, message: m, fix: f))
    }
}
