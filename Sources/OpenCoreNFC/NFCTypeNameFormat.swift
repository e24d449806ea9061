/// The TNF field of an NDEF record (NFC Forum NDEF 1.0 §3.2.6), with Core NFC's case names and raw values.
public enum NFCTypeNameFormat: UInt8, Sendable {
    case empty = 0x00
    /// NFC Forum well-known type (RTD).
    case nfcWellKnown = 0x01
    /// RFC 2046 media type.
    case media = 0x02
    case absoluteURI = 0x03
    /// NFC Forum external type.
    case nfcExternal = 0x04
    case unknown = 0x05
    /// Continuation chunk of a chunked record.
    case unchanged = 0x06
}
