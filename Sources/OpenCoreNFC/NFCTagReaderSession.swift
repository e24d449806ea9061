public import Foundation
internal import OpenNFCRF
internal import OpenNFCSystem

/// A session that discovers tags by technology and hands out ``NFCTag`` values to connect to and command
/// (Core NFC §4.2). ISO 7816 tags are delivered only after a SELECT of an AID declared in the Info.plist succeeds,
/// trying them in declaration order; a DESFire card on which none selects arrives as an `NFCMiFareTag`.
open class NFCTagReaderSession: NFCReaderSession, @unchecked Sendable {
    private weak var tagDelegate: (any NFCTagReaderSessionDelegate)?

    init(validatedOption option: PollingOption, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue?) {
        self.tagDelegate = delegate
        super.init(system: resolveSystem(), delegate: delegate, queue: queue)
        var technologies: Set<RFTechnology> = []
        let pace = option.contains(.pace)
        if option.contains(.iso14443) || pace { technologies.formUnion([.nfcA, .nfcB]) }
        if !pace && option.contains(.iso15693) { technologies.insert(.nfcV) }
        if !pace && option.contains(.iso18092) { technologies.insert(.nfcF) }
        register(.tag(technologies: technologies, pace: pace))
    }

    /// Creates a session polling `pollingOption`; nil when the option is empty or has unknown bits (the ObjC
    /// initializer accepts 1…15 only).
    public convenience init?(
        pollingOption: PollingOption, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil
    ) {
        guard (1...15).contains(pollingOption.rawValue) else { return nil }
        self.init(validatedOption: pollingOption, delegate: delegate, queue: queue)
    }

    /// The tag the session is connected to, if any.
    public var connectedTag: NFCTag? {
        guard let handle = system.connectedHandle(id) else { return nil }
        return connectedTags.withLock { $0[handle] }?.value
    }

    private let connectedTags = TagTable()

    /// Connects to a tag; another connected tag is released first.
    public func connect(to tag: NFCTag, completionHandler: @escaping ((any Error)?) -> Void) {
        guard let object = tag.object, object.reference.session == id else {
            run({ () throws(SystemError) in
                throw SystemError(.invalidParameter, "the tag does not belong to this session")
            }) { completionHandler($0.failure) }
            return
        }
        let (system, ref) = (self.system, object.reference)
        let box = Unchecked(tag)
        connectedTags.withLock { $0[ref.handle] = box }
        run({ () throws(SystemError) in try system.connect(ref) }) { completionHandler($0.failure) }
    }

    /// Connects to a tag.
    public func connect(to tag: NFCTag) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            connect(to: tag) { error in
                if let error { c.resume(throwing: error) } else { c.resume() }
            }
        }
    }

    /// Starts a new polling round; earlier tags become invalid and `connectedTag` becomes nil.
    open func restartPolling() {
        let (system, id) = (self.system, self.id)
        system.submit(via: submissionQueue) { system.restartPolling(id) }
    }

    override func handle(_ event: SessionEvent) {
        guard let delegate = tagDelegate else { return }
        switch event {
        case .becameActive:
            delegate.tagReaderSessionDidBecomeActive(self)
        case .detected(let tags):
            delegate.tagReaderSession(self, didDetect: tags.map { NFCTag(TagObject.make($0, session: self)) })
        case .message:
            break
        case .invalidated(let reason):
            delegate.tagReaderSession(self, didInvalidateWithError: NFCReaderError(reason))
        }
    }
}

/// The `NFCTag` values handed out, by handle, so `connectedTag` returns the same objects.
final class TagTable: @unchecked Sendable {
    private let lock = NSLock()
    private var table: [Int: Unchecked<NFCTag>] = [:]
    func withLock<T>(_ body: (inout [Int: Unchecked<NFCTag>]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&table)
    }
}
