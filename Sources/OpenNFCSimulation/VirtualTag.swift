public import OpenNFCRF

/// What a virtual tag reports when a reader activates it, typed per technology (the same vocabulary as the reader's
/// ``RFActivation``: NFC-A anticollision, SELECT and RATS per ISO/IEC 14443-3/-4; NFC-B ATQB and ATTRIB; NFC-F the
/// Polling answer's IDm and PMm per JIS X 6319-4; NFC-V the UID, DSFID and AFI per ISO/IEC 15693-3).
///
/// NFC-F and NFC-V cards answer their technology's poll themselves (Polling, Inventory arrive through
/// ``VirtualTag/receive(_:tearAfter:)``); their activation here is what they report about themselves at rest.
public struct VirtualActivation: Sendable, Hashable {
    /// The technology's own activation facts.
    public var air: RFActivation

    public init(_ air: RFActivation) { self.air = air }

    /// An NFC-A tag: UID as printed (7 bytes for NXP Type 2 chips, 4 or 7 for ISO-DEP cards), SENS_RES (ATQA),
    /// SEL_RES (SAK) of the last cascade level, and the ATS (TL included) for ISO-DEP cards.
    public init(uid: [UInt8], sensRes: UInt16, selRes: UInt8, ats: [UInt8]? = nil) {
        self.air = .nfcA(NFCAActivation(uid: uid, sensRes: sensRes, selRes: selRes, ats: ats))
    }

    /// The radio technology the tag answers on.
    public var technology: RFTechnology { air.technology }
    /// UID (NFC-A, NFC-V), PUPI (NFC-B) or IDm (NFC-F).
    public var uid: [UInt8] { air.identifier }

    /// NFC-A facts, when the tag is an NFC-A tag.
    public var nfcA: NFCAActivation? {
        if case .nfcA(let a) = air { return a }
        return nil
    }

    /// NFC-A SENS_RES; setting it on another technology does nothing.
    public var sensRes: UInt16? {
        get { nfcA?.sensRes }
        set { updateNFCA { a in a.sensRes = newValue } }
    }
    /// NFC-A SEL_RES; setting it on another technology does nothing.
    public var selRes: UInt8? {
        get { nfcA?.selRes }
        set { updateNFCA { a in a.selRes = newValue } }
    }
    /// The ATS an NFC-A ISO-DEP tag answers RATS with; setting it on another technology does nothing.
    public var ats: [UInt8]? {
        get { nfcA?.ats }
        set { updateNFCA { a in a.ats = newValue } }
    }

    private mutating func updateNFCA(_ change: (inout NFCAActivation) -> Void) {
        guard case .nfcA(var a) = air else { return }
        change(&a)
        air = .nfcA(a)
    }
}

/// A tag's reaction to one frame, as the card side of the air interface sees it.
public enum VirtualAnswer: Sendable, Hashable {
    /// Data frame (CRC added by the field, not by the tag).
    case data([UInt8])
    /// 4-bit ACK (`0xA`).
    case ack
    /// 4-bit NAK with its code; NXP chips then fall silent until re-activated.
    case nak(UInt8)
    /// No answer at all (an unknown command, or a muted tag): the reader times out.
    case silence
}

/// A virtual chip, written from the card's side of its datasheet. It never sees CRCs or anticollision: the
/// ``VirtualField`` does those, and calls ``receive(_:tearAfter:)`` with each frame addressed to the selected tag.
///
/// Level-3 chips (Type 2) get raw frames; ISO-DEP chips get the INF payload of each I-block (an APDU or a DESFire
/// native command), block framing and chaining being the field's job.
public protocol VirtualTag: AnyObject {
    /// The chip name used by tag files and the CLI (`ntag215`, `type4`, `desfire-ev1`, …).
    var chip: String { get }
    /// What anticollision, SELECT and RATS report for this tag.
    var activation: VirtualActivation { get }
    /// The technology the tag answers in: its ``activation``'s. The field asks on every frame and release; a tag
    /// whose technology never changes answers without building its activation. The default reads ``activation``.
    var technology: RFTechnology { get }

    /// Power-on or re-activation: volatile state (mute after NAK, authentication, selected application/file,
    /// a pending two-part command) is cleared; memory is kept.
    func reset()

    /// Answers one frame.
    ///
    /// - Parameter tearAfter: when non-nil, the tag leaves the field while executing this frame after committing at
    ///   most this many bytes of any memory write it performs, with the granularity the chip really has (a Type 2
    ///   page is written whole or not at all; an UPDATE BINARY may stop part way). Its answer is then lost.
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer

    /// Power-up: the tag entered the field (or the field was switched on). Clears everything ``reset()`` clears and
    /// any per-power-cycle state (the NTAG21x NFC counter increments once per power cycle, for instance).
    /// The default implementation calls ``reset()``.
    func powerOn()

    /// Time the chip spent executing `frame` before it answered (EEPROM programming, crypto). The field asks right
    /// after ``receive(_:tearAfter:)`` for the same frame and adds it to the virtual clock. The default is zero.
    func processingTime(for frame: [UInt8]) -> NFCDuration
}

extension VirtualTag {
    public var technology: RFTechnology { activation.technology }
    public func powerOn() { reset() }
    public func processingTime(for frame: [UInt8]) -> NFCDuration { .zero }
}
