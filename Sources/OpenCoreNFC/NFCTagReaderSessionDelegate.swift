public import Foundation

/// The tag session's delegate; all three methods are required in Swift (Apple's Core NFC documentation; docs/PARITY.md §4.1).
public protocol NFCTagReaderSessionDelegate: NSObjectProtocol {
    /// RF is on and the session is scanning.
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession)
    /// The session ended; `error` is an ``NFCReaderError``.
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error)
    /// Tags were found; polling stops until `restartPolling()`.
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag])
}
