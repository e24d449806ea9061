package import Dispatch
internal import OpenNFCRF

extension NFCSystem {
    /// Registers a new session object (the app called an initializer).
    package func createSession(kind: SessionKind, queue: DispatchQueue, client: any SessionClient) -> SessionID {
        touch()
        return perform {
            let id = arbiter.create()
            sessions[id] = SessionState(id: id, kind: kind, queue: queue, client: client)
            return id
        }
    }

    /// `begin()`.
    package func begin(_ id: SessionID) {
        touch()
        perform {
            guard let s = sessions[id], appTerminated == nil else { return }
            if case .created = arbiter.phase(of: id) {
                if let problem = configuration.usageDescriptionProblem {
                    appTerminated = problem
                    log(.system, "app terminated: \(problem)")
                    terminate(problem)
                    return
                }
                s.client = s.weakClient
            }
            var refusal: InvalidationReason?
            if !hasReader {
                refusal = .unsupportedFeature("this device has no NFC reader")
            } else if phone.airplaneMode {
                refusal = .radioDisabled
            } else {
                switch s.kind {
                case .ndef: refusal = configuration.ndefSessionRefusal
                case .tag: refusal = configuration.tagSessionRefusal(pace: pollsPACE(s)) ?? feliCaRefusal(s)
                case .vas(let commands):
                    refusal =
                        configuration.vasSessionRefusal ?? Self.vasProblem(commands).map { .invalidConfiguration($0) }
                }
                if refusal == nil, let problem = s.discovery?.problem { refusal = .invalidConfiguration(problem) }
                if refusal == nil, s.discovery?.payment == true, phone.payment != .eligible {
                    refusal = .paymentIneligible(phone.payment)
                }
                // A card session holds the radio (docs/DIFFERENCES.md, card emulation).
                if refusal == nil, cardEmulation.machine.live != nil { refusal = .systemBusy }
            }
            log(.system, "\(id) begin")
            run(arbiter.begin(id, refusal: refusal))
            if case .queued = arbiter.phase(of: id) { log(.system, "\(id) waits for the reader") }
        }
    }

    /// `invalidate()` / `invalidate(errorMessage:)`.
    package func invalidate(_ id: SessionID, errorMessage: String? = nil) {
        touch()
        perform {
            guard let s = sessions[id] else { return }
            if let errorMessage, arbiter.active == id {
                // The error glyph is not drawn for read-only NDEF sessions (Apple's Core NFC documentation; docs/PARITY.md §3.2).
                if !(s.isNDEF && s.ndefMode == .readOnly) {
                    sheetState.glyph = .error
                    sheetState.message = errorMessage
                    log(.sheet, "error: \(errorMessage)")
                }
            }
            run(arbiter.invalidate(id))
        }
    }

    /// The session object was released by the app.
    package func forget(_ id: SessionID) {
        event { [self] in
            run(arbiter.forget(id))
            sessions[id] = nil
        }
    }

    /// `alertMessage` setter: shown at once when the session owns the sheet.
    package func setAlertMessage(_ id: SessionID, _ text: String) {
        touch()
        perform {
            guard let s = sessions[id] else { return }
            s.alertMessage = text
            if arbiter.active == id, sheetState.isPresented {
                sheetState.message = text
                log(.sheet, "message: \(text)")
            }
        }
    }

    package func alertMessage(_ id: SessionID) -> String { perform { sessions[id]?.alertMessage ?? "" } }

    /// `isReady`: true while the session is active and scanning.
    package func isReady(_ id: SessionID) -> Bool { perform { sessions[id]?.isReady ?? false } }

    package func ndefMode(_ id: SessionID) -> NDEFMode { perform { sessions[id]?.ndefMode ?? .undetermined } }

    // MARK: the user and the app

    /// The user taps Cancel on the sheet.
    package func userTappedCancel() {
        event { [self] in
            guard sheetState.isPresented else { return }
            log(.user, "taps Cancel")
            run(arbiter.userTappedCancel())
        }
    }

    /// The app moves to the background.
    package func appDidEnterBackground() {
        event { [self] in
            log(.user, "app moves to the background")
            run(arbiter.appDidEnterBackground())
            runCard(cardEmulation.machine.appDidEnterBackground(now()))
        }
    }

    /// The app comes back to the foreground.
    package func appWillEnterForeground() {
        event { [self] in
            log(.user, "app returns to the foreground")
            arbiter.appWillEnterForeground()
            cardEmulation.machine.appWillEnterForeground()
        }
    }

    // MARK: performing the arbiter's actions

    func run(_ actions: [SessionArbiter.Action]) {
        for action in actions {
            switch action {
            case .activate(let id): activate(id)
            case .invalidate(let id, let reason, let wasActive, let repeated):
                end(id, reason, wasActive: wasActive, repeated: repeated)
            }
        }
    }

    private func activate(_ id: SessionID) {
        guard let s = sessions[id] else { return }
        sheetState = SystemSheet()
        sheetState.isPresented = true
        sheetState.message = s.alertMessage
        log(.system, "\(id) active")
        log(.sheet, "shown: \(sheetState)")
        s.isReady = true
        s.deadline = makeTimer(sessionLimit) { [weak self] in
            self?.event { [weak self] in
                guard let self else { return }
                if self.arbiter.active == id { self.log(.system, "\(id) reached the \(self.sessionLimit) limit") }
                self.run(self.arbiter.deadlineExpired(id))
            }
        }
        post(s, .becameActive)
        scan(s)
    }

    private func end(_ id: SessionID, _ reason: InvalidationReason, wasActive: Bool, repeated: Bool) {
        guard let s = sessions[id] else { return }
        if wasActive {
            if let timer = s.deadline {
                timer.cancel()
                s.deadline = nil
            }
            if let timer = s.pollTimer {
                timer.cancel()
                s.pollTimer = nil
            }
            if s.tags.disconnect() != nil { frontend?.deactivate() }
            s.ndef = nil
            sheetState.isPresented = false
            log(.sheet, "closed")
            forgetBackgroundTags()
        }
        s.isReady = false
        s.ended = true
        log(.system, "\(id) invalidated (\(reason))")
        post(s, .invalidated(reason))
        // The posted delivery holds the client until it has run; the system lets go now.
        if !repeated { s.client = nil }
    }
}
