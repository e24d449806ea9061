public import Foundation

/// The Objective-C shape of the tag session's delegate (ObjC `NFCTagReaderSessionDelegate`, imported as
/// `__NFCTagReaderSessionDelegate` because the Swift overlay declares ``NFCTagReaderSessionDelegate``): only
/// `didInvalidateWithError` is required; the two `@optional` methods have empty default implementations here.
///
/// It exists so that code naming it compiles (docs/PARITY.md). Swift code hands sessions an
/// ``NFCTagReaderSessionDelegate``, as on iOS, where only the Swift-private `__init` takes this protocol; a type
/// conforming to both receives the Swift delegate's callbacks.
public protocol __NFCTagReaderSessionDelegate: NSObjectProtocol {
    /// RF is on and the session is scanning (`@optional` in Objective-C).
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession)
    /// The session ended; `error` is an ``NFCReaderError``.
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error)
    /// Tags were found, as Objective-C tag objects (`@optional` in Objective-C).
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [any __NFCTag])
}

extension __NFCTagReaderSessionDelegate {
    public func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}
    public func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [any __NFCTag]) {}
}
