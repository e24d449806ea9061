package import OpenNFCRF
package import OpenNFCTags

/// The MIFARE family the system reports for a delivered tag (Core NFC `NFCMiFareFamily`).
package enum MiFareFamilyKind: Sendable, Hashable {
    case unknown, ultralight, plus, desfire
}

/// Identifies a delivered tag object: which session, which polling round, which target in the field.
package struct TagReference: Sendable, Hashable {
    package var session: SessionID
    /// Incremented by `restartPolling()`: tags of an older round are stale.
    package var generation: Int
    /// The frontend's handle of the target.
    package var handle: Int
}

/// A tag as the system delivers it to a session.
package struct DeliveredTag: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// `NFCMiFareTag`.
        case miFare(MiFareFamilyKind)
        /// `NFCISO7816Tag`, with the declared AID that selected (as spelt in the plist; "" when none was needed).
        case iso7816(initialSelectedAID: String)
        /// `NFCISO15693Tag` (an NFC Forum Type 5 tag).
        case iso15693
        /// An `NFCNDEFTag` with no tag protocol (Type 1 in an NDEF reader session).
        case ndefOnly
        /// `NFCFeliCaTag`: a FeliCa card whose system ``DeliveredTag/feliCa`` was selected by Polling.
        case feliCa
    }

    package var reference: TagReference
    package var kind: Kind
    /// UID (NFC-A, NFC-V: MSB first) or PUPI (NFC-B).
    package var identifier: [UInt8]
    /// ISO 14443-4 historical bytes from the ATS (Type A), if any.
    package var historicalBytes: [UInt8]?
    /// Application data from the ATQB (Type B), if any.
    package var applicationData: [UInt8]?
    /// Whether a Type B card's ATQB says its application data is coded proprietarily: ADC (protocol info byte 3,
    /// bits 4–3) `00` rather than `01` (ISO/IEC 14443-3 §7.9.4). False for Type A.
    package var proprietaryApplicationDataCoding = false
    /// The technology the tag answered on.
    package var technology: RFTechnology
    /// Whether the tag speaks ISO-DEP (ISO/IEC 14443-4: an NFC-A target with an ATS, an NFC-B card), so it takes
    /// ISO 7816 APDUs: what `sendMiFareISO7816Command` needs of an `NFCMiFareTag` (docs/DIFFERENCES.md).
    package var isoDEP = false
    /// Whether the card advertises PACE (`NFCISO7816Tag.supportsPACE`, iOS 26.4): its EF.CardAccess lists a PACE
    /// protocol (ICAO Doc 9303 Part 11 §9.2.1). Checked for ISO 7816 cards in tag reader sessions.
    package var supportsPACE = false
    /// A FeliCa tag's selected system (`currentSystemCode`, `currentIDm`); `polling` updates it in the session.
    package var feliCa: FeliCaSelection?
}

/// What a session hears from the system, always on the session's queue, in order.
package enum SessionEvent: Sendable {
    /// RF is on and the system is scanning (`readerSessionDidBecomeActive`).
    case becameActive
    /// Tags were discovered (`didDetect tags`).
    case detected([DeliveredTag])
    /// A tag's NDEF message was read, as stored (read-only NDEF mode: `didDetectNDEFs`).
    case message(tag: DeliveredTag, bytes: [UInt8])
    /// The session ended (`didInvalidateWithError`).
    case invalidated(InvalidationReason)
    /// A VAS transaction completed: one result per GET VAS DATA, in command order (`didReceive responses`).
    case vasResponses([VASResult])
}

/// How a session object is driven: the public layer's session implements this.
package protocol SessionClient: AnyObject, Sendable {
    /// Called on the session's queue.
    func receive(_ event: SessionEvent)
}

/// What kind of session the app began.
package enum SessionKind: Sendable, Hashable {
    /// `NFCNDEFReaderSession`.
    case ndef(invalidateAfterFirstRead: Bool)
    /// `NFCTagReaderSession` polling these technologies (`pace`: the PACE-only option).
    case tag(technologies: Set<RFTechnology>, pace: Bool)
    /// `NFCVASReaderSession` sending these GET VAS DATA commands, in order.
    case vas(commands: [VASCommand])
}

/// The NDEF session's mode, decided by whether the delegate implements `readerSession(_:didDetect:)`.
package enum NDEFMode: Sendable, Hashable {
    /// Not known until the first detection is offered to the delegate.
    case undetermined
    /// The delegate lacks `didDetect tags`: messages are read and delivered through `didDetectNDEFs`.
    case readOnly
    /// The delegate implements `didDetect tags`: tag objects are delivered.
    case readWrite
}
