public import Foundation

/// A FeliCa tag (Apple's Core NFC documentation; docs/PARITY.md §9.2). Partial: the type exists so exhaustive switches over ``NFCTag`` compile, with its
/// two properties; its commands are not implemented and no session delivers FeliCa tags yet (no virtual FeliCa chip
/// or reader procedure). See docs/PARITY.md.
public protocol NFCFeliCaTag: __NFCTag, NFCNDEFTag {
    /// The system code most recently selected by Polling.
    var currentSystemCode: Data { get }
    /// The IDm from the most recent Polling.
    var currentIDm: Data { get }
}
