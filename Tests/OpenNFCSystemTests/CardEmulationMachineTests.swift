import OpenNFCRF
import OpenNFCSystem
import Testing

/// The iPhone's card-emulation rules as plain event → action sequences (docs/CARD-EMULATION.md).
@Suite struct CardEmulationMachineTests {
    let s1 = SessionID(raw: 1)
    let s2 = SessionID(raw: 2)
    let t0 = NFCInstant(nanoseconds: 0)
    let aid: [UInt8] = [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05]
    var select: [UInt8] { [0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00] }

    func at(_ s: UInt64) -> NFCInstant { t0.advanced(by: .seconds(s)) }
    func ctx(_ s: UInt64 = 0) -> CardEmulationContext { CardEmulationContext(now: at(s)) }
    func routes(_ a: [UInt8]) -> Bool { a.starts(with: [0xF0, 0x01, 0x02, 0x03, 0x04]) }

    /// A machine with session 1 emulating and the terminal's field on.
    func emulating() -> CardEmulationMachine {
        var m = CardEmulationMachine()
        _ = m.create(s1, ctx())
        _ = m.startEmulation(s1, ctx())
        _ = m.fieldOn(ctx())
        return m
    }

    @Test func creationPostsSessionStartedAndReaderDetectedWhenTheFieldIsThere() {
        var m = CardEmulationMachine()
        var c = ctx()
        c.defaultContactlessApp = nil
        #expect(m.fieldOn(c).actions == [])
        #expect(m.create(s1, ctx()).actions == [.post(s1, .sessionStarted), .post(s1, .readerDetected)])
        #expect(m.live == s1)
    }

    @Test func initTrapsWithoutSupportOrEntitlement() {
        var m = CardEmulationMachine()
        var c = ctx()
        c.supported = false
        let unsupported = m.create(s1, c)
        #expect(unsupported.error == .systemNotAvailable)
        guard case .trap = unsupported.actions.first else { Issue.record("no trap"); return }
        c = ctx()
        c.trapReason = "missing entitlement com.apple.developer.nfc.hce"
        #expect(m.create(s1, c).actions == [.trap("CardSession: missing entitlement com.apple.developer.nfc.hce")])
        #expect(m.live == nil)
    }

    @Test func oneSessionAtATimeAndNoneBesideAReaderSession() {
        var m = CardEmulationMachine()
        _ = m.create(s1, ctx())
        #expect(m.create(s2, ctx()).error == .systemNotAvailable)
        #expect(m.invalidate(s1, at(1)).actions == [.post(s1, .sessionInvalidated(.userInvalidated))])
        var busy = ctx(2)
        busy.readerSessionActive = true
        #expect(m.create(s2, busy).error == .systemNotAvailable)
        #expect(m.create(s2, ctx(2)).error == nil)
    }

    @Test func startEmulationShowsTheSheetAndStartsTheLimit() {
        var m = CardEmulationMachine()
        _ = m.create(s1, ctx())
        #expect(m.startEmulation(s1, ctx()).actions == [.presentSheet(s1), .startDeadline(s1), .present(true)])
        #expect(m.startEmulation(s1, ctx()) == .init())  // already emulating: nothing
        #expect(
            m.deadlineFired(s1, at(60)).actions == [
                .cancelDeadline, .closeSheet(nil), .present(false),
                .post(s1, .sessionInvalidated(.maxSessionDurationReached)),
            ])
        #expect(m.startEmulation(s1, ctx(61)).error == .systemNotAvailable)  // restart only with a new instance
    }

    @Test func startEmulationErrorsFollowThePhone() {
        var m = CardEmulationMachine()
        _ = m.create(s1, ctx())
        var c = ctx()
        c.radioOff = true
        #expect(m.startEmulation(s1, c).error == .radioDisabled)
        c = ctx()
        c.availability = .ineligible
        #expect(m.startEmulation(s1, c).error == .systemEligibilityFailed)
        c.availability = .accessNotAccepted
        #expect(m.startEmulation(s1, c).error == .accessNotAccepted)
        #expect(!m.isEmulating)
    }

    @Test func stopEmulationStartsTheCoolDown() {
        var m = CardEmulationMachine()
        _ = m.create(s1, ctx())
        _ = m.startEmulation(s1, ctx())
        #expect(
            m.stopEmulation(s1, .success, at(5)).actions == [.cancelDeadline, .closeSheet(.success), .present(false)])
        #expect(m.startEmulation(s1, ctx(19)).error == .systemNotAvailable)
        #expect(m.startEmulation(s1, ctx(20)).error == nil)
    }

    @Test func onlyDeclaredAIDsReachTheApp() {
        var m = emulating()
        let other: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10, 0x00]
        #expect(m.transceive(other, at(1), routes: routes).actions == [.answer([0x6A, 0x82])])
        #expect(
            m.transceive([0x00, 0xB0, 0x00, 0x00, 0x10], at(1), routes: routes).actions == [.answer([0x6D, 0x00])])
        let apdu = CardAPDUID(raw: 1)
        #expect(m.transceive(select, at(1), routes: routes).actions == [.post(s1, .received(apdu, select))])
        #expect(m.respond(apdu, [0x90, 0x00]).actions == [.answer([0x90, 0x00])])
        // Selecting another AID deselects the app's.
        #expect(
            m.transceive(other, at(2), routes: routes).actions == [
                .post(s1, .readerDeselected), .answer([0x6A, 0x82]),
            ])
    }

    @Test func respondExactlyOnceRetryOnlyAfterTransmissionError() {
        var m = emulating()
        _ = m.transceive(select, at(1), routes: routes)
        let a1 = CardAPDUID(raw: 1)
        #expect(m.respond(a1, [0x90, 0x00]).actions == [.answer([0x90, 0x00])])
        guard case .trap = m.respond(a1, [0x90, 0x00]).actions.first else {
            Issue.record("a second respond must trap")
            return
        }
        _ = m.transceive([0x80, 0x01, 0x00, 0x00], at(2), routes: routes)
        let a2 = CardAPDUID(raw: 2)
        #expect(m.fieldOff().actions == [.post(s1, .readerDeselected)])
        #expect(m.respond(a2, [0x90, 0x00]).error == .transmissionError)
        #expect(m.respond(a2, [0x90, 0x00]).error == .transmissionError)  // a retry: no trap
    }

    /// An APDU still awaiting its answer when emulation stops: `respond` then throws `emulationStopped`.
    @Test func respondAfterEmulationStoppedIsEmulationStopped() {
        var m = emulating()
        _ = m.transceive(select, at(1), routes: routes)
        _ = m.stopEmulation(s1, .success, at(2))
        #expect(m.respond(CardAPDUID(raw: 1), [0x90, 0x00]).error == .emulationStopped)
        #expect(m.respond(CardAPDUID(raw: 9), [0x90, 0x00]).error == .emulationStopped)  // never sent
    }

    @Test func anAPDUReleasedUnansweredEndsEmulation() {
        var m = emulating()
        _ = m.transceive(select, at(1), routes: routes)
        #expect(
            m.apduReleased(CardAPDUID(raw: 1), at(2)).actions == [
                .cancelDeadline, .closeSheet(.failure), .present(false), .answer(nil), .post(s1, .readerDeselected),
            ])
        #expect(!m.isEmulating)
        #expect(m.live == s1)
        #expect(m.heldAPDUs == 0)
    }

    @Test func aTerminalThatGaveUpMakesTheLateAnswerATransmissionError() {
        var m = emulating()
        _ = m.transceive(select, at(1), routes: routes)
        _ = m.terminalGaveUp()
        #expect(m.respond(CardAPDUID(raw: 1), [0x90, 0x00]).error == .transmissionError)
        #expect(m.apduReleased(CardAPDUID(raw: 1), at(2)) == .init())  // the terminal no longer waits: no effect
        #expect(m.isEmulating)
    }

    @Test func theFieldLaunchesTheDefaultAppUnlessEmulatingOrAsserted() {
        var m = CardEmulationMachine()
        _ = m.create(s1, ctx())
        #expect(m.fieldOn(ctx()).actions == [.launchDefaultApp("Wallet")])
        _ = m.fieldOff()
        _ = m.acquireAssertion(ctx())
        #expect(m.fieldOn(ctx()).actions == [.post(s1, .readerDetected)])
    }

    @Test func assertionIsForegroundOnlyLasts15sThenAWait() {
        var m = CardEmulationMachine()
        #expect(m.acquireAssertion(ctx()).actions == [.startAssertionTimer(1)])
        #expect(m.acquireAssertion(ctx(1)).error == .systemNotAvailable)  // one at a time
        #expect(m.assertionEnded(1, at(15)).actions == [.cancelAssertionTimer])
        #expect(m.acquireAssertion(ctx(29)).error == .systemNotAvailable)  // the wait
        #expect(m.acquireAssertion(ctx(30)).error == nil)
        _ = m.appDidEnterBackground(at(31))
        #expect(m.assertion == nil)
        #expect(m.acquireAssertion(ctx(60)).error == .systemNotAvailable)  // background
        m.appWillEnterForeground()
        var c = ctx(60)
        c.availability = .ineligible
        #expect(m.acquireAssertion(c).error == .systemEligibilityFailed)
    }

    @Test func backgroundAndRadioEndTheSession() {
        var m = emulating()
        let actions = m.appDidEnterBackground(at(3)).actions
        #expect(actions.last == .post(s1, .sessionInvalidated(.invalidated)))
        #expect(actions.contains(.present(false)))
        m.appWillEnterForeground()
        _ = m.create(s2, ctx(30))
        #expect(m.radioTurnedOff(at(31)).actions == [.post(s2, .sessionInvalidated(.radioDisabled))])
    }

    /// Seeded random sequences keep the invariants of the machine's documentation after every step.
    @Test func invariantsHoldUnderRandomSequences() {
        var rng = UInt64(0x5EED)
        func next(_ n: UInt64) -> UInt64 {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (rng >> 33) % n
        }
        for _ in 0..<200 {
            var m = CardEmulationMachine()
            var ids: UInt64 = 0
            for step in 0..<60 {
                let now = at(UInt64(step))
                var c = CardEmulationContext(now: now)
                c.defaultContactlessApp = next(4) == 0 ? "Wallet" : nil
                switch next(12) {
                case 0:
                    ids += 1
                    _ = m.create(SessionID(raw: ids), c)
                case 1: if let id = m.live { _ = m.startEmulation(id, c) }
                case 2: if let id = m.live { _ = m.stopEmulation(id, .success, now) }
                case 3: _ = m.fieldOn(c)
                case 4: _ = m.fieldOff()
                case 5: _ = m.transceive(select, now, routes: routes)
                case 6: _ = m.transceive([0x00, 0xB0, 0x00, 0x00, 0x02], now, routes: routes)
                case 7: if let p = m.pending { _ = m.respond(p, [0x90, 0x00]) }
                case 8: if let p = m.pending { _ = m.apduReleased(p, now) }
                case 9: _ = m.appDidEnterBackground(now)
                case 10: m.appWillEnterForeground()
                default: _ = m.acquireAssertion(c)
                }
                #expect(m.pending == nil || (m.isEmulating && m.fieldPresent), "pending without emulation or field")
                #expect(!m.selected || (m.isEmulating && m.fieldPresent), "selected without emulation or field")
                #expect(m.assertion == nil || m.foreground, "assertion in the background")
                #expect(m.live == nil || m.foreground || !m.isEmulating, "emulating in the background")
            }
        }
    }
}
