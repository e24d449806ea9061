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
        // Not `oldValue`: reading it copies the lifecycle before every change, and the change then copies its sets
        // (copy on write). The snapshot holds what `oldValue` would have said about the three fields.
        didSet {
            let now = NDEFOwner(tags)
            if now != ndefOwner {
                ndef = nil
                ndefOwner = now
            }
        }
    }
    /// What the NDEF procedures below belong to: the connection, the round and the tags found gone.
    private struct NDEFOwner: Equatable {
        var connected: Int?
        var generation: Int
        var gone: Set<Int>
        init(_ tags: TagLifecycle) {
            connected = tags.connected
            generation = tags.generation
            gone = tags.gone
        }
    }
    private var ndefOwner = NDEFOwner(TagLifecycle())
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
