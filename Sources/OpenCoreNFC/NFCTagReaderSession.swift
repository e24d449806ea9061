public import Foundation
internal import OpenNFCRF
internal import OpenNFCSystem

/// A session that discovers tags by technology and hands out ``NFCTag`` values to connect to and command
/// (Apple's Core NFC documentation; docs/PARITY.md §4.2). ISO 7816 tags are delivered only after a SELECT of an AID declared in the Info.plist succeeds,
/// trying them in declaration order; a DESFire card on which none selects arrives as an `NFCMiFareTag`.
open class NFCTagReaderSession: NFCReaderSession, @unchecked Sendable {
    private weak var tagDelegate: (any NFCTagReaderSessionDelegate)?

    init(
        discovery: TagDiscovery?, option: PollingOption, delegate: any NFCTagReaderSessionDelegate,
        queue: DispatchQueue?
    ) {
        self.tagDelegate = delegate
        super.init(system: resolveSystem(), delegate: delegate, queue: queue)
        let d = discovery ?? Self.discovery(option)
        register(.tag(technologies: d.technologies, pace: d.pace))
        if let discovery { system.setDiscovery(id, discovery) }
    }

    /// Creates a session polling `pollingOption`; nil when the option is empty or has unknown bits (the ObjC
    /// initializer accepts 1…15 only). Deprecated in iOS 26.4: use ``init(configuration:delegate:queue:)``.
    @available(*, deprecated, message: "Use init(configuration:delegate:queue:)")
    public convenience init?(
        pollingOption: PollingOption, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil
    ) {
        guard (1...15).contains(pollingOption.rawValue) else { return nil }
        self.init(discovery: nil, option: pollingOption, delegate: delegate, queue: queue)
    }

    /// Creates a session discovering tags as `configuration` says (iOS 26.4). The configuration is applied at
    /// `begin()` and at each `restartPolling()`; an empty polling option or one with unknown bits ends the session
    /// with 300 `tagCommandConfigurationErrorInvalidParameters` at `begin()` (docs/DIFFERENCES.md).
    public convenience init(
        configuration: Configuration, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil
    ) {
        self.init(
            discovery: Self.discovery(configuration), option: configuration.pollingOption, delegate: delegate,
            queue: queue)
    }

    /// The technologies an option polls: `pace` is exclusive and polls ISO 14443 only (Core NFC's header for
    /// `NFCPollingPACE`; docs/DIFFERENCES.md).
    static func discovery(_ option: PollingOption) -> TagDiscovery {
        var technologies: Set<RFTechnology> = []
        let pace = option.contains(.pace)
        if option.contains(.iso14443) || pace { technologies.formUnion([.nfcA, .nfcB]) }
        if !pace && option.contains(.iso15693) { technologies.insert(.nfcV) }
        if !pace && option.contains(.iso18092) { technologies.insert(.nfcF) }
        return TagDiscovery(technologies: technologies, pace: pace)
    }

    static func discovery(_ c: Configuration) -> TagDiscovery {
        var d = discovery(c.pollingOption)
        d.iso7816SelectIdentifiers = c.iso7816SelectIdentifiers
        d.felicaSystemCodes = c.feliCaSystemCodes
        if !(1...15).contains(c.pollingOption.rawValue) {
            d.problem =
                "polling option 0x\(String(c.pollingOption.rawValue, radix: 16)) has no valid bit or unknown bits"
        }
        return d
    }

    /// The tag the session is connected to, if any.
    public var connectedTag: NFCTag? {
        guard let handle = system.connectedHandle(id) else { return nil }
        return connectedTags.withLock { $0[handle] }?.value
    }

    private let connectedTags = TagTable()

    /// Connects to a tag; another connected tag is released first.
    @preconcurrency public func connect(to tag: NFCTag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
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

    /// Starts a new polling round discovering as `configuration` says (iOS 26.4); earlier tags become invalid. The
    /// configuration does not persist: a later ``restartPolling()`` uses the session's own again. Does nothing on
    /// an invalidated session.
    public func restartPolling(configuration: Configuration) {
        let (system, id, d) = (self.system, self.id, Self.discovery(configuration))
        system.submit(via: submissionQueue) { system.restartPolling(id, with: d) }
    }

    override func handle(_ event: SessionEvent) {
        guard let delegate = tagDelegate else { return }
        switch event {
        case .becameActive:
            delegate.tagReaderSessionDidBecomeActive(self)
        case .detected(let tags):
            delegate.tagReaderSession(self, didDetect: tags.map { NFCTag(TagObject.make($0, session: self)) })
        case .message, .vasResponses:
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
