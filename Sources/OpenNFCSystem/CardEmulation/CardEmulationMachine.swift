package import OpenNFCRF
internal import OpenNFCTags

/// One command APDU the terminal sent to the app, in arrival order.
package struct CardAPDUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let raw: UInt64
    package init(raw: UInt64) { self.raw = raw }
    package static func < (a: CardAPDUID, b: CardAPDUID) -> Bool { a.raw < b.raw }
    package var description: String { "APDU \(raw)" }
}

/// The final status the emulation sheet shows (`CardSession.EmulationUIStatus`).
package enum EmulationOutcome: Hashable, Sendable {
    case success
    case failure
}

/// What the phone knows when an app call or a terminal event arrives: the inputs the rules read, gathered by the
/// driver (``NFCSystem``) so that the machine stays free of I/O and clocks.
package struct CardEmulationContext: Sendable {
    package var now: NFCInstant
    /// `CardSession.isSupported`: the device can emulate, and the phone is not set `unsupported`.
    package var supported = true
    /// Why the entitlements make `CardSession()` trap (``AppConfiguration/hceTrapReason``), or nil.
    package var trapReason: String?
    package var availability = CardEmulationAvailability.eligible
    /// Airplane mode.
    package var radioOff = false
    /// A reader session holds the NFC radio.
    package var readerSessionActive = false
    /// The phone's default contactless app, when it is another app (nil: none, or this app).
    package var defaultContactlessApp: String? = "Wallet"

    package init(now: NFCInstant) { self.now = now }
}

/// The iPhone's card-emulation rules as a value-type state machine (Apple's Core NFC documentation: `CardSession`,
/// `CardSession.APDU.respond(response:)`, `NFCPresentmentIntentAssertion`; docs/CARD-EMULATION.md): app calls and
/// terminal events go in, the actions the driver performs come out, with the error a throwing call reports. Like
/// ``SessionArbiter`` it has no clock, threads or I/O; its tests are event → action sequences.
///
/// | Rule | Where |
/// |---|---|
/// | `init()` traps on an unsupported device or without the HCE entitlements | ``create(_:)`` |
/// | one card session at a time; none while a reader session runs or in the background | ``create(_:)`` |
/// | `startEmulation()`: radio, eligibility, access, foreground, cool-down; shows the sheet, starts the 60 s limit | ``startEmulation(_:_:)`` |
/// | `stopEmulation(status:)`: the sheet shows the status and closes; the cool-down starts | ``stopEmulation(_:_:_:)`` |
/// | 60 s after `startEmulation()`: `sessionInvalidated(maxSessionDurationReached)` | ``deadlineFired(_:_:)`` |
/// | a SELECT by DF name reaches the app only for an AID with a declared prefix; others get 6A 82 | ``transceive(_:_:routes:)`` |
/// | `respond` exactly once; a second answer traps; a retry only after `transmissionError` | ``respond(_:_:)`` |
/// | an APDU released unanswered while the terminal waits ends emulation | ``apduReleased(_:_:)`` |
/// | the field comes: `readerDetected`; it goes: `readerDeselected` (also when the app's AID is deselected) | ``fieldOn(_:)``, ``fieldOff()`` |
/// | without emulation or a valid assertion, a field launches the default contactless app | ``fieldOn(_:)`` |
/// | the presentment assertion: foreground only, 15 s, then a 15 s wait | ``acquireAssertion(_:)`` |
/// | background, lock, airplane mode end the session | ``appDidEnterBackground(_:)``, ``radioTurnedOff(_:)`` |
///
/// Invariants (checked by `CardEmulationMachineTests` after every step): at most one live session; an APDU is pending
/// only while emulating with the field on; `selected` implies the field is on and emulation runs; a valid assertion
/// exists only in the foreground.
package struct CardEmulationMachine: Sendable {
    package enum Phase: Hashable, Sendable {
        /// Created, `sessionStarted` posted; not emulating.
        case started
        /// `startEmulation()` succeeded at this instant.
        case emulating(since: NFCInstant)
        /// The stream's last event was posted with this reason.
        case ended(CardEmulationError)
    }

    /// An event for the app's `eventStream`.
    package enum Event: Hashable, Sendable {
        case sessionStarted
        case readerDetected
        case received(CardAPDUID, [UInt8])
        case readerDeselected
        case sessionInvalidated(CardEmulationError)
    }

    package enum Action: Hashable, Sendable {
        /// The call must trap (`fatalError` on iOS).
        case trap(String)
        /// Deliver an event to the session's stream (the stream finishes after `sessionInvalidated`).
        case post(SessionID, Event)
        /// Show the emulation sheet with the session's `alertMessage`.
        case presentSheet(SessionID)
        /// Show the outcome's glyph (if any), then close the sheet.
        case closeSheet(EmulationOutcome?)
        case startDeadline(SessionID)
        case cancelDeadline
        /// The phone starts or stops answering a terminal as a card (tell a card-emulation device).
        case present(Bool)
        /// The terminal's waiting exchange gets these bytes, or no answer (nil: the card stays mute).
        case answer([UInt8]?)
        /// The default contactless app opens over the app (which moves to the background).
        case launchDefaultApp(String)
        case startAssertionTimer(UInt64)
        case cancelAssertionTimer
    }

    /// The result of an event: the actions, and the error the app's call throws (nil: it returns normally).
    package struct Step: Hashable, Sendable {
        package var actions: [Action] = []
        package var error: CardEmulationError?
        package init(_ actions: [Action] = [], error: CardEmulationError? = nil) {
            self.actions = actions
            self.error = error
        }
    }

    enum APDUState: Hashable, Sendable {
        case awaiting
        case answered
        /// The link went away or the terminal stopped waiting: `respond` throws `transmissionError` (retry allowed).
        case lost
        /// Emulation ended: `respond` throws `emulationStopped`.
        case stopped
    }

    // Durations (Apple: 60 s of emulation, a 15 s assertion; the stop cool-down is undocumented: 15 s here,
    // docs/DIFFERENCES.md).
    package var emulationLimit = NFCDuration.seconds(60)
    package var coolDown = NFCDuration.seconds(15)
    package var assertionLimit = NFCDuration.seconds(15)
    package var assertionCoolDown = NFCDuration.seconds(15)

    package private(set) var session: (id: SessionID, phase: Phase)?
    package private(set) var fieldPresent = false
    /// An AID of the app is selected on the terminal's link.
    package private(set) var selected = false
    package private(set) var pending: CardAPDUID?
    package private(set) var foreground = true
    package private(set) var assertion: UInt64?
    private(set) var apdus: [CardAPDUID: APDUState] = [:]
    private var coolDownUntil: NFCInstant?
    private var assertionCoolDownUntil: NFCInstant?
    private var nextAPDU: UInt64 = 0
    private var nextAssertion: UInt64 = 0

    package init() {}

    package var isEmulating: Bool {
        if case .emulating? = session?.phase { return true }
        return false
    }

    /// The live session (started or emulating).
    package var live: SessionID? {
        guard let s = session else { return nil }
        if case .ended = s.phase { return nil }
        return s.id
    }

    package func isEmulating(_ id: SessionID) -> Bool { session?.id == id && isEmulating }

    /// The number of APDUs the app still holds (for tests of the invariants).
    package var heldAPDUs: Int { apdus.count }

    // MARK: the app's calls

    /// `CardSession.init()`: the new session's id, or nil with the error (or the trap) in the step.
    package mutating func create(_ id: SessionID, _ c: CardEmulationContext) -> Step {
        if !c.supported {
            return Step(
                [.trap("CardSession is not supported on this device (check CardSession.isSupported)")],
                error: .systemNotAvailable)
        }
        if let reason = c.trapReason { return Step([.trap("CardSession: \(reason)")], error: .systemNotAvailable) }
        if live != nil || c.readerSessionActive || !foreground { return Step(error: .systemNotAvailable) }
        session = (id, .started)
        var actions: [Action] = [.post(id, .sessionStarted)]
        if fieldPresent { actions.append(.post(id, .readerDetected)) }
        return Step(actions)
    }

    /// `startEmulation()`.
    package mutating func startEmulation(_ id: SessionID, _ c: CardEmulationContext) -> Step {
        guard let s = session, s.id == id else { return Step(error: .systemNotAvailable) }
        switch s.phase {
        case .ended: return Step(error: .systemNotAvailable)
        case .emulating: return Step()
        case .started: break
        }
        if c.radioOff { return Step(error: .radioDisabled) }
        switch c.availability {
        case .eligible: break
        case .ineligible: return Step(error: .systemEligibilityFailed)
        case .accessNotAccepted: return Step(error: .accessNotAccepted)
        case .unsupported: return Step(error: .systemNotAvailable)
        }
        if !foreground { return Step(error: .systemNotAvailable) }
        if let until = coolDownUntil, c.now < until { return Step(error: .systemNotAvailable) }
        session = (id, .emulating(since: c.now))
        return Step([.presentSheet(id), .startDeadline(id), .present(true)])
    }

    /// `stopEmulation(status:)`: nothing when emulation is not running.
    package mutating func stopEmulation(_ id: SessionID, _ outcome: EmulationOutcome, _ now: NFCInstant) -> Step {
        guard isEmulating(id) else { return Step() }
        return Step(stopEmulating(id, outcome, now))
    }

    /// `invalidate()` (idempotent).
    package mutating func invalidate(_ id: SessionID, _ now: NFCInstant) -> Step {
        Step(end(id, .userInvalidated, now))
    }

    /// The 60 s emulation limit passed.
    package mutating func deadlineFired(_ id: SessionID, _ now: NFCInstant) -> Step {
        guard isEmulating(id) else { return Step() }
        return Step(end(id, .maxSessionDurationReached, now))
    }

    /// `APDU.respond(response:)`.
    package mutating func respond(_ apdu: CardAPDUID, _ response: [UInt8]) -> Step {
        switch apdus[apdu] {
        case .answered?:
            return Step([
                .trap(
                    "CardSession.APDU.respond(response:) called more than once for \(apdu) (only a retry after transmissionError is allowed)"
                )
            ])
        case .awaiting?:
            guard pending == apdu else {
                apdus[apdu] = .lost
                return Step(error: .transmissionError)
            }
            apdus[apdu] = .answered
            pending = nil
            return Step([.answer(response)])
        case .lost?: return Step(error: .transmissionError)
        case .stopped?, nil: return Step(error: .emulationStopped)
        }
    }

    /// The app released an APDU object. Unanswered while the terminal still waits for it, it ends emulation (Apple:
    /// "If your client disposes an APDU object without responding, the card emulation ends").
    package mutating func apduReleased(_ apdu: CardAPDUID, _ now: NFCInstant) -> Step {
        let state = apdus.removeValue(forKey: apdu)
        guard state == .awaiting, pending == apdu, let id = live, isEmulating else { return Step() }
        let actions = stopEmulating(id, .failure, now)
        apdus[apdu] = nil  // released: nothing can answer it any more
        return Step(actions)
    }

    // MARK: the presentment intent assertion

    /// `NFCPresentmentIntentAssertion.acquire()`: the new assertion's number in `assertion`, or the error.
    package mutating func acquireAssertion(_ c: CardEmulationContext) -> Step {
        if !c.supported {
            return Step(
                [.trap("NFCPresentmentIntentAssertion: card emulation is not supported on this device")],
                error: .systemNotAvailable)
        }
        if let reason = c.trapReason {
            return Step([.trap("NFCPresentmentIntentAssertion: \(reason)")], error: .systemNotAvailable)
        }
        if c.availability == .ineligible { return Step(error: .systemEligibilityFailed) }
        if !foreground || assertion != nil { return Step(error: .systemNotAvailable) }
        if let until = assertionCoolDownUntil, c.now < until { return Step(error: .systemNotAvailable) }
        nextAssertion += 1
        assertion = nextAssertion
        return Step([.startAssertionTimer(nextAssertion)])
    }

    /// The assertion's 15 s passed, or the object was released: it is invalid and the wait starts.
    package mutating func assertionEnded(_ number: UInt64, _ now: NFCInstant) -> Step {
        guard assertion == number else { return Step() }
        assertion = nil
        assertionCoolDownUntil = now.advanced(by: assertionCoolDown)
        return Step([.cancelAssertionTimer])
    }

    // MARK: the terminal

    /// A terminal's field reaches the phone.
    package mutating func fieldOn(_ c: CardEmulationContext) -> Step {
        guard !fieldPresent else { return Step() }
        fieldPresent = true
        if foreground, !isEmulating, assertion == nil, let app = c.defaultContactlessApp {
            return Step([.launchDefaultApp(app)])
        }
        guard let id = live else { return Step() }
        return Step([.post(id, .readerDetected)])
    }

    /// The terminal's field goes away (or the phone leaves it): the link and any waiting exchange are lost.
    package mutating func fieldOff() -> Step {
        guard fieldPresent else { return Step() }
        fieldPresent = false
        selected = false
        if let p = pending {
            apdus[p] = .lost
            pending = nil
        }
        guard let id = live else { return Step() }
        return Step([.post(id, .readerDeselected)])
    }

    /// The terminal sends a command APDU. Delivered to the app when emulation runs and it selects (by DF name,
    /// ISO/IEC 7816-4 §11.2.2) an AID `routes` accepts, or follows such a SELECT; a SELECT of another AID is answered
    /// 6A 82 by the system (and deselects the app's AID); other commands with nothing selected get 6D 00.
    package mutating func transceive(
        _ command: [UInt8], _ now: NFCInstant, routes: ([UInt8]) -> Bool
    ) -> Step {
        guard fieldPresent, let id = live, isEmulating, pending == nil else { return Step([.answer(nil)]) }
        if let aid = Self.selectedName(command) {
            if routes(aid) {
                selected = true
                return deliver(id, command)
            }
            var actions: [Action] = []
            if selected {
                selected = false
                actions.append(.post(id, .readerDeselected))
            }
            return Step(actions + [.answer(ISO7816StatusWord.fileOrApplicationNotFound)])
        }
        if selected { return deliver(id, command) }
        return Step([.answer(ISO7816StatusWord.instructionNotSupported)])
    }

    /// The terminal stopped waiting for the app's answer (its frame waiting time ran out).
    package mutating func terminalGaveUp() -> Step {
        if let p = pending {
            apdus[p] = .lost
            pending = nil
        }
        return Step()
    }

    // MARK: the phone

    /// The app moved to the background (or the phone was locked, or another app opened over it).
    package mutating func appDidEnterBackground(_ now: NFCInstant) -> Step {
        foreground = false
        var actions: [Action] = []
        if let a = assertion { actions += assertionEnded(a, now).actions }
        if let id = live { actions += end(id, .invalidated, now) }
        return Step(actions)
    }

    package mutating func appWillEnterForeground() { foreground = true }

    /// Airplane mode turned on.
    package mutating func radioTurnedOff(_ now: NFCInstant) -> Step {
        guard let id = live else { return Step() }
        return Step(end(id, .radioDisabled, now))
    }

    /// The user dismissed the emulation sheet.
    package mutating func userDismissedSheet(_ now: NFCInstant) -> Step {
        guard let id = live, isEmulating else { return Step() }
        return Step(end(id, .userInvalidated, now))
    }

    /// The session object was released: it ends as if invalidated (no event can reach it any more).
    package mutating func sessionReleased(_ id: SessionID, _ now: NFCInstant) -> Step {
        Step(end(id, .userInvalidated, now).filter { if case .post = $0 { false } else { true } })
    }

    // MARK: helpers

    private mutating func deliver(_ id: SessionID, _ command: [UInt8]) -> Step {
        nextAPDU += 1
        let apdu = CardAPDUID(raw: nextAPDU)
        apdus[apdu] = .awaiting
        pending = apdu
        return Step([.post(id, .received(apdu, command))])
    }

    private mutating func stopEmulating(_ id: SessionID, _ outcome: EmulationOutcome?, _ now: NFCInstant) -> [Action] {
        session = (id, .started)
        coolDownUntil = now.advanced(by: coolDown)
        var actions: [Action] = [.cancelDeadline, .closeSheet(outcome), .present(false)]
        if let p = pending {
            apdus[p] = .stopped
            pending = nil
            actions.append(.answer(nil))
        }
        for (k, v) in apdus where v == .awaiting { apdus[k] = .stopped }
        if selected {
            selected = false
            actions.append(.post(id, .readerDeselected))
        }
        return actions
    }

    private mutating func end(_ id: SessionID, _ reason: CardEmulationError, _ now: NFCInstant) -> [Action] {
        guard live == id else { return [] }
        var actions: [Action] = []
        if isEmulating { actions += stopEmulating(id, nil, now) }
        for (k, v) in apdus where v == .awaiting { apdus[k] = .stopped }
        session = (id, .ended(reason))
        actions.append(.post(id, .sessionInvalidated(reason)))
        return actions
    }

    /// The AID of a SELECT by DF name, or nil for any other command (``ISO7816Select``, the system's one reading).
    static func selectedName(_ command: [UInt8]) -> [UInt8]? { ISO7816Select.selectedName(in: command) }
}
