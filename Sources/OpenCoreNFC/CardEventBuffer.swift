internal import Foundation
internal import OpenNFCSystem

/// The events of one card session between the system's executor (which delivers them) and the app's `for try await`
/// loop (which takes them), counted as the app's outstanding work so that `VirtualPhone.settle()` returns only once
/// the handler has taken each event and asked for the next one (docs/CARD-EMULATION.md, "Determinism").
///
/// Counted units: one from the session's creation until an iterator is made (the handler has yet to start), and one
/// per event from its delivery until the handler asks for the next event. A released iterator, a cancelled task or a
/// released session gives up every unit it holds, and later events are no longer counted.
@available(iOS 17.4, *)
final class CardEventBuffer: CardEmulationClient, @unchecked Sendable {
    private let system: NFCSystem
    private let lock = NSLock()
    private var queue: [CardSession.Event] = []
    private var waiter: CheckedContinuation<CardSession.Event?, Never>?
    /// An event was handed to the handler and it has not asked for the next one yet.
    private var handedOut = false
    /// The initial unit: no iterator made yet.
    private var awaitingIterator = true
    /// The last event was handed out: `next()` returns nil from now on.
    private var finished = false
    /// Nobody will take events any more.
    private var abandoned = false
    /// Whether the handler's work is counted: the session was created by app code launched on a virtual phone.
    private let counted: Bool

    init(system: NFCSystem) {
        self.system = system
        counted = NFCSystem.inLaunchedApp
        if counted { system.beginAppWork() } else { awaitingIterator = false }
    }

    func receive(_ event: CardEmulationMachine.Event) {
        let e: CardSession.Event
        switch event {
        case .sessionStarted: e = .sessionStarted
        case .readerDetected: e = .readerDetected
        case .readerDeselected: e = .readerDeselected
        case .received(let id, let bytes): e = .received(CardSession.APDU(payload: bytes, system: system, id: id))
        case .sessionInvalidated(let reason): e = .sessionInvalidated(reason: CardSession.Error(reason))
        }
        let resume: CheckedContinuation<CardSession.Event?, Never>? = lock.withLock {
            if abandoned { return nil }
            if counted { system.beginAppWork() }
            if let w = waiter {
                waiter = nil
                handedOut = true
                if case .sessionInvalidated = e { finished = true }
                return w
            }
            queue.append(e)
            return nil
        }
        resume?.resume(returning: e)
    }

    func iteratorMade() {
        let release = lock.withLock {
            defer { awaitingIterator = false }
            return awaitingIterator && !abandoned
        }
        if release { system.endAppWork() }
    }

    func next() async -> CardSession.Event? {
        let release = lock.withLock {
            defer { handedOut = false }
            return handedOut && counted
        }
        if release { system.endAppWork() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<CardSession.Event?, Never>) in
                let ready: CardSession.Event?? = lock.withLock {
                    if !queue.isEmpty {
                        let e = queue.removeFirst()
                        handedOut = true
                        if case .sessionInvalidated = e { finished = true }
                        return .some(e)
                    }
                    if finished || abandoned || Task.isCancelled { return .some(nil) }
                    waiter = c
                    return nil
                }
                if let ready { c.resume(returning: ready) }
            }
        } onCancel: {
            let w = lock.withLock {
                defer { waiter = nil }
                return waiter
            }
            w?.resume(returning: nil)
        }
    }

    /// The iterator was released (the loop ended or was left): every unit it holds is given up.
    func iteratorReleased() { abandon() }

    /// The session object was released.
    func sessionReleased() {
        let release = lock.withLock {
            defer { awaitingIterator = false }
            return awaitingIterator && !abandoned
        }
        if release { system.endAppWork() }
    }

    /// Nobody will take events any more: the units held are given up.
    func abandon() {
        let (units, dropped, w): (Int, [CardSession.Event], CheckedContinuation<CardSession.Event?, Never>?) =
            lock.withLock {
                if abandoned { return (0, [], nil) }
                abandoned = true
                let n = counted ? queue.count + (handedOut ? 1 : 0) + (awaitingIterator ? 1 : 0) : 0
                let q = queue
                queue = []
                handedOut = false
                awaitingIterator = false
                defer { waiter = nil }
                return (n, q, waiter)
            }
        w?.resume(returning: nil)
        for _ in 0..<units { system.endAppWork() }
        _ = dropped  // released here, outside the lock: an unanswered APDU among them ends emulation
    }
}
