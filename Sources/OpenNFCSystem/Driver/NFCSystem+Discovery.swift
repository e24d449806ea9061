internal import OpenNFCRF
internal import OpenNFCTags

/// Discovery: polling, identification, the ISO 7816 AID rule, and NDEF reading for read-only sessions
/// (Apple's Core NFC documentation; docs/PARITY.md §3.2).
extension NFCSystem {
    /// The field changed (a tag arrived, left or moved): the active session looks again.
    package func fieldDidChange() {
        event { [self] in
            guard let id = arbiter.active, let s = sessions[id] else {
                backgroundScan()
                return
            }
            scan(s)
        }
    }

    /// `restartPolling()`: a new polling round; tags delivered earlier become stale (Apple's Core NFC documentation; docs/PARITY.md §3.2).
    package func restartPolling(_ id: SessionID) {
        touch()
        perform {
            guard let s = sessions[id], arbiter.active == id else { return }
            if s.isNDEF && s.ndefMode == .readOnly { return }
            log(.system, "\(id) restarts polling")
            s.roundDiscovery = nil
            restartRound(s)
        }
    }

    /// Starts a new polling round of an active session (the round's discovery is already set).
    func restartRound(_ s: SessionState) {
        if s.tags.restart() != nil { frontend?.deactivate() }
        scan(s)
    }

    /// The delegate of an NDEF session turned out not to implement `didDetect tags`: read the tags it was offered
    /// and continue in read-only mode.
    package func fallBackToReading(_ id: SessionID, tags: [DeliveredTag]) {
        perform {
            guard let s = sessions[id], s.ndefMode == .undetermined else { return }
            s.ndefMode = .readOnly
            let (delivered, connected) = s.tags.resumeReading()
            if connected != nil { frontend?.deactivate() }
            log(.system, "\(id) delegate lacks didDetect tags: read-only NDEF mode")
            guard arbiter.active == id else { return }
            for t in tags {
                guard arbiter.active == id, let entry = delivered[t.reference.handle] else { continue }
                readAndDeliver(s, entry.tag, entry.identity)
            }
            scan(s)
        }
    }

    /// The delegate implements `didDetect tags`.
    package func confirmReadWrite(_ id: SessionID) {
        perform {
            guard let s = sessions[id], s.ndefMode == .undetermined else { return }
            s.ndefMode = .readWrite
        }
    }

    /// What an NDEF reader session polls: every technology (built once; a scan asks for it every time).
    private static let ndefTechnologies: Set<RFTechnology> = [.nfcA, .nfcB, .nfcF, .nfcV]

    func technologies(for s: SessionState) -> Set<RFTechnology> {
        if let d = currentDiscovery(s) { return d.technologies }
        switch s.kind {
        case .ndef: return Self.ndefTechnologies
        case .tag(let t, _): return t
        case .vas: return [.nfcA]
        }
    }

    /// Polls and delivers what this session may see.
    func scan(_ s: SessionState) {
        guard let frontend, arbiter.active == s.id, s.tags.isPolling else { return }
        if let timer = s.pollTimer {
            timer.cancel()
            s.pollTimer = nil
        }
        let targets: [RFTarget]
        do {
            targets = try frontend.poll(technologies(for: s))
        } catch {
            log(.system, "poll failed: \(error)")
            schedulePoll(s)
            return
        }
        // Handles seen earlier in this round that are no longer polled are forgotten; with none seen yet (a round's
        // first poll) there is nothing to forget and no set to build.
        if !s.tags.seen.isEmpty { s.tags.forgetLeft(present: Set(targets.map(\.handle))) }
        var found: [(DeliveredTag, IdentifiedTag)] = []
        for target in targets where !s.tags.seen.contains(target.handle) {
            guard arbiter.active == s.id else { return }
            _ = s.tags.markSeen(target.handle)
            if case .vas(let commands) = s.kind {
                runVAS(s, target, commands)
                continue
            }
            guard let (tag, identity) = discover(target, for: s) else { continue }
            if s.isNDEF && s.ndefMode == .readOnly {
                readAndDeliver(s, tag, identity)
            } else {
                found.append((tag, identity))
            }
        }
        guard arbiter.active == s.id else { return }
        if !found.isEmpty {
            s.tags.deliver(found.map { TagLifecycle.Entry(tag: $0.0, identity: $0.1) })
            log(.system, "\(s.id) detected \(found.count) tag\(found.count == 1 ? "" : "s")")
            post(s, .detected(found.map(\.0)))
        } else {
            schedulePoll(s)
        }
    }

    private func schedulePoll(_ s: SessionState) {
        guard let interval = pollInterval, arbiter.active == s.id else { return }
        let id = s.id
        s.pollTimer = makeTimer(interval) { [weak self] in
            self?.event { [weak self] in
                guard let self, let s = self.sessions[id] else { return }
                self.scan(s)
            }
        }
    }

    /// Activates and identifies a target and decides whether and how this session may see it. Nil: not deliverable
    /// (gone during identification, no declared AID selects, a technology the session cannot deliver).
    func discover(_ target: RFTarget, for s: SessionState) -> (DeliveredTag, IdentifiedTag)? {
        guard let frontend else { return nil }
        defer { frontend.deactivate() }
        let identity: IdentifiedTag
        do {
            let active = try frontend.activate(target)
            identity = try platform.identify(active, frontend: frontend)
        } catch {
            log(.system, "tag \(target.handle) not identified: \(error)")
            return nil
        }
        let t = identity.target
        func make(_ kind: DeliveredTag.Kind) -> DeliveredTag {
            var d = DeliveredTag(
                reference: TagReference(session: s.id, generation: s.tags.generation, handle: t.handle), kind: kind,
                identifier: t.identifier, historicalBytes: identity.historicalBytes,
                applicationData: t.nfcB?.applicationData,
                technology: t.technology)
            d.isoDEP = t.isISODEP
            if let info = t.nfcB?.protocolInfo, info.count >= 3 {
                d.proprietaryApplicationDataCoding = info[2] & 0x04 == 0
            }
            return d
        }
        let reading: DeliveryReading = s.isNDEF ? .ndef : pollsPACE(s) ? .pace : .tag
        // supportsPACE (iOS 26.4) of a tag session's ISO 7816 card: EF.CardAccess, read before any AID SELECT.
        func advertisesPACE() -> Bool {
            reading == .tag && identity.kind == .iso7816 && platform.advertisesPACE(identity, frontend: frontend)
        }
        if t.technology == .nfcF && reading == .tag {
            // Core NFC delivers a FeliCa card to a tag session on the first declared system code that answers
            // Polling, whatever its family (NFCSystem+FeliCa.swift).
            guard let selection = selectFeliCaSystem(t, for: s, frontend: frontend) else { return nil }
            var tag = make(.feliCa)
            tag.feliCa = selection
            return (tag, identity)
        }
        switch DeliveryPolicy.decide(identity.kind, reading, declarations) {
        case .deliver(let kind):
            var tag = make(kind)
            if case .iso7816 = kind { tag.supportsPACE = advertisesPACE() }
            return (tag, identity)
        case .nothing(let why):
            log(.system, "tag \(t.handle) not delivered: \(why)")
            return nil
        case .readNDEF:
            // The table gives this only for background reading, which does not come here.
            log(.system, "tag \(t.handle) not delivered: a session never reads in the background")
            return nil
        case .endSession(let why):
            // docs/PARITY.md §7.3: without a valid select-identifiers entry the session ends with 2.
            log(.system, "tag \(t.handle) is an ISO 7816 card and the Info.plist declares no valid AID")
            run(arbiter.end(s.id, .securityViolation(why)))
            return nil
        case .deliverIfPACE:
            // PACE-only polling (Core NFC `NFCPollingPACE`): ISO 7816 cards that advertise PACE, delivered without an
            // AID SELECT.
            guard platform.advertisesPACE(identity, frontend: frontend) else {
                log(.system, "tag \(t.handle) not delivered: PACE polling and the card does not advertise PACE")
                return nil
            }
            var tag = make(.iso7816(initialSelectedAID: ""))
            tag.supportsPACE = true
            log(.system, "tag \(t.handle) advertises PACE")
            return (tag, identity)
        case .selectDeclaredAID(let otherwise):
            let pace = advertisesPACE()
            for (text, aid) in selectIdentifiers(for: s) where select(aid, on: frontend) {
                log(.system, "tag \(t.handle) selected \(text)")
                var tag = make(.iso7816(initialSelectedAID: text))
                tag.supportsPACE = pace
                return (tag, identity)
            }
            if let otherwise { return (make(otherwise), identity) }
            log(.system, "tag \(t.handle) not delivered: no declared AID selects")
            return nil
        }
    }

    /// What the app's Info.plist declares, as the delivery-policy table reads it.
    var declarations: DeliveryDeclarations {
        DeliveryDeclarations(
            hasSelectIdentifiers: !configuration.validSelectIdentifiers.isEmpty,
            desktop: configuration.profile == .desktop)
    }

    /// SELECT by DF name as the reader procedures build and judge it (``ISO7816Select``): true on 90 00 or 61 xx.
    func select(_ aid: [UInt8], on frontend: any RFFrontend) -> Bool {
        guard case .frame(let r) = try? frontend.exchange(ISO7816Select.byName(aid)) else { return false }
        return ISO7816Select.accepted(r)
    }

    /// Read-only NDEF mode: reads the tag's message and delivers it; invalidates after the first read when asked.
    func readAndDeliver(_ s: SessionState, _ tag: DeliveredTag, _ identity: IdentifiedTag) {
        guard let frontend else { return }
        let bytes: [UInt8]
        do {
            _ = try frontend.activate(identity.target)
            defer { frontend.deactivate() }
            guard let stored = try storedNDEF(identity, frontend: frontend) else {
                log(.system, "tag \(tag.reference.handle) holds no NDEF: skipped")
                return
            }
            bytes = stored
        } catch {
            log(.system, "tag \(tag.reference.handle) not read: \(error)")
            return
        }
        guard !bytes.isEmpty else {
            log(.system, "tag \(tag.reference.handle) holds an empty NDEF message: skipped")
            return
        }
        log(.system, "\(s.id) read an NDEF message of \(bytes.count) bytes")
        post(s, .message(tag: tag, bytes: bytes))
        if case .ndef(let once) = s.kind, once {
            run(arbiter.end(s.id, .firstNDEFTagRead))
        }
    }
}
