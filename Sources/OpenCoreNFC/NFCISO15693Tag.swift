public import Foundation

/// An ISO 15693 tag (Apple's `NFCISO15693Tag`; see docs/PARITY.md). Partial: the type exists so exhaustive switches over ``NFCTag`` compile, with
/// its properties; its commands are not implemented and no session delivers ISO 15693 tags yet.
public protocol NFCISO15693Tag: __NFCTag, NFCNDEFTag {
    /// The 64-bit UID, big-endian.
    var identifier: Data { get }
    /// UID bits 56–49 (ISO/IEC 7816-6 manufacturer code).
    var icManufacturerCode: Int { get }
    /// UID bits 48–1, big-endian.
    var icSerialNumber: Data { get }
}
