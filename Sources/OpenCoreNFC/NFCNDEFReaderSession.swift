public import Foundation
internal import OpenNFCSystem

/// A session that reads NDEF messages, or hands out NDEF tags to read and write (Apple's Core NFC documentation; docs/PARITY.md §3.2).
///
/// The mode follows the delegate: one that implements `readerSession(_:didDetect:)` gets ``NFCNDEFTag`` objects;
/// one that does not gets the messages through `readerSession(_:didDetectNDEFs:)`, and polling restarts by itself
/// after each tag. With `invalidateAfterFirstRead`, a read-only session ends after the first message (204).
open class NFCNDEFReaderSession: NFCReaderSession, @unchecked Sendable {
    private weak var ndefDelegate: (any NFCNDEFReaderSessionDelegate)?
    /// Set by the delegate's default `didDetect tags` while the session offers it a detection (session queue only).
    private var reachedDefaultDidDetect = false

    /// Creates a session; `queue` nil gives it a private serial queue.
    public init(delegate: any NFCNDEFReaderSessionDelegate, queue: DispatchQueue?, invalidateAfterFirstRead: Bool) {
        self.ndefDelegate = delegate
        super.init(system: resolveSystem(), delegate: delegate, queue: queue)
        register(.ndef(invalidateAfterFirstRead: invalidateAfterFirstRead))
    }

    /// Starts a new polling round; tags delivered earlier become invalid. Does nothing on an invalidated session or
    /// when the delegate lacks `didDetect tags`.
    open func restartPolling() {
        let (system, id) = (self.system, self.id)
        system.submit(via: submissionQueue) { system.restartPolling(id) }
    }

    /// Connects to (activates) a tag; another connected tag is released first.
    @preconcurrency open func connect(
        to tag: any NFCNDEFTag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        guard let object = tag as? TagObject, object.reference.session == id else {
            run({ () throws(SystemError) in
                throw SystemError(.invalidParameter, "the tag does not belong to this session")
            }) { completionHandler($0.failure) }
            return
        }
        let (system, ref) = (self.system, object.reference)
        run({ () throws(SystemError) in try system.connect(ref) }) { completionHandler($0.failure) }
    }

    /// Connects to (activates) a tag.
    open func connect(to tag: any NFCNDEFTag) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            connect(to: tag) { error in
                if let error { c.resume(throwing: error) } else { c.resume() }
            }
        }
    }

    func delegateUsesDefaultDidDetect() { reachedDefaultDidDetect = true }

    override func handle(_ event: SessionEvent) {
        guard let delegate = ndefDelegate else { return }
        switch event {
        case .becameActive:
            delegate.readerSessionDidBecomeActive(self)
        case .detected(let tags):
            let objects = tags.map { TagObject.make($0, session: self) }
            let (system, id) = (self.system, self.id)
            if system.ndefMode(id) == .undetermined {
                reachedDefaultDidDetect = false
                delegate.readerSession(self, didDetect: objects)
                if reachedDefaultDidDetect {
                    system.submit(via: submissionQueue) { system.fallBackToReading(id, tags: tags) }
                } else {
                    system.confirmReadWrite(id)
                }
            } else {
                delegate.readerSession(self, didDetect: objects)
            }
        case .message(_, let bytes):
            guard let message = NFCNDEFMessage(sessionBytes: bytes) else { return }
            delegate.readerSession(self, didDetectNDEFs: [message])
        case .invalidated(let reason):
            delegate.readerSession(self, didInvalidateWithError: NFCReaderError(reason))
        case .vasResponses:
            break
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
