package import Dispatch
internal import Foundation
package import OpenNFCRF
internal import Synchronization

/// The simulated iPhone's NFC system: the session arbiter's driver, the sheet, the app's foreground state, the
/// configuration gate, and the reader procedures over one ``RFFrontend`` (the state machine
/// decides, this class performs).
///
/// Threading: all state is touched on one serial executor, a recursive lock whose outermost holder drains events
/// that arrive re-entrantly (a tag leaving the field during an exchange, a timer firing while the virtual clock
/// moves under a frame) after the current operation. Public callbacks hop to each session's queue. Operations run
/// synchronously on the caller's thread, which is how a 60 s timeout on the virtual clock completes in microseconds.
package final class NFCSystem: @unchecked Sendable {
    /// The frontend, or nil when the device has no reader (`readingAvailable` is false).
    package let frontend: (any RFFrontend)?
    package let configuration: AppConfiguration
    let platform: any TagPlatform
    let now: @Sendable () -> NFCInstant
    let makeTimer: @Sendable (NFCDuration, @escaping @Sendable () -> Void) -> TimerHandle
    /// Which handles are in the field now, when the backend can tell without polling (the virtual field can).
    let presence: (@Sendable () -> Set<Int>)?
    /// Called when the app must be terminated (iOS kills an app that starts a session without a usage
    /// description). The default prints the reason and exits; the testing product records it instead.
    package var terminate: @Sendable (String) -> Void = { reason in
        FileHandle.standardError.write(Data("OpenCoreNFC: \(reason)\n".utf8))
        exit(1)
    }
    /// How long a session may run (Core NFC: 60 s).
    package var sessionLimit = NFCDuration.seconds(60)
    /// Poll again this often while scanning, for backends that cannot report tags arriving (nil: event driven).
    package var pollInterval: NFCDuration?

    let lock = NSRecursiveLock()
    let workQueue = DispatchQueue(label: "OpenCoreNFC.system")
    /// The serial queue system work runs on; sessions created with `queue: nil` get a private queue targeting it.
    package var executorQueue: DispatchQueue { workQueue }
    /// How deeply the thread holding `lock` has entered the executor. Read and written only under `lock`; an atomic
    /// (relaxed) only so that its reads and writes, several per operation, are not dynamic exclusivity checks.
    private let depth = Atomic<Int>(0)
    var deferred: [() -> Void] = []
    var arbiter = SessionArbiter()
    var sessions: [SessionID: SessionState] = [:]
    var sheetState = SystemSheet()
    /// The phone's own state (screen, lock, Wallet, camera, airplane mode, payment eligibility): PhoneState.swift.
    var phone = PhoneState()
    /// Card emulation (`CardSession`): CardEmulation/NFCSystem+CardEmulation.swift.
    var cardEmulation = CardEmulationStore()
    /// Background tag reading (NFCSystem+BackgroundReading.swift): whether this phone does it (iPhone XS and
    /// later; off for process defaults), the tags it already read while they stay in the field, what it showed.
    package var supportsBackgroundReading = false
    var backgroundSeen: Set<Int> = []
    var shownNotifications: [BackgroundNotification] = []
    var entries: [TranscriptEntry] = []
    package internal(set) var appTerminated: String?
    /// Whether transcript lines are kept (RF frames additionally need ``recordsFrames``).
    package var recordsTranscript = true { didSet { updateLogging() } }
    package var recordsFrames: Bool {
        get { framesFlag.on.load(ordering: .relaxed) }
        set { framesFlag.on.store(newValue, ordering: .relaxed) }
    }
    /// ``recordsFrames``, where the frontend's observer reads it on every frame without a dynamic exclusivity check.
    private let framesFlag = FramesFlag()
    /// Called with every transcript line as it happens (`OPENCORENFC_TRACE`), whether or not lines are kept.
    package var trace: (@Sendable (TranscriptEntry) -> Void)? { didSet { updateLogging() } }
    /// ``recordsTranscript`` or ``trace``: whether a transcript line goes anywhere. ``log(_:_:)`` runs about twenty
    /// times a session and reads this instead of the two properties (each read a dynamic exclusivity check).
    private let logging = Atomic<Bool>(true)
    private func updateLogging() { logging.store(recordsTranscript || trace != nil, ordering: .relaxed) }
    /// Whether the device has a reader now: a frontend that offers at least one technology (a remote field that
    /// went away offers none).
    package var hasReader: Bool { frontend.map { !$0.capabilities.technologies.isEmpty } ?? false }
    /// Called on the executor with the sheet each time it changes (the remote field shows it).
    package var sheetDidChange: (@Sendable (SystemSheet) -> Void)?
    /// Called on the executor with each event posted to a session, as the app receives it (``SessionEvent/appText``:
    /// the remote field's transcript shows it between the frames).
    package var sessionEventPosted: (@Sendable (SessionEvent) -> Void)?

    // Quiescence tracking, for tests and the idle detector.
    /// Signalled when ``pendingCallbacks`` reaches zero (``waitForCallbacks()`` waits on it).
    let quiet = NSCondition()
    /// Callbacks posted and not yet finished. An atomic, so posting and finishing one takes no lock; the count
    /// reaching zero is announced under `quiet`, after the decrement, so a waiter that saw it above zero under
    /// `quiet` is always woken.
    private let pending = Atomic<Int>(0)
    var pendingCallbacks: Int { pending.load(ordering: .sequentiallyConsistent) }
    /// When the app last called into the system (`DispatchTime` nanoseconds), for the idle detector.
    private let lastCall = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
    var lastAPICall: UInt64 { lastCall.load(ordering: .relaxed) }
    /// Tag operations running now. Changed under the executor and read by the idle detector's thread without it
    /// (``isQuiescent``), so an atomic.
    let inFlight = Atomic<Int>(0)

    /// Creates a system over a frontend (nil for a device without a reader).
    package init<C: SystemClock>(
        frontend: (any RFFrontend)?, clock: C, configuration: AppConfiguration, platform: any TagPlatform,
        presence: (@Sendable () -> Set<Int>)? = nil
    ) {
        self.frontend = frontend
        self.configuration = configuration
        self.platform = platform
        self.presence = presence
        self.now = { clock.now }
        self.makeTimer = { delay, action in clock.timer(after: delay, action) }
        if let f = frontend as? InstrumentedFrontend {
            let flag = framesFlag
            f.observer = { [weak self] e in
                // Nothing to do unless frames are recorded (the default is off): the flag first, the system after.
                guard flag.on.load(ordering: .relaxed) else { return }
                self?.recordFrame(e)
            }
        }
    }

    // MARK: executor

    /// Runs `body` on the executor; events that arrive while it runs are drained afterwards.
    func perform<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        enterExecutor()
        defer { leaveExecutor() }
        return try body()
    }

    /// Runs `body` on the executor: for anything that touches what the system drives (a virtual field, the virtual
    /// clock) from outside, e.g. a test placing a tag. Events it causes run after it.
    package func synchronized<T>(_ body: () throws -> T) rethrows -> T {
        enterExecutor()
        defer { leaveExecutor() }
        return try body()
    }

    private func enterExecutor() {
        lock.lock()
        depth.wrappingAdd(1, ordering: .relaxed)
    }

    /// Leaves the executor; the outermost exit first drains the events deferred while it ran.
    private func leaveExecutor() {
        if depth.load(ordering: .relaxed) == 1 {
            while !deferred.isEmpty {
                let next = deferred.removeFirst()
                next()
            }
        }
        depth.wrappingSubtract(1, ordering: .relaxed)
        lock.unlock()
    }

    /// Runs an external event now, or after the current operation when one is running on this thread.
    func event(_ body: @escaping () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if depth.load(ordering: .relaxed) > 0 {
            deferred.append(body)
        } else {
            perform { body() }
        }
    }

    /// Notes an API call from the app (the idle detector waits for a quiet spell).
    func touch() { lastCall.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    /// Posts an event to a session's client on its queue, counting it until it has run.
    func post(_ state: SessionState, _ event: SessionEvent) {
        guard let client = state.client ?? state.weakClient else { return }
        sessionEventPosted?(event)
        callbackPosted()
        let system = self
        state.queue.async {
            NFCSystem.$current.withValue(system) { client.receive(event) }
            system.callbackFinished()
        }
    }

    /// Runs `body` on the system's work queue (serial, in submission order), counting it until it has run: the
    /// public layer submits every app call here so the app's thread never waits for the radio.
    ///
    /// `via` names a queue that targets ``executorQueue`` (a session's private queue): work submitted through it runs
    /// on the same thread as that session's callbacks, saving a thread hop per call.
    ///
    /// `body` is the system's own work (an app call performed: `begin`, `invalidate`, a tag command), never app
    /// code, so it runs without binding ``current``: nothing in it creates a session. App code runs in
    /// ``post(_:_:)`` and ``complete(on:_:)``, which bind it (a binding costs two allocations, about 600
    /// instructions).
    package func submit(via queue: DispatchQueue? = nil, _ body: @escaping @Sendable () -> Void) {
        callbackPosted()
        let system = self
        (queue ?? workQueue).async {
            body()
            system.callbackFinished()
        }
    }

    /// Runs a completion handler on a session's queue, counting it until it has run.
    package func complete(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
        callbackPosted()
        let system = self
        queue.async {
            NFCSystem.$current.withValue(system) { body() }
            system.callbackFinished()
        }
    }

    /// Counts a callback about to be queued (before it is queued, so it is never seen finished before it started).
    func callbackPosted() {
        pending.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    func callbackFinished() {
        if pending.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue == 0 {
            // Under the lock: a waiter checks the count under it and then waits, so it either sees zero or is
            // already waiting when this broadcast comes.
            quiet.withLock { quiet.broadcast() }
        }
    }

    /// Blocks until every callback posted so far, and every callback those post in turn, has run. Call it from the
    /// test's thread, never from a session queue.
    package func waitForCallbacks() {
        quiet.lock()
        while pendingCallbacks > 0 { quiet.wait() }
        quiet.unlock()
    }

    /// Whether nothing is running or queued: no callback pending and no operation in flight.
    package var isQuiescent: Bool {
        quiet.withLock { pendingCallbacks == 0 && inFlight.load(ordering: .sequentiallyConsistent) == 0 }
    }

    /// Nanoseconds of wall time since the app's last call into the system.
    package var wallTimeSinceLastAPICall: UInt64 {
        DispatchTime.now().uptimeNanoseconds &- lastAPICall
    }

    // MARK: the current system

    /// The system sessions created on this task (or inside its callbacks) belong to; nil means the process default.
    @TaskLocal package static var current: NFCSystem?

    // MARK: observation

    /// The sheet as the user sees it now.
    package var sheet: SystemSheet { perform { sheetState } }

    /// Everything recorded so far.
    package var transcript: [TranscriptEntry] { perform { entries } }

    package func clearTranscript() { perform { entries.removeAll() } }

    /// Adds a line to the transcript (what the app received, for demos and tests).
    package func note(_ kind: TranscriptEntry.Kind, _ text: String) { perform { log(kind, text) } }

    func log(_ kind: TranscriptEntry.Kind, _ text: @autoclosure () -> String) {
        if kind == .sheet { sheetDidChange?(sheetState) }
        guard logging.load(ordering: .relaxed) else { return }
        let entry = TranscriptEntry(time: now(), kind: kind, text: text())
        if recordsTranscript { entries.append(entry) }
        trace?(entry)
    }

    private func recordFrame(_ e: RFTraceEvent) {
        // `recordsFrames` first: it is false unless asked for, and this runs for every frame.
        guard recordsFrames, recordsTranscript || trace != nil else { return }
        let text: String
        switch e {
        case .activated(let t): text = "activated \(t)"
        case .sent(let b):
            text =
                "→ \(b.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined(separator: " "))"
        case .received(let r): text = "← \(r)"
        case .waitingTimeExtensions(let m):
            // The card asked for more time before answering (ISO/IEC 14443-4 §7.3).
            text = "S(WTX) " + m.map { "WTXM \($0)" }.joined(separator: ", ")
        case .authenticated(let a): text = "authenticated \(a)"
        case .failed(let err): text = "✕ \(err)"
        case .deactivated: text = "deactivated"
        }
        log(.rf, text)
    }

    /// The phase of a session in the arbiter.
    package func phase(of id: SessionID) -> SessionArbiter.Phase? { perform { arbiter.phase(of: id) } }

    /// The session the reader is serving now.
    package var activeSession: SessionID? { perform { arbiter.active } }
}

/// Whether the system records RF frames (``NFCSystem/recordsFrames``), shared with the frontend's observer.
private final class FramesFlag: Sendable {
    let on = Atomic<Bool>(false)
}
