/// The MIFARE product family of an ``NFCMiFareTag``, with Apple's raw values (Apple's Core NFC documentation; docs/PARITY.md §8).
public enum NFCMiFareFamily: UInt, Sendable, Hashable {
    /// A MIFARE-compatible ISO 14443 Type A tag of no more specific family (e.g. an NFC Forum Type 2 tag).
    case unknown = 1
    /// MIFARE Ultralight and NTAG (NFC Forum Type 2).
    case ultralight = 2
    /// MIFARE Plus.
    case plus = 3
    /// MIFARE DESFire.
    case desfire = 4
}
