public import Foundation
public import OpenCoreNFC

/// What a recorded delegate heard, in order.
public enum RecordedEvent: Hashable, Sendable, CustomStringConvertible {
    case becameActive
    /// `didDetectNDEFs` with this many messages.
    case detectedNDEFs(Int)
    /// `didDetect tags` with this many tags.
    case detectedTags(Int)
    /// `didInvalidateWithError` with this code.
    case invalidated(NFCReaderError.Code)

    public var description: String {
        switch self {
        case .becameActive: return "active"
        case .detectedNDEFs(let n): return "didDetectNDEFs(\(n))"
        case .detectedTags(let n): return "didDetect(\(n) tags)"
        case .invalidated(let c): return "invalidated(\(c.rawValue))"
        }
    }
}

/// The bookkeeping shared by the recorders (thread-safe: callbacks arrive on session queues).
public class DelegateRecorder: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [RecordedEvent] = []
    private var _error: (any Error)?
    private var waiters: [CheckedContinuation<(any Error)?, Never>] = []

    /// Every callback so far, in order.
    public var events: [RecordedEvent] { lock.withLock { _events } }

    /// The invalidation error, once the session has ended.
    public var invalidationError: (any Error)? { lock.withLock { _error } }

    /// The invalidation code, once the session has ended.
    public var invalidationCode: NFCReaderError.Code? { (invalidationError as? NFCReaderError)?.code }

    func record(_ e: RecordedEvent) { lock.withLock { _events.append(e) } }

    func recordInvalidation(_ error: any Error) {
        let code = (error as? NFCReaderError)?.code ?? .readerErrorUnsupportedFeature
        let resume: [CheckedContinuation<(any Error)?, Never>] = lock.withLock {
            _events.append(.invalidated(code))
            _error = error
            defer { waiters.removeAll() }
            return waiters
        }
        for w in resume { w.resume(returning: error) }
    }

    /// Suspends until the session is invalidated and returns the error (for async tests).
    public func invalidation() async -> (any Error)? {
        await withCheckedContinuation { (c: CheckedContinuation<(any Error)?, Never>) in
            let done: (any Error)?? = lock.withLock {
                if let e = _error { return .some(e) }
                waiters.append(c)
                return nil
            }
            if let done { c.resume(returning: done) }
        }
    }
}

/// An NDEF session delegate *without* `readerSession(_:didDetect:)`: its session runs in read-only mode and the
/// messages arrive here.
public final class NDEFMessageRecorder: DelegateRecorder, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    private let messageLock = NSLock()
    private var _messages: [NFCNDEFMessage] = []
    /// Called on the session queue with each batch of messages.
    public var onMessages: ((NFCNDEFReaderSession, [NFCNDEFMessage]) -> Void)?
    /// Called on the session queue when the session ends.
    public var onInvalidate: ((NFCNDEFReaderSession, any Error) -> Void)?

    /// Every message received, in order.
    public var messages: [NFCNDEFMessage] { messageLock.withLock { _messages } }

    public func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        recordInvalidation(error)
        onInvalidate?(session, error)
    }

    public func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        messageLock.withLock { _messages += messages }
        record(.detectedNDEFs(messages.count))
        onMessages?(session, messages)
    }

    public func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) { record(.becameActive) }
}

/// An NDEF session delegate *with* `readerSession(_:didDetect:)`: its session runs in read-write mode.
public final class NDEFTagRecorder: DelegateRecorder, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    /// Called on the session queue with the detected tags (the app's logic under test).
    public var onDetect: ((NFCNDEFReaderSession, [any NFCNDEFTag]) -> Void)?
    /// Called on the session queue when the session ends.
    public var onInvalidate: ((NFCNDEFReaderSession, any Error) -> Void)?

    public func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        recordInvalidation(error)
        onInvalidate?(session, error)
    }

    public func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        record(.detectedNDEFs(messages.count))
    }

    public func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        record(.detectedTags(tags.count))
        onDetect?(session, tags)
    }

    public func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) { record(.becameActive) }
}

/// A tag session delegate that records and forwards detections.
public final class TagSessionRecorder: DelegateRecorder, NFCTagReaderSessionDelegate, @unchecked Sendable {
    /// Called on the session queue with the detected tags (the app's logic under test).
    public var onDetect: ((NFCTagReaderSession, [NFCTag]) -> Void)?
    /// Called on the session queue when the session ends.
    public var onInvalidate: ((NFCTagReaderSession, any Error) -> Void)?

    public func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) { record(.becameActive) }

    public func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        recordInvalidation(error)
        onInvalidate?(session, error)
    }

    public func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        record(.detectedTags(tags.count))
        onDetect?(session, tags)
    }
}
