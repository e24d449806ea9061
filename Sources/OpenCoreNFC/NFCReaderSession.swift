public import Foundation
internal import OpenNFCSystem
internal import Synchronization

/// The abstract base of every reader session (Core NFC §2.2). Never created directly.
///
/// Sessions are thread-safe: their state lives in the simulated system, and every call hops to the system's serial
/// work queue, so they are `Sendable` (a difference from Apple's class, which is not marked).
open class NFCReaderSession: NSObject, NFCReaderSessionProtocol, @unchecked Sendable {
    let system: NFCSystem
    var id = SessionID(raw: 0)
    private let queue: DispatchQueue
    private weak var weakDelegate: AnyObject?
    private var client: Client?
    /// A running session keeps itself alive until its invalidation has been delivered, as iOS keeps it.
    private let keepAlive = Mutex<NFCReaderSession?>(nil)

    /// The queue app calls are submitted through: the private session queue (which targets the system's executor
    /// queue, so calls and callbacks share one thread), or nil for the system's own queue.
    let submissionQueue: DispatchQueue?

    init(system: NFCSystem, delegate: AnyObject, queue: DispatchQueue?) {
        self.system = system
        if let queue {
            self.queue = queue
            self.submissionQueue = nil
        } else {
            let own = DispatchQueue(label: "OpenCoreNFC.sessionQueue", target: system.executorQueue)
            self.queue = own
            self.submissionQueue = own
        }
        self.weakDelegate = delegate
        super.init()
    }

    /// Registers the session with the system; subclasses call it at the end of their initializer.
    func register(_ kind: SessionKind) {
        let client = Client(self)
        self.client = client
        id = system.createSession(kind: kind, queue: queue, client: client)
    }

    deinit { system.forget(id) }

    /// The session's delegate, held weakly.
    open var delegate: AnyObject? { weakDelegate }

    /// Whether this device can read NFC tags: false when no reader is configured (Core NFC §14 item 18).
    open class var readingAvailable: Bool { resolveSystem().hasReader }

    /// The queue on which delegate callbacks and completion handlers run: the one given to the initializer, or a
    /// private serial queue.
    open var sessionQueue: DispatchQueue { queue }

    /// True while the session is active and scanning.
    open var isReady: Bool { system.isReady(id) }

    /// The sheet's instruction text.
    open var alertMessage: String {
        get { system.alertMessage(id) }
        set {
            system.setAlertMessage(id, newValue)
        }
    }

    /// Starts the session (Core NFC §14 items 1–3).
    open func begin() {
        keepAlive.withLock { $0 = self }
        let (system, id) = (self.system, self.id)
        system.submit(via: submissionQueue) { system.begin(id) }
    }

    /// Ends the session; the delegate hears 200.
    open func invalidate() {
        let (system, id) = (self.system, self.id)
        system.submit(via: submissionQueue) { system.invalidate(id) }
    }

    /// Ends the session showing `errorMessage` with the error glyph.
    open func invalidate(errorMessage: String) {
        let (system, id) = (self.system, self.id)
        system.submit(via: submissionQueue) { system.invalidate(id, errorMessage: errorMessage) }
    }

    /// Handles one system event on the session queue (subclasses override).
    func handle(_ event: SessionEvent) {}

    /// Runs a completion on the session queue, after the system's work for it. The completion is queued before any
    /// event that arrived while the work ran (the app backgrounded, a tag removed, a timer fired) is handled, so an
    /// operation's outcome reaches the app before the consequences of what happened during it.
    func run<T>(
        _ work: @escaping @Sendable () throws(SystemError) -> T,
        then completion: @escaping (Result<T, any Error>) -> Void
    ) {
        let system = self.system
        let queue = self.queue
        let done = Unchecked(completion)
        system.submit(via: submissionQueue) {
            system.synchronized {
                let result: Result<T, any Error>
                do throws(SystemError) {
                    result = .success(try work())
                } catch {
                    result = .failure(NFCReaderError(error))
                }
                let boxed = Unchecked(result)
                system.complete(on: queue) { done.value(boxed.value) }
            }
        }
    }

    /// Forwards system events to the session without keeping it alive.
    private final class Client: SessionClient, @unchecked Sendable {
        weak var session: NFCReaderSession?
        init(_ session: NFCReaderSession) { self.session = session }
        func receive(_ event: SessionEvent) {
            guard let session else { return }
            session.handle(event)
            if case .invalidated = event { session.keepAlive.withLock { $0 = nil } }
        }
    }
}
