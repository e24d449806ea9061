/// A place in a source or configuration file, printed `file:line`.
struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    var file: String
    /// 1-based; nil when the file has no lines to point at (a binary plist).
    var line: Int?

    var description: String { line.map { "\(file):\($0)" } ?? file }
}

/// What an app's sources ask of Core NFC, as far as a static reading can tell: the sessions they create, the AIDs
/// they SELECT, the FeliCa system codes they poll, and any MIFARE Classic expectations.
struct SourceFacts: Sendable {
    enum SessionKind: String, Sendable {
        /// `NFCNDEFReaderSession`: needs the `NDEF` (or `TAG`) reader-session format.
        case ndef = "NFCNDEFReaderSession"
        /// `NFCTagReaderSession`: needs the `TAG` format (and `PACE` for `.pace`).
        case tag = "NFCTagReaderSession"
        /// `NFCVASReaderSession`: Wallet VAS; needs no reader-session format.
        case vas = "NFCVASReaderSession"
        /// `NFCPaymentTagReaderSession` (iOS 26): needs its own payment entitlement, not checked here.
        case payment = "NFCPaymentTagReaderSession"
    }

    struct Session: Sendable {
        var kind: SessionKind
        var location: SourceLocation
        /// Polling options named at the call (`iso14443`, `iso15693`, `iso18092`, `pace`); empty for NDEF.
        var pollingOptions: Set<String>
    }

    struct Select: Sendable {
        /// The AID, or nil when the bytes could not be worked out statically.
        var aid: [UInt8]?
        var location: SourceLocation
    }

    struct FeliCaPoll: Sendable {
        var systemCode: [UInt8]?
        var location: SourceLocation
    }

    struct Mention: Sendable {
        var what: String
        var location: SourceLocation
    }

    var filesScanned = 0
    var sessions: [Session] = []
    var selects: [Select] = []
    var feliCaPolls: [FeliCaPoll] = []
    /// Code that handles ISO 7816 tags (`.iso7816(…)`, `NFCISO7816Tag`, `sendCommand(apdu:)`): first place only.
    var iso7816Use: SourceLocation?
    /// Code that handles FeliCa tags (`.feliCa(…)`, `NFCFeliCaTag`): first place only.
    var feliCaUse: SourceLocation?
    var classicExpectations: [Mention] = []

    /// Every polling option any tag session names.
    var pollingOptions: Set<String> { sessions.reduce(into: Set()) { $0.formUnion($1.pollingOptions) } }
}
