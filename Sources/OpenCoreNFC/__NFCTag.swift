public import Foundation

/// What every tag object offers (ObjC `@protocol NFCTag`, imported as `__NFCTag`; Apple's Core NFC documentation).
public protocol __NFCTag: NSObjectProtocol, NSSecureCoding, NSCopying {
    /// The tag's kind.
    var type: __NFCTagType { get }
    /// The session that found the tag (held weakly).
    var session: (any NFCReaderSessionProtocol)? { get }
    /// True while the tag is in the field for its session.
    var isAvailable: Bool { get }
    func asNFCISO15693Tag() -> (any NFCISO15693Tag)?
    func asNFCISO7816Tag() -> (any NFCISO7816Tag)?
    func asNFCFeliCaTag() -> (any NFCFeliCaTag)?
    func asNFCMiFareTag() -> (any NFCMiFareTag)?
}
