internal import OpenNFCNDEF

/// The bridge between the session layer's message bytes and ``NFCNDEFMessage``.
extension NFCNDEFMessage {
    /// A message read from a tag: structurally decoded (NDEF 1.0 §3: flags, lengths, chunks), without the
    /// well-known-type checks of ``init(data:)``, so a tag whose records stretch an RTD still reads as iOS reads it.
    /// Nil when the bytes are not one NDEF message.
    convenience init?(sessionBytes: [UInt8]) {
        guard let message = try? NDEFMessage(decoding: sessionBytes) else { return nil }
        self.init(message: message)
    }

    /// The bytes to store on a tag, or nil when a record cannot be encoded.
    var sessionBytes: [UInt8]? { try? encoded() }
}
