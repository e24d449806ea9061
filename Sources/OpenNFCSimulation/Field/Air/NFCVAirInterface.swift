internal import OpenNFCRF

/// NFC-V (ISO/IEC 15693-3, high data rate): technology detection is the Inventory command, which the field hands to
/// every NFC-V tag; each tag decides itself whether it answers (AFI, mask, its quiet state) with
/// `00 DSFID UID(LSB first)`. The reader's anticollision of §10.3.1 and Annex D runs here: with 16 slots a tag
/// answers in the slot given by the 4 UID bits after the mask, and a slot where two answer is searched again with a
/// mask 4 bits longer; a collision in a 1-slot inventory is resolved the same way.
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | Inventory, 1 and 16 slots | yes | `RFPollRequest.NFCV`: AFI flag and AFI byte when an AFI is given |
/// | Stay Quiet, Select, Reset to Ready | in the tag | ordinary frames: the tag keeps its ISO 15693 state |
/// | Activation | none on the air | the reader already has the UID; addressed commands carry it |
/// | Release | none | an ISO 15693 tag has no HALT; a quiet tag stays quiet until Reset to Ready or power-off |
struct NFCVAirInterface: VirtualAirInterface {
    var technology: RFTechnology { .nfcV }

    func poll(_ entries: inout [FieldEntry], request: RFPollRequest) -> [(handle: Int, activation: RFActivation)] {
        let p = request.nfcV ?? RFPollRequest.NFCV()
        var found: [(index: Int, activation: NFCVActivation)] = []
        search(&entries, afi: p.afi, maskLength: 0, mask: 0, sixteenSlots: p.slots != 1, into: &found)
        return found.map { f in
            entries[f.index].polled = .nfcV(f.activation)
            return (entries[f.index].handle, .nfcV(f.activation))
        }
    }

    func activate(_ entry: inout FieldEntry, isoDEP: Bool) -> (activation: RFActivation, isoDEP: Bool) {
        entry.state = .active(isoDEP: false)
        return (entry.polled ?? entry.tag.activation.air, false)
    }

    func release(_ entry: inout FieldEntry) -> Int? {
        entry.state = .idle
        return nil
    }

    /// One inventory round with this mask, and the rounds its collisions need.
    private func search(
        _ entries: inout [FieldEntry], afi: UInt8?, maskLength: Int, mask: UInt64, sixteenSlots: Bool,
        into found: inout [(index: Int, activation: NFCVActivation)]
    ) {
        let frame = Self.inventory(afi: afi, maskLength: maskLength, mask: mask, sixteenSlots: sixteenSlots)
        var answers: [(index: Int, uid: UInt64, activation: NFCVActivation)] = []
        for i in entries.indices {
            guard case .data(let r) = entries[i].tag.receive(frame, tearAfter: nil), r.count == 10, r[0] & 0x01 == 0
            else { continue }
            let lsbFirst = Array(r[2..<10])
            let value = lsbFirst.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            answers.append((i, value, NFCVActivation(uid: lsbFirst.reversed(), dsfid: r[1], afi: afi)))
        }
        guard maskLength < 64 else { return }
        if !sixteenSlots {
            if answers.count == 1, let a = answers.first {
                found.append((a.index, a.activation))
            } else if answers.count > 1 {
                search(&entries, afi: afi, maskLength: maskLength, mask: mask, sixteenSlots: true, into: &found)
            }
            return
        }
        for slot in UInt64(0)..<16 {
            let inSlot = answers.filter { ($0.uid >> UInt64(maskLength)) & 0xF == slot }
            if inSlot.count == 1, let a = inSlot.first {
                found.append((a.index, a.activation))
            } else if inSlot.count > 1 && maskLength + 4 < 64 {
                search(
                    &entries, afi: afi, maskLength: maskLength + 4, mask: mask | slot << UInt64(maskLength),
                    sixteenSlots: true, into: &found)
            }
        }
    }

    /// The Inventory request (ISO/IEC 15693-3 §10.3.1): flags (high data rate, inventory, AFI, 1 slot), command
    /// `01`, the optional AFI, the mask length in bits and the mask value, least significant byte first.
    static func inventory(afi: UInt8?, maskLength: Int, mask: UInt64, sixteenSlots: Bool) -> [UInt8] {
        var flags: UInt8 = 0x02 | 0x04
        if afi != nil { flags |= 0x10 }
        if !sixteenSlots { flags |= 0x20 }
        var frame: [UInt8] = [flags, 0x01]
        if let afi { frame.append(afi) }
        frame.append(UInt8(maskLength))
        for i in 0..<((maskLength + 7) / 8) { frame.append(UInt8((mask >> UInt64(8 * i)) & 0xFF)) }
        return frame
    }
}
