internal import OpenNFCRF
internal import OpenNFCTags

/// Tag operations on behalf of the app's tag objects (Apple's Core NFC documentation; docs/PARITY.md §5). Each runs on the executor,
/// synchronously; the public layer delivers the outcome on the session's queue.
extension NFCSystem {
    /// Whether the tag is still usable by its session: session running, tag from the current polling round, and
    /// still in the field.
    package func isAvailable(_ ref: TagReference) -> Bool {
        perform {
            guard let s = sessions[ref.session], arbiter.active == ref.session, s.tags.isAvailable(ref) else {
                return false
            }
            if let presence { return presence().contains(ref.handle) }
            return true
        }
    }

    /// The connected tag of a session, if any: nil once it has left the field (docs/DIFFERENCES.md, `connectedTag`).
    package func connectedHandle(_ id: SessionID) -> Int? {
        perform {
            guard let s = sessions[id], let handle = s.tags.connected else { return nil }
            if let presence, !presence().contains(handle) { return nil }
            return handle
        }
    }

    /// `connect(to:)`: activates the tag; connecting another tag releases the previous one.
    package func connect(_ ref: TagReference) throws(SystemError) {
        touch()
        try operation(ref, requireConnected: false) { (s, entry, frontend) throws(SystemError) in
            if s.tags.connected == ref.handle { return }
            if s.tags.disconnect() != nil { frontend.deactivate() }
            do throws(RFError) {
                _ = try frontend.activate(entry.identity.target)
            } catch {
                throw lost(s, ref, SystemError(rf: error))
            }
            if case .iso7816(let aid) = entry.tag.kind, let bytes = AppConfiguration.hexBytes(aid),
                !select(bytes, on: frontend)
            {
                frontend.deactivate()
                throw SystemError(.tagConnectionLost, "the selected application \(aid) no longer answers")
            }
            s.tags.connect(ref.handle)
            log(.system, "\(s.id) connected to tag \(ref.handle)")
        }
    }

    /// `queryNDEFStatus`.
    package func queryNDEFStatus(_ ref: TagReference) throws(SystemError) -> NDEFState {
        touch()
        return try operation(ref) { (s, entry, frontend) throws(SystemError) in
            try ndefAccess(s, entry, frontend).detect()
        }
    }

    /// `readNDEF`: the stored message bytes; an empty message is 403, as in Core NFC.
    package func readNDEF(_ ref: TagReference) throws(SystemError) -> [UInt8] {
        touch()
        return try operation(ref) { (s, entry, frontend) throws(SystemError) in
            let access = try ndefAccess(s, entry, frontend)
            let state = try access.detect()
            guard state.status != .notSupported else {
                throw SystemError(.tagResponseError, "Tag Not NDEF formatted")
            }
            let bytes = try access.read()
            guard !bytes.isEmpty else { throw SystemError(.zeroLengthMessage, "the tag holds an empty NDEF message") }
            return bytes
        }
    }

    /// `writeNDEF`: 401 not NDEF formatted, 400 read-only, 403 empty, 402 too small, all before the first write
    /// (Apple's Core NFC documentation; docs/PARITY.md §14). The reader procedures decide them (`NDEFWriteRule`, the
    /// one place the rule lives); their errors map to these codes (`StandardTagPlatform.map`).
    package func writeNDEF(_ ref: TagReference, _ message: [UInt8]) throws(SystemError) {
        touch()
        try operation(ref) { (s, entry, frontend) throws(SystemError) in
            let access = try ndefAccess(s, entry, frontend)
            // Detection first, so that its failures are read failures (102, not 401); the procedure keeps what it
            // learnt, so the write sends no detection frames again.
            _ = try access.detect()
            try access.write(message)
            log(.system, "tag \(ref.handle): wrote \(message.count) bytes of NDEF")
        }
    }

    /// `writeLock`: makes the NDEF data permanently read-only.
    package func writeLock(_ ref: TagReference) throws(SystemError) {
        touch()
        try operation(ref) { (s, entry, frontend) throws(SystemError) in
            let access = try ndefAccess(s, entry, frontend)
            let state = try access.detect()
            switch state.status {
            case .notSupported: throw SystemError(.tagUpdateFailure, "Tag Not NDEF formatted")
            case .readOnly: throw SystemError(.tagNotWritable, "the tag is already read-only")
            case .readWrite: break
            }
            try access.lock()
            log(.system, "tag \(ref.handle): NDEF locked")
        }
    }

    /// Sends one ISO 7816 APDU and splits the answer into data and SW1 SW2 (Apple's Core NFC documentation; docs/PARITY.md §7.3). A SELECT by DF name to an
    /// AID the app did not declare fails with 2 in the `iphone` profile.
    package func sendAPDU(_ ref: TagReference, _ apdu: [UInt8]) throws(SystemError) -> (
        data: [UInt8], sw1: UInt8, sw2: UInt8
    ) {
        touch()
        return try operation(ref) { (s, entry, frontend) throws(SystemError) in
            if let aid = ISO7816Select.selectedName(in: apdu) {
                let declared = configuration.validSelectIdentifiers
                if configuration.profile == .iphone || !declared.isEmpty {
                    guard declared.contains(where: { $0.aid == aid }) else {
                        throw SystemError(.securityViolation, "SELECT of an AID not declared in Info.plist")
                    }
                }
            }
            guard apdu.count <= frontend.capabilities.maxCommandSize else {
                throw SystemError(.packetTooLong, "APDU of \(apdu.count) bytes")
            }
            let r = try exchange(s, ref, frontend, apdu)
            guard case .frame(let b) = r, b.count >= 2 else {
                throw SystemError(.tagResponseError, "response shorter than SW1 SW2", unexpectedLength: true)
            }
            return (Array(b.dropLast(2)), b[b.count - 2], b[b.count - 1])
        }
    }

    /// Sends a native MIFARE command (a frame without CRC, or a DESFire native command) and returns the answer; a
    /// 4-bit ACK comes back as the byte `0A`. A 4-bit NAK fails the command with 100, as iOS reports it (see
    /// docs/DIFFERENCES.md): after a NAK the chip has returned to IDLE and answers nothing until re-activated
    /// (NXP NTAG213/215/216 and MF0ULx1 datasheets, "ACK and NAK"), so the link is gone until `restartPolling()`.
    package func sendMiFareCommand(_ ref: TagReference, _ command: [UInt8]) throws(SystemError) -> [UInt8] {
        touch()
        return try operation(ref) { (s, entry, frontend) throws(SystemError) in
            guard !command.isEmpty else { throw SystemError(.invalidParameterLength, "empty command packet") }
            guard command.count <= frontend.capabilities.maxCommandSize else {
                throw SystemError(.packetTooLong, "command of \(command.count) bytes")
            }
            switch try exchange(s, ref, frontend, command) {
            case .frame(let b): return b
            case .ack: return [0x0A]
            case .nak(let n):
                throw SystemError(.tagConnectionLost, "the tag answered NAK \(n) and went back to IDLE")
            }
        }
    }

    // MARK: plumbing

    func operation<T>(
        _ ref: TagReference, requireConnected: Bool = true,
        _ body: (SessionState, TagLifecycle.Entry, any RFFrontend) throws(SystemError) -> T
    ) throws(SystemError) -> T {
        try perform { () throws(SystemError) -> T in
            guard let s = sessions[ref.session], let frontend else {
                throw SystemError(.sessionInvalidated, "the session is gone")
            }
            guard arbiter.active == ref.session, !s.ended else {
                throw SystemError(.sessionInvalidated, "the session is invalidated")
            }
            let entry = try s.tags.check(ref, requireConnected: requireConnected)
            inFlight.add(1, ordering: .sequentiallyConsistent)
            defer { inFlight.subtract(1, ordering: .sequentiallyConsistent) }
            do throws(SystemError) {
                return try body(s, entry, frontend)
            } catch {
                throw lost(s, ref, error)
            }
        }
    }

    private func ndefAccess(
        _ s: SessionState, _ entry: TagLifecycle.Entry, _ frontend: any RFFrontend
    ) throws(SystemError) -> any NDEFAccess {
        if let a = s.ndef { return a }
        guard let a = platform.ndefAccess(for: entry.identity, frontend: frontend) else {
            throw SystemError(.unsupportedFeature, "this tag has no NDEF mapping")
        }
        s.ndef = a
        return a
    }

    func exchange(
        _ s: SessionState, _ ref: TagReference, _ frontend: any RFFrontend, _ command: [UInt8]
    ) throws(SystemError) -> RFResponse {
        do {
            return try frontend.exchange(command)
        } catch {
            throw lost(s, ref, SystemError(rf: error))
        }
    }

    /// Notes a tag that left the field.
    func lost(_ s: SessionState, _ ref: TagReference, _ e: SystemError) -> SystemError {
        if e.code == .tagConnectionLost {
            s.tags.lose(ref.handle)
            s.ndef = nil
        }
        return e
    }
}
