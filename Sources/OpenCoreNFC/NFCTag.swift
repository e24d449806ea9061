internal import Foundation

/// A tag found by an ``NFCTagReaderSession``, by kind (Apple's Core NFC documentation; docs/PARITY.md §4.3).
public enum NFCTag {
    case feliCa(any NFCFeliCaTag)
    case iso7816(any NFCISO7816Tag)
    case iso15693(any NFCISO15693Tag)
    case miFare(any NFCMiFareTag)

    /// True while the tag is in the field for its session (false after removal, `restartPolling()`, or the end of
    /// the session).
    public var isAvailable: Bool {
        switch self {
        case .feliCa(let t): return t.isAvailable
        case .iso7816(let t): return t.isAvailable
        case .iso15693(let t): return t.isAvailable
        case .miFare(let t): return t.isAvailable
        }
    }

    init(_ object: TagObject) {
        if let t = object as? ISO7816TagObject {
            self = .iso7816(t)
        } else if let t = object as? FeliCaTagObject {
            self = .feliCa(t)
        } else if let t = object as? ISO15693TagObject {
            self = .iso15693(t)
        } else {
            self = .miFare(object as! MiFareTagObject)
        }
    }

    var object: TagObject? {
        switch self {
        case .iso7816(let t): return t as? TagObject
        case .miFare(let t): return t as? TagObject
        case .feliCa(let t): return t as? TagObject
        case .iso15693(let t): return t as? TagObject
        }
    }
}
