package import OpenNFCRF

/// What a tag reader session discovers with: the polled technologies, PACE-only polling, and the subset of the
/// Info.plist's AIDs and FeliCa system codes the app asked for (Core NFC's iOS 26.4 `NFCTagReaderSession.Configuration`,
/// docs/DIFFERENCES.md "Tag reader configuration").
package struct TagDiscovery: Sendable, Hashable {
    /// The technologies polled (`pace` polls NFC-A and NFC-B only).
    package var technologies: Set<RFTechnology>
    /// PACE-only polling: only ISO 7816 cards that advertise PACE are delivered, without an AID SELECT.
    package var pace: Bool
    /// The AIDs the app asked for, as given; empty means every valid Info.plist entry.
    package var iso7816SelectIdentifiers: [String]
    /// The FeliCa system codes the app asked for, as given; empty means every valid Info.plist entry.
    package var felicaSystemCodes: [String]
    /// Why the configuration cannot run (an empty polling option or unknown bits): the session ends with 300.
    package var problem: String?
    /// An `NFCPaymentTagReaderSession`: payment AIDs are allowed, and the user's eligibility is checked.
    package var payment = false

    package init(
        technologies: Set<RFTechnology>, pace: Bool, iso7816SelectIdentifiers: [String] = [],
        felicaSystemCodes: [String] = [], problem: String? = nil
    ) {
        self.technologies = technologies
        self.pace = pace
        self.iso7816SelectIdentifiers = iso7816SelectIdentifiers
        self.felicaSystemCodes = felicaSystemCodes
        self.problem = problem
    }
}

extension NFCSystem {
    /// Gives a tag reader session created with a configuration its discovery (before `begin()`).
    package func setDiscovery(_ id: SessionID, _ discovery: TagDiscovery) {
        perform { sessions[id]?.discovery = discovery }
    }

    /// `restartPolling(configuration:)`: one polling round with `discovery`; a later plain `restartPolling()`
    /// returns to the session's own configuration (the iOS 26.4 rule: a restart's configuration does not persist).
    package func restartPolling(_ id: SessionID, with discovery: TagDiscovery) {
        touch()
        perform {
            guard let s = sessions[id], arbiter.active == id else { return }
            if let problem = discovery.problem {
                log(.system, "\(id) restartPolling(configuration:) refused: \(problem)")
                run(arbiter.end(id, .invalidConfiguration(problem)))
                return
            }
            if s.isNDEF { return }
            s.roundDiscovery = discovery
            log(.system, "\(id) restarts polling with \(describe(discovery, for: s)) (this round only)")
            restartRound(s)
        }
    }

    /// The discovery in force for this polling round: the restart's, else the session's own, else nil (the
    /// session kind alone decides).
    func currentDiscovery(_ s: SessionState) -> TagDiscovery? { s.roundDiscovery ?? s.discovery }

    /// The AIDs tried on an ISO 7816 card, in order, each spelt as in the Info.plist: every valid plist entry, or the
    /// configuration's subset of them (unknown entries dropped, later duplicates dropped, configuration order).
    func selectIdentifiers(for s: SessionState) -> [(text: String, aid: [UInt8])] {
        var declared = configuration.validSelectIdentifiers
        if s.discovery?.payment != true { declared.removeAll { Self.isPaymentAID($0.aid) } }
        guard let requested = currentDiscovery(s)?.iso7816SelectIdentifiers, !requested.isEmpty else {
            return declared
        }
        return Self.subset(requested, of: declared)
    }

    /// The FeliCa system codes polled, in order (same rules as the AIDs).
    func systemCodes(for s: SessionState) -> [(text: String, code: [UInt8])] {
        let declared = configuration.validSystemCodes.map { (text: $0.text, aid: $0.code) }
        guard let requested = currentDiscovery(s)?.felicaSystemCodes, !requested.isEmpty else {
            return declared.map { (text: $0.text, code: $0.aid) }
        }
        return Self.subset(requested, of: declared).map { (text: $0.text, code: $0.aid) }
    }

    /// The entries of `requested` that name (by value, any letter case) an entry of `declared`, in the order of
    /// `requested`, each once, spelt as declared.
    static func subset(_ requested: [String], of declared: [(text: String, aid: [UInt8])]) -> [(
        text: String, aid: [UInt8]
    )] {
        var out: [(text: String, aid: [UInt8])] = []
        for entry in requested {
            guard let bytes = AppConfiguration.hexBytes(entry), let match = declared.first(where: { $0.aid == bytes })
            else { continue }
            if !out.contains(where: { $0.aid == bytes }) { out.append(match) }
        }
        return out
    }

    /// Payment applications, which only `NFCPaymentTagReaderSession` selects (Core NFC: "doesn't support
    /// payment-related AIDs"): the EMV directory names `1PAY.SYS.DDF01` / `2PAY.SYS.DDF01` (EMV Book 1 §12.2,
    /// §12.3.2) and AIDs under the card schemes' registered application provider identifiers (ISO/IEC 7816-5 RIDs:
    /// Visa, Mastercard, American Express, JCB, Discover, UnionPay, Interac, CB).
    static let paymentRIDs: [[UInt8]] = [
        [0xA0, 0x00, 0x00, 0x00, 0x03], [0xA0, 0x00, 0x00, 0x00, 0x04], [0xA0, 0x00, 0x00, 0x00, 0x25],
        [0xA0, 0x00, 0x00, 0x00, 0x65], [0xA0, 0x00, 0x00, 0x01, 0x52], [0xA0, 0x00, 0x00, 0x03, 0x33],
        [0xA0, 0x00, 0x00, 0x02, 0x77], [0xA0, 0x00, 0x00, 0x00, 0x42],
    ]

    static func isPaymentAID(_ aid: [UInt8]) -> Bool {
        if aid == Array("1PAY.SYS.DDF01".utf8) || aid == Array("2PAY.SYS.DDF01".utf8) { return true }
        return paymentRIDs.contains { aid.starts(with: $0) }
    }

    /// Whether the session polls PACE-only this round.
    func pollsPACE(_ s: SessionState) -> Bool {
        if let d = currentDiscovery(s) { return d.pace }
        if case .tag(_, let pace) = s.kind { return pace }
        return false
    }

    func describe(_ d: TagDiscovery, for s: SessionState) -> String {
        let techs = ["nfcA", "nfcB", "nfcF", "nfcV"].filter { name in
            d.technologies.contains { "\($0)" == name }
        }
        var parts = [d.pace ? "PACE only" : techs.joined(separator: "+")]
        if d.technologies.contains(.nfcA) || d.technologies.contains(.nfcB) {
            let aids = selectIdentifiers(for: s).map(\.text)
            parts.append("AIDs [\(aids.joined(separator: ", "))]")
        }
        if d.technologies.contains(.nfcF) {
            parts.append("system codes [\(systemCodes(for: s).map(\.text).joined(separator: ", "))]")
        }
        return parts.joined(separator: ", ")
    }
}
