public import Foundation

/// An ISO 15693 tag (Apple's Core NFC documentation; docs/PARITY.md §10.2). Partial: the type exists so exhaustive switches over ``NFCTag`` compile, with
/// its properties; its commands are not implemented and no session delivers ISO 15693 tags yet. See docs/PARITY.md.
public protocol NFCISO15693Tag: __NFCTag, NFCNDEFTag {
    /// The 64-bit UID, big-endian.
    var identifier: Data { get }
    /// UID bits 56–49 (ISO/IEC 7816-6 manufacturer code).
    var icManufacturerCode: Int { get }
    /// UID bits 48–1, big-endian.
    var icSerialNumber: Data { get }
}
