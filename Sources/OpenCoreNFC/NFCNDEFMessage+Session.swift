internal import Foundation

/// The bridge between the session layer's message bytes and ``NFCNDEFMessage``.
extension NFCNDEFMessage {
    /// A message read from a tag (nil when the bytes are not one valid NDEF message).
    convenience init?(sessionBytes: [UInt8]) { self.init(data: Data(sessionBytes)) }

    /// The bytes to store on a tag.
    var sessionBytes: [UInt8] { stubBytes }
}
