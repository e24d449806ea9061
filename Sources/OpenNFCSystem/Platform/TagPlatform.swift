package import OpenNFCRF
internal import OpenNFCTags

/// What a discovered target turned out to be, as far as the session rules care.
package struct TagIdentity: Sendable, Hashable {
    package enum Family: Sendable, Hashable {
        /// An NFC Forum Type 2 tag (NTAG, Ultralight): Core NFC's `NFCMiFareTag` with family `.ultralight`.
        case type2(chip: String)
        /// A MIFARE DESFire: `NFCISO7816Tag` when a declared AID selects, `NFCMiFareTag` `.desfire` otherwise.
        case desfire
        /// Another ISO-DEP card: `NFCISO7816Tag`, delivered only after a declared AID selects.
        case iso7816
        /// An NFC Forum Type 1 tag (Topaz): NDEF reader sessions only; Core NFC has no `NFCTag` case for it.
        case type1
        /// An NFC Forum Type 5 tag (ISO/IEC 15693: ICODE, ST25, Tag-it), by chip name: Core NFC's `NFCISO15693Tag`.
        case type5(chip: String)
        /// An NFC Forum Type 3 tag (FeliCa): NDEF reader sessions read it; `NFCFeliCaTag` in tag sessions.
        case type3
        /// MIFARE Classic / Plus in SL1: `NFCMiFareTag` with family `.unknown` (no NDEF: Crypto1 is not supported).
        case mifareClassic
        /// Something no session can deliver yet (FeliCa without procedures, an unrecognised target).
        case unsupported(String)
    }

    package var target: RFTarget
    package var family: Family
    /// ISO 14443-4 historical bytes from the ATS, if any.
    package var historicalBytes: [UInt8]?
    /// What the reader procedures identified (the exact chip, a DESFire's version), kept so that the NDEF access
    /// for this identity is built from it rather than from ``family`` (no lossy round trip; nil for identities
    /// made by other platforms).
    var identified: IdentifiedTag?

    package init(target: RFTarget, family: Family, historicalBytes: [UInt8]? = nil) {
        self.target = target
        self.family = family
        self.historicalBytes = historicalBytes
    }
}

/// What NDEF detection reports (`queryNDEFStatus`).
package struct NDEFState: Sendable, Hashable {
    package enum Status: Sendable, Hashable {
        case notSupported, readWrite, readOnly
    }

    package var status: Status
    package var capacity: Int

    package init(status: Status, capacity: Int) {
        self.status = status
        self.capacity = capacity
    }
}

/// The NDEF operations of one activated tag; errors are already mapped to the session's codes (read and write
/// columns differ, as in Core NFC).
package protocol NDEFAccess: AnyObject {
    func detect() throws(SystemError) -> NDEFState
    /// The stored message bytes; `[]` for an empty NDEF tag.
    func read() throws(SystemError) -> [UInt8]
    func write(_ message: [UInt8]) throws(SystemError)
    func lock() throws(SystemError)
}

/// The reader procedures the system runs over a frontend: identification and NDEF. The standard platform uses
/// `OpenNFCTags`; tests may substitute their own.
package protocol TagPlatform: Sendable {
    /// Identifies an activated target (may exchange frames, e.g. GET_VERSION).
    func identify(_ target: RFTarget, frontend: any RFFrontend) throws(SystemError) -> TagIdentity
    /// The NDEF operations for an activated tag, or nil when its platform has none.
    func ndefAccess(for tag: TagIdentity, frontend: any RFFrontend) -> (any NDEFAccess)?
    /// Whether an activated ISO 7816 card advertises PACE (its EF.CardAccess lists a PACE protocol).
    func advertisesPACE(_ tag: TagIdentity, frontend: any RFFrontend) -> Bool
}

extension TagPlatform {
    /// The reader procedure of `OpenNFCTags` (ICAO Doc 9303 Part 10 §3.11.2: EF.CardAccess in the MF).
    package func advertisesPACE(_ tag: TagIdentity, frontend: any RFFrontend) -> Bool {
        (try? PACECardAccess.advertisesPACE(frontend: frontend)) ?? false
    }
}

extension SystemError {
    /// The mapping of an RF failure met while exchanging a command (Apple's Core NFC documentation; docs/PARITY.md §14).
    package init(rf: RFError, writing: Bool = false) {
        switch rf.code {
        case .linkLost: self.init(.tagConnectionLost, rf.description)
        case .notActivated: self.init(.tagNotConnected, rf.description)
        case .frameTooLong: self.init(.packetTooLong, rf.description)
        case .unsupported: self.init(.unsupportedFeature, rf.description)
        case .timeout, .transmission, .protocolViolation, .frontendFailure:
            self.init(writing ? .tagUpdateFailure : .tagResponseError, rf.description)
        }
    }
}
