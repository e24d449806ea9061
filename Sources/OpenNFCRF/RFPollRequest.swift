/// What a reader polls for, with each technology's own parameters (NFC Forum Activity §4 "technology detection").
///
/// A technology absent from the request is not polled. The defaults find every target of a technology: NFC-A
/// WUPA, NFC-B AFI `00` (all families), NFC-F system code `FFFF` with request code `00` and one time slot,
/// NFC-V without AFI in 16 slots.
package struct RFPollRequest: Sendable, Hashable {
    /// NFC-A (ISO/IEC 14443-3 §6.3): WUPA also wakes halted targets, REQA only idle ones.
    package struct NFCA: Sendable, Hashable {
        package var wakeUp: Bool
        package init(wakeUp: Bool = true) { self.wakeUp = wakeUp }
    }

    /// NFC-B (ISO/IEC 14443-3 §7.7): REQB/WUPB with an application family identifier (`00` = all).
    package struct NFCB: Sendable, Hashable {
        package var afi: UInt8
        package var wakeUp: Bool
        package init(afi: UInt8 = 0x00, wakeUp: Bool = true) {
            self.afi = afi
            self.wakeUp = wakeUp
        }
    }

    /// NFC-F (JIS X 6319-4 §8.5.1, Polling command `00 SC RC TSN`).
    package struct NFCF: Sendable, Hashable {
        /// The system code to poll; `FF` in either byte is a wildcard.
        package var systemCode: UInt16
        /// `00` no request data, `01` system code, `02` communication performance.
        package var requestCode: UInt8
        /// Time slot number: the card answers in one of `timeSlots + 1` slots (`00`, `01`, `03`, `07`, `0F`).
        package var timeSlots: UInt8
        /// 212 or 424 kbit/s.
        package var bitRate: Int

        package init(
            systemCode: UInt16 = 0xFFFF, requestCode: UInt8 = 0x00, timeSlots: UInt8 = 0x00, bitRate: Int = 212
        ) {
            self.systemCode = systemCode
            self.requestCode = requestCode
            self.timeSlots = timeSlots
            self.bitRate = bitRate
        }
    }

    /// NFC-V (ISO/IEC 15693-3 §10.3.1, Inventory): an optional AFI and 1 or 16 slots.
    package struct NFCV: Sendable, Hashable {
        package var afi: UInt8?
        /// 1 or 16.
        package var slots: Int
        package init(afi: UInt8? = nil, slots: Int = 16) {
            self.afi = afi
            self.slots = slots
        }
    }

    package var nfcA: NFCA?
    package var nfcB: NFCB?
    package var nfcF: NFCF?
    package var nfcV: NFCV?

    package init(nfcA: NFCA? = nil, nfcB: NFCB? = nil, nfcF: NFCF? = nil, nfcV: NFCV? = nil) {
        self.nfcA = nfcA
        self.nfcB = nfcB
        self.nfcF = nfcF
        self.nfcV = nfcV
    }

    /// Polls each of these technologies with its default parameters.
    package init(_ technologies: Set<RFTechnology>) {
        self.init()
        // One pass over the (at most four) members instead of hashing each technology to look it up.
        for t in technologies {
            switch t {
            case .nfcA: nfcA = NFCA()
            case .nfcB: nfcB = NFCB()
            case .nfcF: nfcF = NFCF()
            case .nfcV: nfcV = NFCV()
            }
        }
    }

    /// Whether this request polls `technology` (without building ``technologies``).
    package func polls(_ technology: RFTechnology) -> Bool {
        switch technology {
        case .nfcA: nfcA != nil
        case .nfcB: nfcB != nil
        case .nfcF: nfcF != nil
        case .nfcV: nfcV != nil
        }
    }

    /// The technologies this request polls.
    package var technologies: Set<RFTechnology> {
        var s = Set<RFTechnology>()
        if nfcA != nil { s.insert(.nfcA) }
        if nfcB != nil { s.insert(.nfcB) }
        if nfcF != nil { s.insert(.nfcF) }
        if nfcV != nil { s.insert(.nfcV) }
        return s
    }

    /// This request without the technologies outside `allowed`.
    package func restricted(to allowed: Set<RFTechnology>) -> RFPollRequest {
        var r = RFPollRequest()
        for t in allowed {
            switch t {
            case .nfcA: r.nfcA = nfcA
            case .nfcB: r.nfcB = nfcB
            case .nfcF: r.nfcF = nfcF
            case .nfcV: r.nfcV = nfcV
            }
        }
        return r
    }
}

extension Set where Element == RFTechnology {
    /// Whether `technology` is a member, by comparing the (at most four) members rather than hashing it: asked on
    /// every activation.
    package func includes(_ technology: RFTechnology) -> Bool {
        for t in self where t == technology { return true }
        return false
    }
}
