/// Identifies one reader session on a system, in creation order.
package struct SessionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let raw: UInt64
    package init(raw: UInt64) { self.raw = raw }
    package static func < (a: SessionID, b: SessionID) -> Bool { a.raw < b.raw }
    package var description: String { "session \(raw)" }
    /// The arbiter's and the system's tables are keyed by session, about fifteen lookups a session: hashed as the
    /// integer it is (the standard library's one-word hash of `UInt64`, with the table's seed), not through a
    /// `Hasher` built, fed and finalised for each lookup. Equal IDs hash equally, as `Hashable` requires.
    package func hash(into hasher: inout Hasher) { hasher.combine(raw) }
    package func _rawHashValue(seed: Int) -> Int { raw._rawHashValue(seed: seed) }
}

/// Why a session ended; the public layer maps each to its `NFCReaderError` code in one exhaustive switch.
public enum InvalidationReason: Hashable, Sendable {
    /// The user tapped Cancel on the sheet (200).
    case userCanceled
    /// The app called `invalidate()` or `invalidate(errorMessage:)` (200, as on iOS).
    case invalidatedByApp
    /// 60 s passed since the session became active (201).
    case sessionTimeout
    /// The app left the foreground (202).
    case terminatedUnexpectedly
    /// The system could not run the session (203).
    case systemBusy
    /// `invalidateAfterFirstRead` after the first successful NDEF read (204).
    case firstNDEFTagRead
    /// Configuration refused the session: missing entitlement or Info.plist entry (2); the text says which.
    case securityViolation(String)
    /// The device has no reader, or the feature is not supported (1).
    case unsupportedFeature(String)
    /// The session's configuration cannot run, e.g. a polling option with no known bit (300); the text says why.
    case invalidConfiguration(String)
    /// The NFC radio is off (airplane mode): 6.
    case radioDisabled
    /// The payment session is not available to this user (7, 8, or a payment location code).
    case paymentIneligible(PaymentEligibility)
}

/// The iPhone's session rules as a value-type state machine: one reader session active
/// system-wide, the others waiting in FIFO order (Apple's Core NFC documentation; docs/PARITY.md §14). Event methods return the actions the
/// driver performs; the arbiter itself has no clock, no threads and no I/O, so its tests are plain sequences.
///
/// Decisions (see docs/DIFFERENCES.md): a second `begin()` queues rather than failing with 203; the 60 s limit
/// runs from activation (when the sheet appears), not from `begin()` of a queued session; `begin()` while the app
/// is in the background ends the session with 202; `invalidate()` before `begin()` also reports 200 once.
package struct SessionArbiter: Sendable {
    package enum Phase: Hashable, Sendable {
        case created
        case queued
        case active
        case invalidated(InvalidationReason)
    }

    /// What the driver must do, in order.
    package enum Action: Hashable, Sendable {
        /// Present the sheet, start the 60 s deadline, tell the delegate the session is active, start polling.
        case activate(SessionID)
        /// The session ended. When `wasActive`, stop polling, cancel the deadline and close the sheet first.
        /// `repeated` marks the answer to `begin()` on an already invalidated session (the delegate hears the
        /// original reason again, as observed on iOS).
        case invalidate(SessionID, InvalidationReason, wasActive: Bool, repeated: Bool)
    }

    package private(set) var phases: [SessionID: Phase] = [:]
    /// Sessions waiting for the reader, oldest first.
    package private(set) var waiting: [SessionID] = []
    package private(set) var active: SessionID?
    package private(set) var appInForeground = true
    private var nextID: UInt64 = 0

    package init() {}

    package func phase(of id: SessionID) -> Phase? { phases[id] }

    /// A new session object exists (the app called an initializer).
    package mutating func create() -> SessionID {
        nextID += 1
        let id = SessionID(raw: nextID)
        phases[id] = .created
        return id
    }

    /// The app called `begin()`. `refusal` is the configuration's verdict (nil when the session may run).
    package mutating func begin(_ id: SessionID, refusal: InvalidationReason? = nil) -> [Action] {
        switch phases[id] {
        case .created:
            if !appInForeground { return end(id, .terminatedUnexpectedly) }
            if let refusal { return end(id, refusal) }
            if active == nil {
                active = id
                phases[id] = .active
                return [.activate(id)]
            }
            phases[id] = .queued
            waiting.append(id)
            return []
        case .queued, .active, nil:
            return []
        case .invalidated(let reason):
            return [.invalidate(id, reason, wasActive: false, repeated: true)]
        }
    }

    /// The app invalidated the session.
    package mutating func invalidate(_ id: SessionID) -> [Action] { end(id, .invalidatedByApp) }

    /// The session's own logic ended it (first NDEF read, a configuration check at discovery).
    package mutating func end(_ id: SessionID, _ reason: InvalidationReason) -> [Action] {
        switch phases[id] {
        case .created:
            phases[id] = .invalidated(reason)
            return [.invalidate(id, reason, wasActive: false, repeated: false)]
        case .queued:
            phases[id] = .invalidated(reason)
            waiting.removeAll { $0 == id }
            return [.invalidate(id, reason, wasActive: false, repeated: false)]
        case .active:
            phases[id] = .invalidated(reason)
            active = nil
            return [.invalidate(id, reason, wasActive: true, repeated: false)] + promote()
        case .invalidated, nil:
            return []
        }
    }

    /// The active session's 60 s deadline passed.
    package mutating func deadlineExpired(_ id: SessionID) -> [Action] {
        guard active == id else { return [] }
        return end(id, .sessionTimeout)
    }

    /// The user tapped Cancel on the sheet.
    package mutating func userTappedCancel() -> [Action] {
        guard let id = active else { return [] }
        return end(id, .userCanceled)
    }

    /// The app moved to the background: every running or waiting session ends with 202, active one first.
    package mutating func appDidEnterBackground() -> [Action] {
        appInForeground = false
        var actions: [Action] = []
        if let id = active {
            phases[id] = .invalidated(.terminatedUnexpectedly)
            active = nil
            actions.append(.invalidate(id, .terminatedUnexpectedly, wasActive: true, repeated: false))
        }
        for id in waiting {
            phases[id] = .invalidated(.terminatedUnexpectedly)
            actions.append(.invalidate(id, .terminatedUnexpectedly, wasActive: false, repeated: false))
        }
        waiting.removeAll()
        return actions
    }

    /// The app came back to the foreground.
    package mutating func appWillEnterForeground() { appInForeground = true }

    /// The session object was released; it leaves the books (an active one ends as if invalidated by the app).
    package mutating func forget(_ id: SessionID) -> [Action] {
        let actions = end(id, .invalidatedByApp)
        phases[id] = nil
        return actions
    }

    private mutating func promote() -> [Action] {
        guard active == nil, !waiting.isEmpty else { return [] }
        let next = waiting.removeFirst()
        active = next
        phases[next] = .active
        return [.activate(next)]
    }
}
