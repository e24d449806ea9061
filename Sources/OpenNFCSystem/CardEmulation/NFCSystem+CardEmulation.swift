internal import Foundation
internal import OpenNFCRF

/// The driver of ``CardEmulationMachine``: the public `CardSession`, `CardSession.APDU` and
/// `NFCPresentmentIntentAssertion` call in here, a ``CardEmulationDevice`` (the virtual terminal, vpcd) drives the
/// terminal side, and the machine's actions are performed on the system's executor.
extension NFCSystem {
    /// Whether `CardSession.isSupported`: a device that can emulate (a radio, or a card-emulation device) not set
    /// `unsupported`.
    package var cardEmulationSupported: Bool {
        perform { (frontend != nil || cardEmulation.device != nil) && phone.cardEmulation != .unsupported }
    }

    /// `CardSession.isEligible`: the region and account allow card emulation.
    package var cardEmulationEligible: Bool {
        perform { phone.cardEmulation == .eligible || phone.cardEmulation == .accessNotAccepted }
    }

    /// Changes how the phone offers card emulation (a setting; `OPENCORENFC_HCE` for a process).
    package func setCardEmulation(_ availability: CardEmulationAvailability) {
        perform { phone.cardEmulation = availability }
    }

    /// Sets the default contactless app (nil: none).
    package func setDefaultContactlessApp(_ name: String?) { perform { phone.defaultContactlessApp = name } }

    // MARK: traps

    /// Records traps instead of ending the process (the testing product's phones).
    package var recordsTraps: Bool {
        get { perform { cardEmulation.recordsTraps } }
        set { perform { cardEmulation.recordsTraps = newValue } }
    }

    /// The traps recorded so far, oldest first.
    package var traps: [String] { perform { cardEmulation.traps } }

    // MARK: the app's calls

    /// `CardSession.init()`: the session's id, or the error to throw. `client` receives the events.
    package func createCardSession(client: any CardEmulationClient) -> Result<SessionID, CardEmulationError> {
        touch()
        return perform {
            cardEmulation.nextSession += 1
            let id = SessionID(raw: cardEmulation.nextSession)
            cardEmulation.clients[id] = client
            let step = cardEmulation.machine.create(id, context())
            runCard(step)
            if let error = step.error {
                cardEmulation.clients[id] = nil
                log(.system, "card session refused: \(error)")
                return .failure(error)
            }
            log(.system, "card \(id) started")
            if !cardEmulation.launches.isEmpty {
                // The session's stream now counts the handler's work: the launch's unit is handed over.
                cardEmulation.launches.removeFirst()
                endAppWork()
            }
            return .success(id)
        }
    }

    package func startEmulation(_ id: SessionID) -> CardEmulationError? {
        touch()
        return perform {
            let step = cardEmulation.machine.startEmulation(id, context())
            if let e = step.error { log(.system, "card \(id) startEmulation failed: \(e)") }
            runCard(step)
            return step.error
        }
    }

    package func stopEmulation(_ id: SessionID, _ outcome: EmulationOutcome) {
        touch()
        perform { runCard(cardEmulation.machine.stopEmulation(id, outcome, now())) }
    }

    package func invalidateCardSession(_ id: SessionID) {
        touch()
        perform { runCard(cardEmulation.machine.invalidate(id, now())) }
    }

    package func isEmulationInProgress(_ id: SessionID) -> Bool { perform { cardEmulation.machine.isEmulating(id) } }

    package func setCardAlertMessage(_ id: SessionID, _ text: String) {
        perform {
            cardEmulation.alertMessages[id] = text
            if cardEmulation.machine.isEmulating(id), sheetState.isPresented {
                sheetState.message = text
                log(.sheet, "message: \(text)")
            }
        }
    }

    package func cardAlertMessage(_ id: SessionID) -> String { perform { cardEmulation.alertMessages[id] ?? "" } }

    /// The session object was released.
    package func cardSessionReleased(_ id: SessionID) {
        event { [self] in
            runCard(cardEmulation.machine.sessionReleased(id, now()))
            cardEmulation.clients[id] = nil
            cardEmulation.alertMessages[id] = nil
        }
    }

    /// `APDU.respond(response:)`: nil, or the error to throw.
    package func respond(_ apdu: CardAPDUID, _ response: [UInt8]) -> CardEmulationError? {
        touch()
        return perform {
            let step = cardEmulation.machine.respond(apdu, response)
            if step.error == nil, step.actions.contains(where: { if case .answer = $0 { true } else { false } }) {
                log(.app, "responds to \(apdu): \(Self.hex(response))")
            }
            runCard(step)
            return step.error
        }
    }

    /// The app released an APDU object.
    package func apduReleased(_ apdu: CardAPDUID) {
        event { [self] in
            let step = cardEmulation.machine.apduReleased(apdu, now())
            if !step.actions.isEmpty { log(.system, "\(apdu) was released unanswered: emulation ends") }
            runCard(step)
        }
    }

    // MARK: the presentment intent assertion

    /// `NFCPresentmentIntentAssertion.acquire()`: the assertion's number, or the error to throw.
    package func acquirePresentmentAssertion() -> Result<UInt64, CardEmulationError> {
        touch()
        return perform {
            let step = cardEmulation.machine.acquireAssertion(context())
            runCard(step)
            if let e = step.error {
                log(.system, "presentment assertion refused: \(e)")
                return .failure(e)
            }
            let n = cardEmulation.machine.assertion ?? 0
            log(.system, "presentment assertion \(n) acquired")
            return .success(n)
        }
    }

    package func presentmentAssertionIsValid(_ n: UInt64) -> Bool { perform { cardEmulation.machine.assertion == n } }

    package func presentmentAssertionReleased(_ n: UInt64) {
        event { [self] in runCard(cardEmulation.machine.assertionEnded(n, now())) }
    }

    // MARK: the terminal (a CardEmulationDevice)

    /// Attaches the device that plays the terminal; it hears when the card is presented.
    package func attachCardEmulationDevice(_ device: any CardEmulationDevice) {
        perform {
            cardEmulation.device = device
            if cardEmulation.machine.isEmulating { device.presenceChanged(true, prefixes: prefixes) }
        }
    }

    /// A terminal's field reaches the phone.
    package func terminalFieldOn() {
        event { [self] in
            log(.user, "holds the phone to a terminal")
            runCard(cardEmulation.machine.fieldOn(context()))
        }
    }

    /// The terminal's field goes away.
    package func terminalFieldOff() {
        event { [self] in
            log(.user, "takes the phone away from the terminal")
            runCard(cardEmulation.machine.fieldOff())
        }
    }

    /// The terminal sends a command APDU; `reply` is called once with the answer, or nil when the phone stays mute.
    package func terminalTransceive(_ command: [UInt8], reply: @escaping @Sendable ([UInt8]?) -> Void) {
        event { [self] in
            log(.user, "terminal sends \(Self.hex(command))")
            if let previous = cardEmulation.reply {
                cardEmulation.reply = nil
                previous(nil)
            }
            cardEmulation.reply = reply
            let routes = configuration
            runCard(cardEmulation.machine.transceive(command, now(), routes: { routes.hceRoutes(aid: $0) }))
        }
    }

    /// The terminal stopped waiting for the answer to its last command.
    package func terminalGaveUp() {
        event { [self] in
            if cardEmulation.machine.pending != nil { log(.user, "terminal stops waiting for the answer") }
            runCard(cardEmulation.machine.terminalGaveUp())
            cardEmulation.reply = nil
        }
    }

    /// Whether the phone answers a terminal as a card now.
    package var isEmulatingCard: Bool { perform { cardEmulation.machine.isEmulating } }

    // MARK: performing the machine's actions

    func runCard(_ step: CardEmulationMachine.Step) {
        for action in step.actions { performCard(action) }
    }

    private func performCard(_ action: CardEmulationMachine.Action) {
        switch action {
        case .trap(let message):
            log(.system, "trap: \(message)")
            if cardEmulation.recordsTraps {
                cardEmulation.traps.append(message)
            } else {
                fatalError(message)
            }
        case .post(let id, let e):
            switch e {
            case .sessionStarted: log(.app, "card \(id): sessionStarted")
            case .readerDetected: log(.app, "card \(id): readerDetected")
            case .readerDeselected: log(.app, "card \(id): readerDeselected")
            case .received(let apdu, let bytes): log(.app, "card \(id): received \(apdu): \(Self.hex(bytes))")
            case .sessionInvalidated(let r): log(.app, "card \(id): sessionInvalidated(\(r))")
            }
            cardEmulation.clients[id]?.receive(e)
            cardEmulation.device?.cardEventPosted(e)
            if case .sessionInvalidated = e { cardEmulation.clients[id] = nil }
        case .presentSheet(let id):
            sheetState = SystemSheet()
            sheetState.isPresented = true
            sheetState.title = SystemSheet.cardEmulationTitle
            sheetState.glyph = .emulating
            sheetState.message = cardEmulation.alertMessages[id] ?? ""
            log(.sheet, "shown: \(sheetState)")
        case .closeSheet(let outcome):
            guard sheetState.isPresented else { return }
            if let outcome {
                sheetState.glyph = outcome == .success ? .success : .error
                log(.sheet, outcome == .success ? "success" : "failure")
            }
            sheetState.isPresented = false
            log(.sheet, "closed")
        case .startDeadline(let id):
            cardEmulation.deadline?.cancel()
            cardEmulation.deadline = makeTimer(cardEmulation.machine.emulationLimit) { [weak self] in
                self?.event { [weak self] in
                    guard let self else { return }
                    if self.cardEmulation.machine.isEmulating(id) {
                        self.log(.system, "card \(id) reached the 60 s emulation limit")
                    }
                    self.runCard(self.cardEmulation.machine.deadlineFired(id, self.now()))
                }
            }
        case .cancelDeadline:
            cardEmulation.deadline?.cancel()
            cardEmulation.deadline = nil
        case .present(let present):
            log(.system, present ? "card emulation on" : "card emulation off")
            cardEmulation.device?.presenceChanged(present, prefixes: prefixes)
        case .answer(let bytes):
            if let bytes {
                log(.user, "terminal receives \(Self.hex(bytes))")
            } else if cardEmulation.reply != nil {
                log(.user, "terminal receives no answer")
            }
            let reply = cardEmulation.reply
            cardEmulation.reply = nil
            reply?(bytes)
        case .launchDefaultApp(let name):
            log(.system, "\(name) opens at the terminal's field (no presentment assertion, no emulation)")
            log(.user, "app moves to the background")
            run(arbiter.appDidEnterBackground())
            runCard(cardEmulation.machine.appDidEnterBackground(now()))
        case .startAssertionTimer(let n):
            cardEmulation.assertionTimer?.cancel()
            cardEmulation.assertionTimer = makeTimer(cardEmulation.machine.assertionLimit) { [weak self] in
                self?.event { [weak self] in
                    guard let self else { return }
                    if self.cardEmulation.machine.assertion == n {
                        self.log(.system, "presentment assertion \(n) expired (15 s)")
                    }
                    self.runCard(self.cardEmulation.machine.assertionEnded(n, self.now()))
                }
            }
        case .cancelAssertionTimer:
            cardEmulation.assertionTimer?.cancel()
            cardEmulation.assertionTimer = nil
        }
    }

    private var prefixes: [[UInt8]] { configuration.validHCEPrefixes.map(\.prefix) }

    private func context() -> CardEmulationContext {
        var c = CardEmulationContext(now: now())
        c.supported = (frontend != nil || cardEmulation.device != nil) && phone.cardEmulation != .unsupported
        c.trapReason = configuration.hceTrapReason
        c.availability = phone.cardEmulation
        c.radioOff = phone.airplaneMode
        c.readerSessionActive = arbiter.active != nil
        c.defaultContactlessApp = configuration.hceDefaultContactlessApp ? nil : phone.defaultContactlessApp
        return c
    }

    // MARK: quiescence for the app's event stream

    /// Counts work the app has yet to do (an event it has not taken); ``VirtualPhone.settle()`` waits for it.
    package func beginAppWork() { callbackPosted() }

    /// The app finished a unit of work counted by ``beginAppWork()``.
    package func endAppWork() { callbackFinished() }

    /// Whether the running task is app code started with `VirtualPhone.launch`: only such a handler's event
    /// stream is counted as outstanding work (a test iterating a stream itself must not make `settle()` wait for it).
    @TaskLocal package static var inLaunchedApp = false

    /// An app task starts: counted until it creates a card session (whose stream then counts) or ends.
    package func beginLaunch() -> UInt64 {
        beginAppWork()
        return perform {
            cardEmulation.nextLaunch += 1
            cardEmulation.launches.append(cardEmulation.nextLaunch)
            return cardEmulation.nextLaunch
        }
    }

    /// The app task ended: its unit is released unless a card session took it over.
    package func endLaunch(_ token: UInt64) {
        let held = perform {
            guard let k = cardEmulation.launches.firstIndex(of: token) else { return false }
            cardEmulation.launches.remove(at: k)
            return true
        }
        if held { endAppWork() }
    }

    static func hex(_ b: [UInt8]) -> String {
        b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    }
}
