internal import Dispatch
internal import OpenNFCTags

/// What the system keeps for one session while it lives.
final class SessionState: @unchecked Sendable {
    let id: SessionID
    let kind: SessionKind
    let queue: DispatchQueue
    /// Held strongly from `begin()` until the invalidation has been delivered, as iOS keeps a running session.
    var client: (any SessionClient)?
    weak var weakClient: (any SessionClient)?
    var alertMessage = ""
    var ndefMode: NDEFMode = .undetermined
    var deadline: TimerHandle?
    var pollTimer: TimerHandle?
    var isReady = false
    var ended = false
    /// Polling round; `restartPolling()` starts a new one.
    var generation = 0
    /// Tags delivered in this round, by handle.
    var delivered: [Int: (tag: DeliveredTag, identity: IdentifiedTag)] = [:]
    /// Handles already handled in this round (delivered, read, or not deliverable) while they stay in the field.
    var seen: Set<Int> = []
    /// Delivery stops after `didDetect` until `restartPolling()` (tag sessions, read-write NDEF sessions).
    var awaitingRestart = false
    var connected: Int?
    var ndef: (any NDEFAccess)?
    var gone: Set<Int> = []
    /// A tag session's own configuration (`init(configuration:…)`), and the one of the current round when it was
    /// restarted with `restartPolling(configuration:)` (nil again after a plain `restartPolling()`).
    var discovery: TagDiscovery?
    var roundDiscovery: TagDiscovery?

    init(id: SessionID, kind: SessionKind, queue: DispatchQueue, client: any SessionClient) {
        self.id = id
        self.kind = kind
        self.queue = queue
        self.weakClient = client
    }

    var isNDEF: Bool {
        if case .ndef = kind { return true }
        return false
    }
}
