package import OpenNFCPCSC
internal import Synchronization

/// An in-process PC/SC service for tests: readers that can be plugged and unplugged, cards that answer from a
/// closure, the service going up and down, exclusive and shared connections with pcsc-lite's sharing rules, and a
/// transcript of every APDU.
///
/// | PC/SC behaviour | Fake |
/// |---|---|
/// | pcscd not running | ``serviceRunning`` = false → `SCARD_E_NO_SERVICE` |
/// | pcscd stopping under a client | ``stopService(statusChangeFailsWith:)`` → that status from `SCardGetStatusChange` |
/// | reader unplugged | ``unplugReader(_:)`` → `SCARD_E_READER_UNAVAILABLE` on open connections, reader gone from the list |
/// | card removed | ``removeCard(from:)`` → `SCARD_W_REMOVED_CARD` on open connections |
/// | card removed mid-command | ``removeCardDuringNextCommand(on:)`` → that transmit succeeds with 0 bytes (as vpcd does) |
/// | exclusive / shared | `SCARD_E_SHARING_VIOLATION` as pcsc-lite rules |
/// | reset | `SCardReconnect`/`SCardDisconnect` with `SCARD_RESET_CARD` call ``Card/onReset`` |
/// | waiting | `SCardGetStatusChange` never blocks: it reports a change at once or throws `SCARD_E_TIMEOUT` |
package final class FakePCSCBinding: PCSCBinding, @unchecked Sendable {
    /// A card: an ATR and a responder that maps each command APDU to a response (data + SW).
    package final class Card: @unchecked Sendable {
        package let atr: [UInt8]
        package let respond: @Sendable ([UInt8]) -> [UInt8]
        /// Called on each warm reset (`SCARD_RESET_CARD`).
        package let onReset: (@Sendable () -> Void)?

        package init(
            atr: [UInt8], onReset: (@Sendable () -> Void)? = nil, respond: @escaping @Sendable ([UInt8]) -> [UInt8]
        ) {
            self.atr = atr
            self.onReset = onReset
            self.respond = respond
        }
    }

    /// One transmitted APDU as the fake saw it.
    package struct Exchange: Sendable, Hashable {
        package var reader: String
        package var command: [UInt8]
        package var response: [UInt8]
    }

    struct Reader {
        var name: String
        var card: Card?
        var eventCount: UInt16 = 0
        var removeDuringNextCommand = false
    }

    struct Connection {
        var reader: String
        var share: PCSCShareMode
        var eventCount: UInt16
        var unplugged = false
    }

    struct State {
        var serviceRunning = true
        var stoppedStatus: UInt32?
        var readers: [Reader] = []
        var contexts: Set<UInt64> = []
        var connections: [UInt64: Connection] = [:]
        var nextHandle: UInt64 = 0x100
        var transcript: [Exchange] = []
        var controlResponses: [UInt32: [UInt8]] = [:]
        var resets = 0
    }

    private let state = Mutex(State())

    package init(readers: [String] = []) {
        state.withLock { s in s.readers = readers.map { Reader(name: $0) } }
    }

    // MARK: Test controls

    /// Whether the fake pcscd runs; when false, every call fails with `SCARD_E_NO_SERVICE`.
    package var serviceRunning: Bool {
        get { state.withLock { $0.serviceRunning } }
        set {
            state.withLock { s in
                s.serviceRunning = newValue
                s.stoppedStatus = nil
            }
        }
    }

    /// Stops the fake pcscd the way pcsc-lite 1.9.9 was seen to: `SCardGetStatusChange` on a context opened before the
    /// stop fails with `status` (e.g. `0x8010006A`, SCARD_W_SECURITY_VIOLATION) instead of `SCARD_E_NO_SERVICE`;
    /// every other call fails with `SCARD_E_NO_SERVICE`. Setting ``serviceRunning`` starts it again.
    package func stopService(statusChangeFailsWith status: UInt32) {
        state.withLock { s in
            s.serviceRunning = false
            s.stoppedStatus = status
        }
    }

    package func plugReader(_ name: String) {
        state.withLock { s in
            if !s.readers.contains(where: { $0.name == name }) { s.readers.append(Reader(name: name)) }
        }
    }

    package func unplugReader(_ name: String) {
        state.withLock { s in
            s.readers.removeAll { $0.name == name }
            for (k, c) in s.connections where c.reader == name { s.connections[k]?.unplugged = true }
        }
    }

    package func insert(_ card: Card, into reader: String) {
        state.withLock { s in
            guard let i = s.readers.firstIndex(where: { $0.name == reader }) else { return }
            s.readers[i].card = card
            s.readers[i].eventCount &+= 1
        }
    }

    package func removeCard(from reader: String) {
        state.withLock { s in
            guard let i = s.readers.firstIndex(where: { $0.name == reader }), s.readers[i].card != nil else { return }
            s.readers[i].card = nil
            s.readers[i].eventCount &+= 1
        }
    }

    /// The next APDU to this reader's card returns an empty success, and the card is gone afterwards.
    package func removeCardDuringNextCommand(on reader: String) {
        state.withLock { s in
            if let i = s.readers.firstIndex(where: { $0.name == reader }) {
                s.readers[i].removeDuringNextCommand = true
            }
        }
    }

    /// What `SCardControl` answers for a control code.
    package func setControlResponse(_ response: [UInt8], forCode code: UInt32) {
        state.withLock { $0.controlResponses[code] = response }
    }

    /// Every APDU so far, in order.
    package var transcript: [Exchange] { state.withLock { $0.transcript } }
    package func clearTranscript() { state.withLock { $0.transcript = [] } }
    /// Open connections (to check that nothing leaks).
    package var openConnections: Int { state.withLock { $0.connections.count } }
    /// Warm resets performed so far.
    package var resetCount: Int { state.withLock { $0.resets } }

    // MARK: PCSCBinding

    private func fail(_ status: UInt32, _ function: String, reader: String? = nil) -> PCSCError {
        PCSCError(status: status, function: function, reader: reader)
    }

    package func establishContext() throws(PCSCError) -> PCSCContextID {
        let r: Result<PCSCContextID, PCSCError> = state.withLock { s in
            guard s.serviceRunning else { return .failure(fail(PCSCStatus.noService, "SCardEstablishContext")) }
            s.nextHandle += 1
            s.contexts.insert(s.nextHandle)
            return .success(PCSCContextID(rawValue: s.nextHandle))
        }
        return try r.get()
    }

    package func releaseContext(_ context: PCSCContextID) {
        state.withLock { s in _ = s.contexts.remove(context.rawValue) }
    }

    package func listReaders(_ context: PCSCContextID) throws(PCSCError) -> [String] {
        let r: Result<[String], PCSCError> = state.withLock { s in
            guard s.serviceRunning else { return .failure(fail(PCSCStatus.noService, "SCardListReaders")) }
            guard s.contexts.contains(context.rawValue) else {
                return .failure(fail(PCSCStatus.invalidHandle, "SCardListReaders"))
            }
            return .success(s.readers.map(\.name))
        }
        return try r.get()
    }

    package func getStatusChange(
        _ context: PCSCContextID, timeoutMilliseconds: UInt32, states: inout [PCSCReaderState]
    ) throws(PCSCError) {
        let r: Result<[PCSCReaderState], PCSCError> = state.withLock { [states] s in
            guard s.serviceRunning else {
                return .failure(fail(s.stoppedStatus ?? PCSCStatus.noService, "SCardGetStatusChange"))
            }
            var out = states
            var changed = false
            for i in out.indices {
                var flags: PCSCReaderStateFlags
                var count: UInt16 = 0
                var atr: [UInt8] = []
                if let reader = s.readers.first(where: { $0.name == out[i].reader }) {
                    count = reader.eventCount
                    if let card = reader.card {
                        flags = .present
                        atr = card.atr
                        let conns = s.connections.values.filter { $0.reader == reader.name && !$0.unplugged }
                        if conns.contains(where: { $0.share == .exclusive }) {
                            flags.insert(.exclusive)
                        } else if !conns.isEmpty {
                            flags.insert(.inUse)
                        }
                    } else {
                        flags = .empty
                    }
                } else {
                    flags = [.unknown]
                }
                let differs = out[i].currentState.subtracting(.changed) != flags || out[i].currentEventCount != count
                if differs { flags.insert(.changed) }
                changed = changed || differs
                out[i].eventState = flags
                out[i].eventCount = count
                out[i].atr = atr
            }
            if !changed && timeoutMilliseconds != 0 {
                return .failure(fail(PCSCStatus.timeout, "SCardGetStatusChange"))
            }
            return .success(out)
        }
        states = try r.get()
    }

    package func cancel(_ context: PCSCContextID) {}

    package func connect(
        _ context: PCSCContextID, reader: String, share: PCSCShareMode, protocols: PCSCProtocols
    ) throws(PCSCError) -> (card: PCSCCardID, activeProtocol: PCSCProtocols) {
        let r: Result<(card: PCSCCardID, activeProtocol: PCSCProtocols), PCSCError> = state.withLock { s in
            guard s.serviceRunning else { return .failure(fail(PCSCStatus.noService, "SCardConnect")) }
            guard let rd = s.readers.first(where: { $0.name == reader }) else {
                return .failure(fail(PCSCStatus.unknownReader, "SCardConnect", reader: reader))
            }
            guard rd.card != nil || share == .direct else {
                return .failure(fail(PCSCStatus.noSmartcard, "SCardConnect", reader: reader))
            }
            let others = s.connections.values.filter { $0.reader == reader && !$0.unplugged }
            if others.contains(where: { $0.share == .exclusive }) || (share == .exclusive && !others.isEmpty) {
                return .failure(fail(PCSCStatus.sharingViolation, "SCardConnect", reader: reader))
            }
            s.nextHandle += 1
            s.connections[s.nextHandle] = Connection(reader: reader, share: share, eventCount: rd.eventCount)
            return .success((PCSCCardID(rawValue: s.nextHandle), .t1))
        }
        return try r.get()
    }

    /// Checks a connection: the reader is there and the card it was made with still is.
    private func live(_ s: State, _ card: PCSCCardID, _ function: String) -> Result<(Connection, Reader), PCSCError> {
        guard s.serviceRunning else { return .failure(fail(PCSCStatus.noService, function)) }
        guard let c = s.connections[card.rawValue] else { return .failure(fail(PCSCStatus.invalidHandle, function)) }
        guard !c.unplugged, let rd = s.readers.first(where: { $0.name == c.reader }) else {
            return .failure(fail(PCSCStatus.readerUnavailable, function, reader: c.reader))
        }
        guard rd.card != nil, rd.eventCount == c.eventCount else {
            return .failure(fail(PCSCStatus.removedCard, function, reader: c.reader))
        }
        return .success((c, rd))
    }

    package func reconnect(
        _ card: PCSCCardID, share: PCSCShareMode, protocols: PCSCProtocols, initialization: PCSCDisposition
    ) throws(PCSCError) -> PCSCProtocols {
        let r: Result<Card?, PCSCError> = state.withLock { s in
            switch live(s, card, "SCardReconnect") {
            case .failure(let e): return .failure(e)
            case .success(let (c, rd)):
                let others = s.connections.filter {
                    $0.key != card.rawValue && $0.value.reader == c.reader && !$0.value.unplugged
                }
                if share == .exclusive && !others.isEmpty {
                    return .failure(fail(PCSCStatus.sharingViolation, "SCardReconnect", reader: c.reader))
                }
                s.connections[card.rawValue]?.share = share
                if initialization != .leave { s.resets += 1 }
                return .success(initialization != .leave ? rd.card : nil)
            }
        }
        try r.get()?.onReset?()
        return .t1
    }

    package func disconnect(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError) {
        let reset: Card? = state.withLock { s in
            guard let c = s.connections.removeValue(forKey: card.rawValue) else { return nil }
            guard disposition != .leave, let rd = s.readers.first(where: { $0.name == c.reader }),
                rd.eventCount == c.eventCount
            else { return nil }
            s.resets += 1
            return rd.card
        }
        reset?.onReset?()
    }

    package func beginTransaction(_ card: PCSCCardID) throws(PCSCError) {
        let r = state.withLock { s in live(s, card, "SCardBeginTransaction").map { _ in () } }
        try r.get()
    }

    package func endTransaction(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError) {
        let r = state.withLock { s in live(s, card, "SCardEndTransaction").map { _ in () } }
        try r.get()
    }

    package func status(_ card: PCSCCardID) throws(PCSCError) -> PCSCCardStatus {
        let r = state.withLock { s in
            live(s, card, "SCardStatus").map { c, rd in
                PCSCCardStatus(reader: c.reader, state: 0x34, activeProtocol: .t1, atr: rd.card?.atr ?? [])
            }
        }
        return try r.get()
    }

    package func transmit(
        _ card: PCSCCardID, protocol: PCSCProtocols, command: [UInt8]
    ) throws(PCSCError) -> [UInt8] {
        let r: Result<(Card, String, Bool), PCSCError> = state.withLock { s in
            switch live(s, card, "SCardTransmit") {
            case .failure(let e): return .failure(e)
            case .success(let (c, rd)):
                let i = s.readers.firstIndex { $0.name == rd.name }!
                if s.readers[i].removeDuringNextCommand {
                    s.readers[i].removeDuringNextCommand = false
                    s.readers[i].card = nil
                    s.readers[i].eventCount &+= 1
                    s.transcript.append(Exchange(reader: c.reader, command: command, response: []))
                    return .success((rd.card!, c.reader, true))
                }
                return .success((rd.card!, c.reader, false))
            }
        }
        let (fakeCard, reader, removed) = try r.get()
        if removed { return [] }
        let response = fakeCard.respond(command)
        state.withLock { $0.transcript.append(Exchange(reader: reader, command: command, response: response)) }
        return response
    }

    package func control(_ card: PCSCCardID, code: UInt32, command: [UInt8]) throws(PCSCError) -> [UInt8] {
        let r: Result<[UInt8], PCSCError> = state.withLock { s in
            guard s.connections[card.rawValue] != nil else {
                return .failure(fail(PCSCStatus.invalidHandle, "SCardControl"))
            }
            guard let answer = s.controlResponses[code] else {
                return .failure(fail(PCSCStatus.unsupportedCard, "SCardControl"))
            }
            return .success(answer)
        }
        return try r.get()
    }
}
