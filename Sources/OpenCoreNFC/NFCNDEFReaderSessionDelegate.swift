public import Foundation

/// The NDEF session's delegate (Apple's Core NFC documentation; docs/PARITY.md §3.1).
///
/// `readerSession(_:didDetect:)` and `readerSessionDidBecomeActive(_:)` are optional in Core NFC; here they have
/// default implementations. Whether the delegate implements `didDetect tags` decides the session's mode, as on iOS:
/// the default implementation tells the session "I am the default" when it is reached, so the first detection is
/// offered to `didDetect tags`, and a delegate that does not implement it gets the NDEF messages through
/// `didDetectNDEFs` instead (see docs/DIFFERENCES.md).
public protocol NFCNDEFReaderSessionDelegate: NSObjectProtocol {
    /// The session ended; `error` is an ``NFCReaderError``.
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error)
    /// NDEF messages were read (read-only mode).
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage])
    /// NDEF tags were found (read-write mode). Optional.
    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag])
    /// The session is active and scanning. Optional.
    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession)
}

extension NFCNDEFReaderSessionDelegate {
    /// The default: tells the session that the delegate does not handle tags, which switches it to read-only mode
    /// and delivers the messages of these tags through `didDetectNDEFs`.
    public func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        session.delegateUsesDefaultDidDetect()
    }

    /// The default does nothing.
    public func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {}
}
