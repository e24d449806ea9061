internal import OpenNFCRF

/// NFC-F (FeliCa, JIS X 6319-4, 212/424 kbit/s): technology detection is the Polling command (SENSF_REQ,
/// `00 SC SC RC TSN`), which the field hands to every NFC-F card; each card decides itself whether it answers
/// (system code with `FF` wildcards, request code) and answers `01 IDm PMm [RD]` in one of TSN + 1 time slots.
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | Polling | yes | the card's own answer (``VirtualTag/receive(_:tearAfter:)``), without LEN as on every NFC-F frame |
/// | Time slots | yes | a card answers in slot (sum of its IDm bytes) mod (TSN + 1), deterministically; two cards in one slot collide and neither is received (§8.5.2) |
/// | Activation | none on the air | the reader already has IDm and PMm; the target reports the last Polling answer |
/// | Release | none | FeliCa has no HALT: the card keeps answering Polling |
struct NFCFAirInterface: VirtualAirInterface {
    var technology: RFTechnology { .nfcF }

    func poll(_ entries: inout [FieldEntry], request: RFPollRequest) -> [(handle: Int, activation: RFActivation)] {
        let p = request.nfcF ?? RFPollRequest.NFCF()
        let frame: [UInt8] = [0x00, UInt8(p.systemCode >> 8), UInt8(p.systemCode & 0xFF), p.requestCode, p.timeSlots]
        var bySlot: [Int: [(index: Int, activation: NFCFActivation)]] = [:]
        for i in entries.indices {
            guard case .data(let r) = entries[i].tag.receive(frame, tearAfter: nil),
                let answer = Self.sensfRes(r, request: p)
            else { continue }
            let slot = answer.idm.reduce(0) { $0 + Int($1) } % (Int(p.timeSlots) + 1)
            bySlot[slot, default: []].append((i, answer))
        }
        var found: [(handle: Int, activation: RFActivation)] = []
        for slot in bySlot.keys.sorted() {
            guard let answers = bySlot[slot], answers.count == 1, let only = answers.first else { continue }
            entries[only.index].polled = .nfcF(only.activation)
            found.append((entries[only.index].handle, .nfcF(only.activation)))
        }
        return found
    }

    func activate(_ entry: inout FieldEntry, isoDEP: Bool) -> (activation: RFActivation, isoDEP: Bool) {
        entry.state = .active(isoDEP: false)
        return (entry.polled ?? entry.tag.activation.air, false)
    }

    func release(_ entry: inout FieldEntry) -> Int? {
        entry.state = .idle
        return nil
    }

    /// Parses SENSF_RES `01 IDm(8) PMm(8) [RD(2)]` (JIS X 6319-4 §8.5.2; NFC Forum Digital §6.6.2).
    static func sensfRes(_ r: [UInt8], request: RFPollRequest.NFCF) -> NFCFActivation? {
        guard r.first == 0x01, r.count == 17 || r.count == 19 else { return nil }
        let rd: [UInt8]? = r.count == 19 ? Array(r[17..<19]) : nil
        let sc: UInt16? = request.requestCode == 0x01 ? rd.map { UInt16($0[0]) << 8 | UInt16($0[1]) } : nil
        return NFCFActivation(
            idm: Array(r[1..<9]), pmm: Array(r[9..<17]),
            systemCode: sc
                ?? (request.systemCode & 0xFF00 != 0xFF00 && request.systemCode & 0xFF != 0xFF
                    ? request.systemCode : nil),
            requestData: rd, bitRate: request.bitRate)
    }
}
