internal import Synchronization

/// A point on a clock, in nanoseconds since the clock's origin.
public struct NFCInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }
    public static func < (a: Self, b: Self) -> Bool { a.nanoseconds < b.nanoseconds }
    public func advanced(by d: NFCDuration) -> NFCInstant { NFCInstant(nanoseconds: nanoseconds &+ d.nanoseconds) }
    public func duration(since earlier: NFCInstant) -> NFCDuration {
        NFCDuration(nanoseconds: nanoseconds >= earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0)
    }
    public var description: String { NFCDuration(nanoseconds: nanoseconds).description }
}

/// A non-negative span of time in nanoseconds.
public struct NFCDuration: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }
    public static func milliseconds(_ ms: UInt64) -> NFCDuration { NFCDuration(nanoseconds: ms * 1_000_000) }
    public static func microseconds(_ us: UInt64) -> NFCDuration { NFCDuration(nanoseconds: us * 1_000) }
    public static func seconds(_ s: UInt64) -> NFCDuration { NFCDuration(nanoseconds: s * 1_000_000_000) }
    public static let zero = NFCDuration(nanoseconds: 0)
    public static func < (a: Self, b: Self) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: Self, b: Self) -> Self { NFCDuration(nanoseconds: a.nanoseconds + b.nanoseconds) }
    public var seconds: Double { Double(nanoseconds) / 1e9 }
    public var description: String {
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000) s" }
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000) ms" }
        return "\(Double(nanoseconds) / 1e6) ms"
    }
}

/// The source of time for sessions, timeouts and simulated latency. Library code never reads the wall clock
/// directly; it asks a clock, so tests run on a ``VirtualClock`` and finish in microseconds.
public protocol NFCClock: AnyObject, Sendable {
    var now: NFCInstant { get }
}

/// A clock that moves only when told to, with timers that fire in due order as it moves.
///
/// Timers fire on the thread that advances the clock, outside the clock's lock, so a timer may schedule or cancel
/// others. Ties fire in scheduling order, which keeps every run repeatable.
public final class VirtualClock: NFCClock {
    /// Identifies a scheduled timer, for cancelling it.
    public struct TimerID: Hashable, Sendable { let raw: UInt64 }

    private struct Timer {
        var id: TimerID
        var due: NFCInstant
        var action: @Sendable () -> Void
    }

    private struct State {
        var now = NFCInstant(nanoseconds: 0)
        var timers: [Timer] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var now: NFCInstant { state.withLock { $0.now } }

    /// When the earliest pending timer is due, if any.
    public var nextDeadline: NFCInstant? { state.withLock { s in s.timers.map(\.due).min() } }

    /// Number of timers still pending.
    public var pendingTimers: Int { state.withLock { $0.timers.count } }

    /// Runs `action` once the clock reaches `now + delay`.
    @discardableResult
    public func schedule(after delay: NFCDuration, _ action: @escaping @Sendable () -> Void) -> TimerID {
        state.withLock { s in
            s.nextID += 1
            let id = TimerID(raw: s.nextID)
            s.timers.append(Timer(id: id, due: s.now.advanced(by: delay), action: action))
            return id
        }
    }

    public func cancel(_ id: TimerID) {
        state.withLock { s in s.timers.removeAll { $0.id == id } }
    }

    /// Moves the clock forward by `d`, firing every timer that falls due on the way, each at its own instant.
    public func advance(by d: NFCDuration) {
        // With no timer due by the target (the common case: a frame's air time), one lock moves the clock.
        let due: NFCInstant? = state.withLock { s in
            let target = s.now.advanced(by: d)
            guard s.timers.contains(where: { $0.due <= target }) else {
                if s.now < target { s.now = target }
                return nil
            }
            return target
        }
        guard let target = due else { return }
        while let t = popDue(notAfter: target) { t.action() }
        state.withLock { s in if s.now < target { s.now = target } }
    }

    /// Jumps to the earliest pending timer and fires it (and any others due at that same instant).
    /// Returns false when there was no timer.
    @discardableResult
    public func advanceToNextTimer() -> Bool {
        guard let due = nextDeadline else { return false }
        advance(by: due.duration(since: now))
        return true
    }

    private func popDue(notAfter limit: NFCInstant) -> Timer? {
        state.withLock { s -> Timer? in
            var best: Int? = nil
            for (i, t) in s.timers.enumerated() where t.due <= limit {
                if let b = best {
                    if t.due < s.timers[b].due { best = i }
                } else {
                    best = i
                }
            }
            guard let i = best else { return nil }
            let t = s.timers.remove(at: i)
            if s.now < t.due { s.now = t.due }
            return t
        }
    }
}
