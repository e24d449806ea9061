/// The host card emulation entitlements' rules (Apple's Core NFC documentation, `CardSession`; docs/CARD-EMULATION.md).
extension AppConfiguration {
    /// The AID prefixes iOS accepts from `…hce.iso7816.select-identifier-prefixes`, in order: hex strings of 5…16
    /// bytes (a registered application provider identifier is 5 bytes, ISO/IEC 7816-4 §8.2.1.2; an AID at most 16).
    /// Shorter, longer or non-hex entries are skipped, as the reader session's AID list skips them.
    public var validHCEPrefixes: [(text: String, prefix: [UInt8])] {
        hceSelectIdentifierPrefixes.compactMap { s in
            guard let b = Self.hexBytes(s), (5...16).contains(b.count) else { return nil }
            return (s, b)
        }
    }

    /// Why `CardSession()` or `NFCPresentmentIntentAssertion.acquire()` must trap, or nil when the entitlements allow
    /// them. On the desktop profile nothing is required (as for the reader entitlements).
    package var hceTrapReason: String? {
        guard profile == .iphone else { return nil }
        if !hostCardEmulation { return "missing entitlement \(Self.hceKey)" }
        if validHCEPrefixes.isEmpty {
            return "missing entitlement \(Self.hcePrefixesKey) (at least one AID, RID or RID-long prefix)"
        }
        return nil
    }

    /// Whether a SELECT of this AID reaches the app: the AID starts with one of the declared prefixes. On the desktop
    /// profile with no prefixes declared, every AID does.
    package func hceRoutes(aid: [UInt8]) -> Bool {
        let prefixes = validHCEPrefixes
        if prefixes.isEmpty { return profile == .desktop }
        return prefixes.contains { aid.starts(with: $0.prefix) }
    }
}
