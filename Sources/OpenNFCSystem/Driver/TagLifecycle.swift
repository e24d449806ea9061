internal import OpenNFCTags

/// The tags of one session, per polling round, as a value: which targets the session has seen, which it was handed
/// (`didDetect tags`), which left the field, which one is connected, and whether polling waits for
/// `restartPolling()` (Apple's Core NFC documentation; docs/PARITY.md §3.2, §5). Like ``SessionArbiter``, it decides
/// and remembers; the system does the radio work (activating, deactivating) the answers call for.
///
/// | State of a handle | Enters by | Leaves by |
/// |---|---|---|
/// | seen | a poll finds it (``markSeen(_:)``) | a poll without it (``forgetLeft(present:)``), a new round |
/// | delivered | `didDetect tags` (``deliver(_:)``) | a new round, read-only fallback (``resumeReading()``) |
/// | gone | an operation finds it left (``lose(_:)``) | a new round, read-only fallback |
/// | connected | `connect(to:)` (``connect(_:)``) | another connect, ``lose(_:)``, ``disconnect()``, a new round |
///
/// Invariants, true after every call whatever the order of calls (``violations`` lists any that fail; the tests
/// check them after each step of seeded random sequences):
/// 1. every delivered tag belongs to this round: its reference has this round's generation and its own handle;
/// 2. a delivered tag was seen in this round (polling, which forgets seen tags, stops at delivery);
/// 3. a gone tag is a delivered one;
/// 4. the connected tag is delivered and not gone;
/// 5. while tags are delivered, polling waits for a restart;
/// 6. a new round starts empty, one generation later, so every older tag object is stale.
struct TagLifecycle: Sendable, Hashable {
    /// A delivered tag: what the app holds, and what the reader procedures identified.
    struct Entry: Sendable, Hashable {
        var tag: DeliveredTag
        var identity: IdentifiedTag
    }

    /// Incremented by each new round (``restart()``): tags of an older round are stale.
    private(set) var generation = 0
    /// Tags delivered in this round, by handle.
    private(set) var delivered: [Int: Entry] = [:]
    /// Handles handled in this round (delivered, read, or not deliverable) while they stay in the field.
    private(set) var seen: Set<Int> = []
    /// Delivered tags found to have left the field.
    private(set) var gone: Set<Int> = []
    /// The tag `connect(to:)` activated.
    private(set) var connected: Int?
    /// Delivery stopped after `didDetect tags` until `restartPolling()` (tag sessions, read-write NDEF sessions).
    private(set) var awaitingRestart = false

    /// Whether a poll may look for new tags: nothing delivered waits for a restart and nothing is connected.
    var isPolling: Bool { !awaitingRestart && connected == nil }

    /// A new polling round (`restartPolling()`): everything of the old round is forgotten. Returns the handle that
    /// was connected, which the caller deactivates.
    @discardableResult
    mutating func restart() -> Int? {
        let was = connected
        self = TagLifecycle(generation: generation + 1)
        return was
    }

    private init(generation: Int) { self.generation = generation }
    init() {}

    /// A poll found `present`: seen handles no longer there are forgotten, so a tag that comes back is new. Only
    /// while polling.
    mutating func forgetLeft(present: Set<Int>) {
        guard isPolling else { return }
        seen.formIntersection(present)
    }

    /// Marks a polled handle as handled in this round; false when it already was.
    mutating func markSeen(_ handle: Int) -> Bool {
        seen.insert(handle).inserted
    }

    /// `didDetect tags`: these tags are handed to the app and polling waits for a restart. Entries of another round
    /// or of handles not seen in this one are not recorded. Returns how many were.
    @discardableResult
    mutating func deliver(_ entries: [Entry]) -> Int {
        var fresh = 0
        for e in entries where e.tag.reference.generation == generation && seen.contains(e.tag.reference.handle) {
            delivered[e.tag.reference.handle] = e
            fresh += 1
        }
        if fresh > 0 { awaitingRestart = true }
        return fresh
    }

    /// The delegate reads NDEF only (no `didDetect tags`): the delivered tags are returned for reading and polling
    /// resumes. Returns them with the handle that was connected (none, in practice), which the caller deactivates.
    mutating func resumeReading() -> (entries: [Int: Entry], connected: Int?) {
        let result = (delivered, connected)
        delivered.removeAll()
        gone.removeAll()
        connected = nil
        awaitingRestart = false
        return result
    }

    /// The delivered tag a reference names in this round, if any (stale, gone or not, connected or not).
    func entry(_ ref: TagReference) -> Entry? {
        guard ref.generation == generation else { return nil }
        return delivered[ref.handle]
    }

    /// Changes what the app's tag reports (a FeliCa tag's selected system); its reference stays.
    mutating func update(_ handle: Int, _ body: (inout DeliveredTag) -> Void) {
        guard var e = delivered[handle] else { return }
        let reference = e.tag.reference
        body(&e.tag)
        e.tag.reference = reference
        delivered[handle] = e
    }

    /// The checks every tag operation makes, in Core NFC's order: a tag of an older round or one that left is 100
    /// (`readerTransceiveErrorTagConnectionLost`), one not connected is 104 (`readerTransceiveErrorTagNotConnected`).
    func check(_ ref: TagReference, requireConnected: Bool) throws(SystemError) -> Entry {
        guard let e = entry(ref) else {
            throw SystemError(.tagConnectionLost, "the tag is from before restartPolling()")
        }
        if gone.contains(ref.handle) { throw SystemError(.tagConnectionLost, "the tag left the field") }
        if requireConnected && connected != ref.handle {
            throw SystemError(.tagNotConnected, "connect(to:) the tag first")
        }
        return e
    }

    /// Whether the reference names a delivered tag of this round that has not been found gone.
    func isAvailable(_ ref: TagReference) -> Bool {
        entry(ref) != nil && !gone.contains(ref.handle)
    }

    /// `connect(to:)` succeeded for this delivered tag; false (nothing changes) for one not delivered or gone.
    @discardableResult
    mutating func connect(_ handle: Int) -> Bool {
        guard delivered[handle] != nil, !gone.contains(handle) else { return false }
        connected = handle
        return true
    }

    /// Releases the connection (another tag is about to be connected, the session ends). Returns the handle that
    /// was connected, which the caller deactivates.
    @discardableResult
    mutating func disconnect() -> Int? {
        defer { connected = nil }
        return connected
    }

    /// An operation found the delivered tag gone from the field: it stays gone for this round.
    mutating func lose(_ handle: Int) {
        guard delivered[handle] != nil else { return }
        gone.insert(handle)
        if connected == handle { connected = nil }
    }

    /// The invariants above that do not hold (empty when all do).
    var violations: [String] {
        var v: [String] = []
        for (h, e) in delivered where e.tag.reference.handle != h || e.tag.reference.generation != generation {
            v.append("1: delivered tag \(h) has reference \(e.tag.reference)")
        }
        if !Set(delivered.keys).isSubset(of: seen) { v.append("2: a delivered tag was not seen") }
        if !gone.isSubset(of: Set(delivered.keys)) { v.append("3: a gone tag was not delivered") }
        if let c = connected, delivered[c] == nil || gone.contains(c) {
            v.append("4: connected tag \(c) is not delivered or is gone")
        }
        if !delivered.isEmpty && !awaitingRestart { v.append("5: tags are delivered but polling goes on") }
        return v
    }
}
