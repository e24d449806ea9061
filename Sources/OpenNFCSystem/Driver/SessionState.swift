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
    /// The session's tags in the current polling round (``TagLifecycle``: its rules and invariants).
    var tags = TagLifecycle() {
        didSet {
            if tags.connected != oldValue.connected || tags.generation != oldValue.generation
                || tags.gone != oldValue.gone
            {
                ndef = nil
            }
        }
    }
    /// The NDEF procedures of the connected tag, learnt once per connection (dropped whenever the connection or
    /// the round changes, or a tag is found gone).
    var ndef: (any NDEFAccess)?
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
