/// A place in a source or configuration file, printed `file:line`.
package struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    package var file: String
    /// 1-based; nil when the file has no lines to point at (a binary plist).
    package var line: Int?
    /// 1-based, in Unicode scalars from the start of the line, where the source scanner knows it (not printed:
    /// `doctor` reports lines, as its output format says; the fuzz target checks it lies inside the line).
    package var column: Int?

    package init(file: String, line: Int?, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    package var description: String { line.map { "\(file):\($0)" } ?? file }
}

/// What an app's sources ask of Core NFC, as far as a static reading can tell: the sessions they create, the AIDs
/// they SELECT, the FeliCa system codes they poll, and any MIFARE Classic expectations.
package struct SourceFacts: Sendable {
    package enum SessionKind: String, Sendable {
        /// `NFCNDEFReaderSession`: needs the `NDEF` (or `TAG`) reader-session format.
        case ndef = "NFCNDEFReaderSession"
        /// `NFCTagReaderSession`: needs the `TAG` format (and `PACE` for `.pace`).
        case tag = "NFCTagReaderSession"
        /// `NFCVASReaderSession`: Wallet VAS; needs no reader-session format.
        case vas = "NFCVASReaderSession"
        /// `NFCPaymentTagReaderSession` (iOS 26): needs its own payment entitlement, not checked here.
        case payment = "NFCPaymentTagReaderSession"
    }

    package struct Session: Sendable {
        package var kind: SessionKind
        package var location: SourceLocation
        /// Polling options named at the call (`iso14443`, `iso15693`, `iso18092`, `pace`); empty for NDEF.
        package var pollingOptions: Set<String>
    }

    package struct Select: Sendable {
        /// The AID, or nil when the bytes could not be worked out statically.
        package var aid: [UInt8]?
        package var location: SourceLocation
    }

    package struct FeliCaPoll: Sendable {
        package var systemCode: [UInt8]?
        package var location: SourceLocation
    }

    package struct Mention: Sendable {
        package var what: String
        package var location: SourceLocation
    }

    package init() {}

    package var filesScanned = 0
    package var sessions: [Session] = []
    package var selects: [Select] = []
    package var feliCaPolls: [FeliCaPoll] = []
    /// Code that handles ISO 7816 tags (`.iso7816(…)`, `NFCISO7816Tag`, `sendCommand(apdu:)`): first place only.
    package var iso7816Use: SourceLocation?
    /// Code that handles FeliCa tags (`.feliCa(…)`, `NFCFeliCaTag`): first place only.
    package var feliCaUse: SourceLocation?
    package var classicExpectations: [Mention] = []

    /// Every polling option any tag session names.
    package var pollingOptions: Set<String> { sessions.reduce(into: Set()) { $0.formUnion($1.pollingOptions) } }
}
