public import Foundation

/// What every reader session offers (ObjC `@protocol NFCReaderSession`, renamed in Swift because the class has
/// the same name; Apple's Core NFC documentation).
public protocol NFCReaderSessionProtocol: NSObjectProtocol {
    /// True once the session is active and scanning.
    var isReady: Bool { get }
    /// The instruction text on the system's scan sheet; may be changed while the session runs.
    var alertMessage: String { get set }
    /// Starts the session: it waits for the reader if another session holds it, then shows the sheet and scans.
    func begin()
    /// Ends the session for good; the delegate hears `readerSessionInvalidationErrorUserCanceled` (200).
    func invalidate()
    /// Ends the session, showing `errorMessage` with an error glyph on the sheet before it closes.
    func invalidate(errorMessage: String)
}
