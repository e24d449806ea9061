internal import OpenNFCRF

/// NFC-B (ISO/IEC 14443-3 type B, 106 kbit/s): REQB/WUPB with an AFI, ATQB, ATTRIB, HLTB.
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | REQB / WUPB | yes | AFI filter of §7.7.2: `00` all cards; `X0` family X; `0Y` sub-family Y; `XY` exactly |
/// | Anticollision slots | abstracted | every answering card is reported, in poll order |
/// | ATTRIB | yes | every NFC-B card here runs ISO-DEP after it; its answer is the card's `attribResponse` or `00` |
/// | HLTB | yes | `50 PUPI` answers `00` and halts the card (§7.12); WUPB wakes it |
struct NFCBAirInterface: VirtualAirInterface {
    var technology: RFTechnology { .nfcB }

    func poll(_ entries: inout [FieldEntry], request: RFPollRequest) -> [(handle: Int, activation: RFActivation)] {
        let p = request.nfcB ?? RFPollRequest.NFCB()
        return entries.compactMap { e in
            guard case .nfcB(let b) = e.tag.activation.air, p.wakeUp || e.state != .halted else { return nil }
            guard Self.afi(p.afi, matches: b.applicationData.first ?? 0) else { return nil }
            var reported = b
            reported.attribResponse = nil
            return (e.handle, .nfcB(reported))
        }
    }

    func activate(_ entry: inout FieldEntry, isoDEP: Bool) -> (activation: RFActivation, isoDEP: Bool) {
        entry.state = .active(isoDEP: true)
        guard case .nfcB(var b) = entry.tag.activation.air else { return (entry.tag.activation.air, true) }
        b.attribResponse = b.attribResponse ?? [0x00]
        return (.nfcB(b), true)
    }

    func intercept(_ frame: [UInt8], entry: inout FieldEntry) -> VirtualAnswer? {
        guard case .nfcB(let b) = entry.tag.activation.air, frame.count == 5, frame[0] == 0x50,
            Array(frame[1...]) == b.pupi
        else { return nil }
        entry.state = .halted
        return .data([0x00])
    }

    /// ISO/IEC 14443-3 §7.7.2 (AFI coding): a request AFI of `00` selects every card; a zero nibble matches any.
    static func afi(_ requested: UInt8, matches card: UInt8) -> Bool {
        let family = requested >> 4
        let sub = requested & 0x0F
        return (family == 0 || family == card >> 4) && (sub == 0 || sub == card & 0x0F)
    }
}
