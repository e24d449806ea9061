/// The kind of a tag object (ObjC `NFCTagType`, imported as `__NFCTagType`), with Apple's raw values (Apple's Core NFC documentation; docs/PARITY.md §4.4).
public enum __NFCTagType: UInt, Sendable, Hashable {
    /// An ISO 15693 (NFC-V) tag.
    case iso15693 = 1
    /// A FeliCa (NFC-F) tag.
    case feliCa = 2
    /// An ISO 14443-4 Type A/B tag that speaks ISO 7816 APDUs.
    case iso7816Compatible = 3
    /// A MIFARE tag (Ultralight, Plus, DESFire).
    case miFare = 4
}
