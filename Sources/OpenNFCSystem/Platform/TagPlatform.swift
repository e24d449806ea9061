package import OpenNFCRF
package import OpenNFCTags

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
    /// Writes a message, refusing before the first write what may not be written: not NDEF formatted (401),
    /// read-only (400), empty (403), too large (402) — the reader procedures' `NDEFWriteRule`.
    func write(_ message: [UInt8]) throws(SystemError)
    func lock() throws(SystemError)
}

/// The reader procedures the system runs over a frontend: identification and NDEF. The standard platform uses
/// `OpenNFCTags`; tests may substitute their own.
package protocol TagPlatform: Sendable {
    /// Identifies an activated target (may exchange frames, e.g. GET_VERSION). The answer is the reader
    /// procedures' own ``IdentifiedTag``: the system keeps it whole (the exact Type 2 chip, a DESFire's version) and
    /// hands it back to ``ndefAccess(for:frontend:)``, so nothing is lost on the way.
    func identify(_ target: RFTarget, frontend: any RFFrontend) throws(SystemError) -> IdentifiedTag
    /// The NDEF operations for an activated tag, or nil when its platform has none.
    func ndefAccess(for tag: IdentifiedTag, frontend: any RFFrontend) -> (any NDEFAccess)?
    /// Whether an activated ISO 7816 card advertises PACE (its EF.CardAccess lists a PACE protocol).
    func advertisesPACE(_ tag: IdentifiedTag, frontend: any RFFrontend) -> Bool
}

extension TagPlatform {
    /// The reader procedure of `OpenNFCTags` (ICAO Doc 9303 Part 10 §3.11.2: EF.CardAccess in the MF).
    package func advertisesPACE(_ tag: IdentifiedTag, frontend: any RFFrontend) -> Bool {
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
