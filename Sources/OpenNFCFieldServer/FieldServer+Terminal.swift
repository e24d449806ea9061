internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCRF
internal import OpenNFCRemote
internal import OpenNFCTags

/// The page's terminal (docs/FIELD.md "The terminal"): a contactless terminal played by a person against the app's
/// `CardSession` over `remote:`. The app tells the field when its card is emulated and what its event stream
/// receives; `POST /api/terminal` brings or takes away the terminal's field and sends APDUs, each answered by the
/// app's handler (or by the phone's own routing: a SELECT of an AID the app did not declare gets `6A 82`).
extension FieldServer {
    /// What the page shows of the app's card.
    struct CardState {
        /// The app emulates (`startEmulation()` … the end of emulation).
        var present = false
        /// The app's AID prefixes, as its card reported them.
        var aids: [[UInt8]] = []
        /// The terminal's field reaches the phone.
        var fieldOn = false
        /// The exchange and the events, oldest first (at most ``FieldServer/cardLogLimit``).
        var log: [(kind: String, text: String, comment: String?)] = []
        var nextAPDU = 1
    }

    /// How many lines of the terminal's log the page keeps.
    static let cardLogLimit = 200

    /// How long the terminal waits for the app's answer to an APDU (the `vpcd:` card's limit too).
    static let terminalAnswerMilliseconds = 5_000

    // MARK: the app's side (under the lock)

    func cardPresence(_ present: Bool, aids: [[UInt8]]) {
        guard present != card.present || aids != card.aids else { return }
        if card.present && !present {
            answered.withLock {
                cardEpoch += 1
                answered.broadcast()
            }
        }
        card.present = present
        card.aids = aids
        let text =
            present
            ? "the app emulates a card (AIDs \(aids.map { Hex.encode($0) }.joined(separator: ", ")))"
            : "the app stopped emulating"
        cardLog("event", text)
        log("app", "card: \(text)")
    }

    func cardEvent(_ e: FieldProtocol.CardEvent) {
        let text: String
        switch e.name {
        case "received": text = "received \(e.detail)"
        case "sessionInvalidated": text = "session ended: sessionInvalidated(\(e.detail))"
        default: text = e.name
        }
        cardLog("event", text)
        log("app", "card: \(text)")
    }

    func cardAnswered(_ n: Int, _ response: [UInt8]?) {
        answered.withLock {
            answers[n] = .some(response)
            answered.broadcast()
        }
    }

    /// The app went away: its card with it.
    func appLeftCard() {
        if card.present { cardLog("event", "the app disconnected: no card") }
        card.present = false
        card.aids = []
        card.fieldOn = false
        answered.withLock {
            cardEpoch += 1
            answered.broadcast()
        }
    }

    private func cardLog(_ kind: String, _ text: String, _ comment: String? = nil) {
        card.log.append((kind, text, comment))
        if card.log.count > Self.cardLogLimit { card.log.removeFirst(card.log.count - Self.cardLogLimit) }
        revision += 1
    }

    func cardSummary() -> JSONValue {
        .object([
            ("emulating", .bool(card.present)), ("aids", .array(card.aids.map { .string(Hex.encode($0)) })),
            ("field", .bool(card.fieldOn)),
            (
                "log",
                .array(
                    card.log.map { l in
                        var m: [(String, JSONValue)] = [("kind", .string(l.kind)), ("text", .string(l.text))]
                        if let c = l.comment { m.append(("comment", .string(c))) }
                        return .object(m)
                    })
            ),
        ])
    }

    // MARK: the page's side

    /// `POST /api/terminal` (without the lock held: an APDU waits for the app's answer).
    ///
    /// | `action` | does |
    /// |---|---|
    /// | `field` | the terminal's field reaches the phone (`readerDetected` for an emulating app) |
    /// | `remove` | the field goes away (`readerDeselected`) |
    /// | `send` with `apdu` (hex) | sends the command APDU and answers with `response` (hex) and its meaning |
    /// | `select` with `aid` (hex, 5–16 bytes) | sends `SELECT` by DF name (ISO/IEC 7816-4 §11.2.2) of that AID |
    func terminal(_ b: JSONValue) throws(FieldServerError) -> JSONValue {
        let action = try string(b, "action")
        switch action {
        case "field", "remove":
            lock.lock()
            defer { lock.unlock() }
            _ = try connectedApp()
            setTerminalField(action == "field")
            return .object([("ok", .bool(true)), ("card", lock.withLock { cardSummary() })])
        case "send", "select":
            let command: [UInt8]
            if action == "select" {
                let aid = try hex(b, "aid")
                guard (5...16).contains(aid.count) else {
                    throw FieldServerError("aid: an AID has 5 to 16 bytes (ISO/IEC 7816-4 §8.2.1.2), not \(aid.count)")
                }
                command = ISO7816Select.byName(aid)
            } else {
                command = try hex(b, "apdu")
                guard command.count >= 4 else {
                    throw FieldServerError(
                        "apdu: a command APDU has at least 4 bytes (CLA INS P1 P2), not \(command.count)")
                }
                guard command.count <= FieldProtocol.maxFrameBytes else {
                    throw FieldServerError("apdu: \(command.count) bytes (at most \(FieldProtocol.maxFrameBytes))")
                }
            }
            return try send(command)
        default:
            throw FieldServerError("action: expected \"field\", \"remove\", \"send\" or \"select\", not \"\(action)\"")
        }
    }

    private func hex(_ b: JSONValue, _ key: String) throws(FieldServerError) -> [UInt8] {
        let text = try string(b, key).filter { !$0.isWhitespace }
        do {
            return try Hex.decode(text)
        } catch {
            throw FieldServerError("\(key): \(error)")
        }
    }

    private func connectedApp() throws(FieldServerError) -> App {
        guard let a = app else {
            throw FieldServerError(
                "no app is connected: start one with OPENCORENFC_DEVICE=remote:\(address) (its CardSession is the card)",
                status: 409)
        }
        return a
    }

    /// Under the lock.
    private func setTerminalField(_ on: Bool) {
        guard on != card.fieldOn, let a = app else { return }
        card.fieldOn = on
        let text = on ? "the terminal's field reaches the phone" : "the terminal's field goes away"
        cardLog("field", text)
        log("user", on ? "holds the phone to the terminal" : "takes the phone away from the terminal")
        try? a.socket.send(text: FieldProtocol.Reply.terminal(on ? .fieldOn : .fieldOff).json.compact)
    }

    /// Sends the APDU to the app (under the lock): its number, and the card's departures so far.
    private func sendCommand(_ command: [UInt8]) throws(FieldServerError) -> (Int, Int) {
        lock.lock()
        defer { lock.unlock() }
        let a = try connectedApp()
        guard card.present else {
            throw FieldServerError(
                "\(a.name) emulates no card: its CardSession must be emulating (startEmulation()) to answer a terminal",
                status: 409)
        }
        setTerminalField(true)
        let n = card.nextAPDU
        card.nextAPDU += 1
        let meaning = describer.command(command, .isoDEP)
        cardLog("command", Hex.encode(command), meaning)
        log("terminal", "> \(Hex.encode(command))", meaning)
        try? a.socket.send(text: FieldProtocol.Reply.terminal(.apdu(n, command)).json.compact)
        return (n, answered.withLock { cardEpoch })
    }

    private func send(_ command: [UInt8]) throws(FieldServerError) -> JSONValue {
        let (n, epoch) = try sendCommand(command)
        let deadline = Date(timeIntervalSinceNow: Double(Self.terminalAnswerMilliseconds) / 1000)
        let answer: [UInt8]?? = answered.withLock {
            // Never the field's lock in here: the app's thread takes it before this one (lock order).
            while answers[n] == nil, cardEpoch == epoch {
                if !answered.wait(until: deadline) { break }
            }
            return answers.removeValue(forKey: n)
        }
        return lock.withLock {
            guard case .some(.some(let response)) = answer else {
                let why =
                    answer == nil
                    ? (app == nil || !card.present
                        ? "the card went away" : "no answer within \(Self.terminalAnswerMilliseconds) ms")
                    : "the phone stayed mute"
                if answer == nil, let a = app {
                    try? a.socket.send(text: FieldProtocol.Reply.terminal(.gaveUp).json.compact)
                }
                cardLog("answer", "TIMEOUT", why)
                log("card", "< TIMEOUT", why)
                return .object([
                    ("ok", .bool(false)), ("command", .string(Hex.encode(command))), ("error", .string(why)),
                ])
            }
            let meaning = describer.answer(.frame(response), command, .isoDEP)
            cardLog("answer", Hex.encode(response), meaning)
            log("card", "< \(Hex.encode(response))", meaning)
            var m: [(String, JSONValue)] = [
                ("ok", .bool(true)), ("command", .string(Hex.encode(command))),
                ("response", .string(Hex.encode(response))),
            ]
            if let meaning { m.append(("meaning", .string(meaning))) }
            return .object(m)
        }
    }
}
