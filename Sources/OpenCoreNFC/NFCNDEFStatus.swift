/// The NDEF state of a tag as ``NFCNDEFTag/queryNDEFStatus(completionHandler:)`` reports it, with Apple's raw
/// values (Apple's Core NFC documentation; docs/PARITY.md §5).
public enum NFCNDEFStatus: UInt, Sendable, Hashable {
    /// The tag is not NDEF formatted: NDEF read and write are refused.
    case notSupported = 1
    /// NDEF can be read and written.
    case readWrite = 2
    /// NDEF can be read but not written.
    case readOnly = 3
}
