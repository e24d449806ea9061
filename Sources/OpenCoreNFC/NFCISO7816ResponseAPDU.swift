public import Foundation

/// An ISO 7816 response APDU as the iOS 14 overlay delivers it: the data field (nil when empty) and the two
/// status words (Apple's Core NFC documentation; docs/PARITY.md §7.2).
public struct NFCISO7816ResponseAPDU {
    /// SW1.
    public var statusWord1: UInt8
    /// SW2.
    public var statusWord2: UInt8
    /// The response data field; nil when the response carried only the status words.
    public var payload: Data?

    /// Creates a response from its status words and data field.
    public init(statusWord1: UInt8, statusWord2: UInt8, payload: Data?) {
        self.statusWord1 = statusWord1
        self.statusWord2 = statusWord2
        self.payload = payload
    }

    /// The original iOS 14 spelling of ``init(statusWord1:statusWord2:payload:)`` (typo included).
    @available(*, deprecated, renamed: "init(statusWord1:statusWord2:payload:)")
    public init(statusWord1: UInt8, statusWord2: UInt8, paylaod: Data?) {
        self.init(statusWord1: statusWord1, statusWord2: statusWord2, payload: paylaod)
    }
}
