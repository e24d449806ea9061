internal import OpenNFCRF

/// NFC-A (ISO/IEC 14443-3 type A, 106 kbit/s): REQA/WUPA, anticollision and SELECT in poll order, HLTA, and RATS
/// for ISO-DEP (ISO/IEC 14443-4 §5.6).
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | REQA / WUPA | yes | `RFPollRequest.NFCA.wakeUp`; halted tags answer WUPA only |
/// | Anticollision | abstracted | targets are reported in poll order with their UID, SENS_RES, SEL_RES |
/// | HLTA | yes | `50 00` gets no answer and halts the tag (§6.4.3) |
/// | RATS | yes | on an ISO-DEP activation, or a raw `E0 xx` to a level-3-activated ISO-DEP tag (§5.6.1) |
/// | Type 1 | yes | no anticollision and no SEL_RES: the tag's SENS_RES, UID0–UID3 and HR0/HR1 (what RID reports); no HALT, so `50 00` goes to the tag and a release leaves it idle |
struct NFCAAirInterface: VirtualAirInterface {
    var technology: RFTechnology { .nfcA }

    func poll(_ entries: inout [FieldEntry], request: RFPollRequest) -> [(handle: Int, activation: RFActivation)] {
        let wakeUp = request.nfcA?.wakeUp ?? true
        return entries.filter { wakeUp || $0.state != .halted }.map { ($0.handle, Self.level3($0.tag.activation.air)) }
    }

    func activate(_ entry: inout FieldEntry, isoDEP: Bool) -> (activation: RFActivation, isoDEP: Bool) {
        let activation = entry.tag.activation  // computed by the tag: asked once
        let air = activation.air
        let useISODEP = isoDEP && activation.ats != nil
        entry.state = .active(isoDEP: useISODEP)
        return (useISODEP ? air : Self.level3(air), useISODEP)
    }

    func intercept(_ frame: [UInt8], entry: inout FieldEntry) -> VirtualAnswer? {
        guard entry.state != .active(isoDEP: true) else { return nil }
        let activation = entry.tag.activation  // computed by the tag: asked once per frame
        // A Type 1 tag (HR0/HR1, no SEL_RES) has neither HALT nor ISO-DEP: every frame, `50 00` too, is the tag's.
        if activation.nfcA?.type1 != nil { return nil }
        // ISO/IEC 14443-3 §6.4.3: HLTA gets no answer and halts the tag.
        if frame.count == 2 && frame[0] == 0x50 && frame[1] == 0x00 {
            entry.state = .halted
            return .silence
        }
        // ISO/IEC 14443-4 §5.6.1: RATS to a tag that offers ISO-DEP; its answer is the ATS. Level-3 frames to such a
        // tag get no answer.
        if let ats = activation.ats {
            if frame.count == 2 && frame[0] == 0xE0 {
                entry.state = .active(isoDEP: true)
                return .data(ats)
            }
            return .silence
        }
        return nil
    }

    /// A Type 1 tag is released by simply not addressing it (no HLTA: it stays idle); others go to HALT.
    func release(_ entry: inout FieldEntry) -> Int? {
        if entry.tag.activation.nfcA?.type1 != nil {
            entry.state = .idle
            return nil
        }
        entry.state = .halted
        return 2
    }

    /// The activation as a level-3 SELECT reports it (no ATS yet).
    static func level3(_ air: RFActivation) -> RFActivation {
        guard case .nfcA(var a) = air else { return air }
        a.ats = nil
        return .nfcA(a)
    }
}
