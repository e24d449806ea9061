internal import OpenNFCRF
package import OpenNFCTags

/// VAS reader sessions (Core NFC's `NFCVASReaderSession`): each VAS-capable card that enters the field gets one
/// transaction — SELECT `OSE.VAS.01`, then one GET VAS DATA per configuration in array order — whose responses are
/// delivered together; the card is served again only after it left the field (the header's "polling is
/// automatically restarted once the detected tag is removed").
extension NFCSystem {
    /// Why a VAS session's configurations cannot run (300), or nil: none at all, an empty pass type identifier, a
    /// merchant URL over 64 characters (the header's limit, scheme included).
    package static func vasProblem(_ commands: [VASCommand]) -> String? {
        if commands.isEmpty { return "no NFCVASCommandConfiguration given" }
        for (i, c) in commands.enumerated() {
            if c.passTypeIdentifier.isEmpty { return "configuration \(i): empty passTypeIdentifier" }
            if let url = c.url, url.count > 64 {
                return "configuration \(i): URL of \(url.count) characters (at most 64, scheme included)"
            }
        }
        return nil
    }

    /// One VAS transaction with a target of the field.
    func runVAS(_ s: SessionState, _ target: RFTarget, _ commands: [VASCommand]) {
        guard let frontend else { return }
        guard target.isISODEP else {
            log(.system, "tag \(target.handle) is not an ISO-DEP card: no VAS")
            return
        }
        var results: [VASResult] = []
        do {
            _ = try frontend.activate(target)
            defer { frontend.deactivate() }
            guard try VASReader.select(frontend: frontend) else {
                log(.system, "tag \(target.handle) has no VAS application")
                return
            }
            for (i, command) in commands.enumerated() {
                results.append(try VASReader.getData(command, more: i < commands.count - 1, frontend: frontend))
            }
        } catch {
            log(.system, "tag \(target.handle): VAS transaction failed: \(error)")
            return
        }
        guard arbiter.active == s.id else { return }
        let statuses = results.map { String($0.status, radix: 16, uppercase: true) }.joined(separator: ", ")
        log(.system, "\(s.id) received \(results.count) VAS response\(results.count == 1 ? "" : "s") (\(statuses))")
        post(s, .vasResponses(results))
    }
}
