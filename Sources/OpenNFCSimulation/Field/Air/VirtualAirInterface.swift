internal import OpenNFCRF

/// A tag's place in the field, as the air interfaces see it.
struct FieldEntry {
    enum State: Equatable {
        /// Powered, not selected (answers REQA/REQB and WUPA/WUPB; NFC-F and NFC-V cards are always here or active).
        case idle
        case active(isoDEP: Bool)
        /// After HLTA/HLTB/DESELECT: answers WUPA/WUPB only.
        case halted
    }

    var handle: Int
    var tag: any VirtualTag
    var position: Int
    var state: State = .idle
    var mutedByFault = false
    /// What the tag reported to the last poll that found it (NFC-F and NFC-V answers depend on the request).
    var polled: RFActivation?
}

/// One radio technology's part of the field: technology detection and anticollision, activation, and the frames
/// the reader's chip and the card's front end handle themselves (HLTA, RATS, HLTB). Everything else reaches the
/// tag through ``VirtualTag/receive(_:tearAfter:)``.
///
/// The field stays technology-neutral (place, move, remove, faults, transcript, clock); each technology is paid
/// once here, so a new tag family of an existing technology needs no change to the field.
protocol VirtualAirInterface: Sendable {
    var technology: RFTechnology { get }

    /// The targets that answer `request` among `entries` (all of this technology, in poll order, not muted), with
    /// the activation each reports. May hand poll frames to the tags (NFC-F Polling, NFC-V Inventory).
    func poll(_ entries: inout [FieldEntry], request: RFPollRequest) -> [(handle: Int, activation: RFActivation)]

    /// Selects the entry (anticollision and SELECT, ATTRIB, …) and returns what the activation reports and whether
    /// it runs ISO-DEP. `timing` is charged by the field.
    func activate(_ entry: inout FieldEntry, isoDEP: Bool) -> (activation: RFActivation, isoDEP: Bool)

    /// The answer of the reader's chip or the card's front end to a frame it handles itself, or nil when the frame
    /// goes to the tag.
    func intercept(_ frame: [UInt8], entry: inout FieldEntry) -> VirtualAnswer?

    /// Releases the active entry (HLTA, DESELECT and HLTB, or nothing) and returns the size of the frame that took,
    /// or nil when the technology sends none.
    func release(_ entry: inout FieldEntry) -> Int?
}

extension VirtualAirInterface {
    func intercept(_ frame: [UInt8], entry: inout FieldEntry) -> VirtualAnswer? { nil }

    /// HALT after HLTA / DESELECT: only a wake-up finds the tag again.
    func release(_ entry: inout FieldEntry) -> Int? {
        entry.state = .halted
        return 2
    }
}
