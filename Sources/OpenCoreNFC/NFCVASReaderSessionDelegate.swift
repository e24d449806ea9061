public import Foundation

/// The callbacks of a ``NFCVASReaderSession``, on its `sessionQueue`.
public protocol NFCVASReaderSessionDelegate: NSObjectProtocol {
    /// RF is on and the reader scans for VAS pass holders (optional in Apple's protocol; the default does nothing).
    func readerSessionDidBecomeActive(_ session: NFCVASReaderSession)
    /// The session ended; discard it.
    func readerSession(_ session: NFCVASReaderSession, didInvalidateWithError error: any Error)
    /// A VAS transaction completed: one response per configuration, in the order the commands were sent.
    func readerSession(_ session: NFCVASReaderSession, didReceive responses: [NFCVASResponse])
}

extension NFCVASReaderSessionDelegate {
    /// Does nothing (Apple's requirement is optional).
    public func readerSessionDidBecomeActive(_ session: NFCVASReaderSession) {}
}
