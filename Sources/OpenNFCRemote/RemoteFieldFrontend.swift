internal import Dispatch
internal import Foundation
internal import OpenNFCBytes
package import OpenNFCHTTP
package import OpenNFCRF

/// The app side of the remote field (device `remote:`, docs/FIELD.md): an ``RFFrontend`` whose antenna is a field
/// served by `opennfc field serve`, reached over a WebSocket on loopback.
///
/// | Capability | Behaviour |
/// |---|---|
/// | Poll, activate, exchange, deactivate | one request each, answered by the field's own virtual frontend; what it throws arrives here as the same ``RFError`` |
/// | Sizes, technologies | the field's ``RFCapabilities`` from its `welcome` |
/// | Arrivals, removals, Cancel | pushed by the field; ``onEvent`` runs on a private serial queue (never on the caller's thread) |
/// | The sheet | ``send(sheet:)`` shows the app's sheet in the field |
/// | Card emulation | the page's terminal arrives as ``Event/terminal(_:)``; the card's presence, events and answers go out with ``notify(_:)`` |
/// | A field that stops answering | each request waits at most ``FieldProtocol/requestTimeoutMilliseconds``; then, or when the connection drops, the field is gone: activations, frames and authentications fail with `linkLost` (a tag leaving, Core NFC 100), polls with `frontendFailure`, and the capabilities list no technology — the device no longer has a reader |
/// | Threads | synchronous and not thread-safe, like every frontend: one serial executor drives it |
package final class RemoteFieldFrontend: RFFrontend, @unchecked Sendable {
    /// What the field pushed, or that it went away.
    package enum Event: Sendable, Hashable {
        case fieldChanged
        case cancel
        case lost(String)
        /// The page's terminal acts on the app's card (card emulation).
        case terminal(FieldProtocol.Terminal)
    }

    package let address: LoopbackAddress
    private let socket: WebSocket
    private let fieldCapabilities: RFCapabilities
    private let condition = NSCondition()
    private var results: [Int: FieldProtocol.Outcome] = [:]
    private var lostReason: String?
    private var nextID = 1
    private var changes = 0
    private let events = DispatchQueue(label: "OpenCoreNFC.remote-field.events")
    private let eventLock = NSLock()
    private var handler: (@Sendable (Event) -> Void)?

    /// Called for every event the field pushes, and once when the connection is lost.
    package var onEvent: (@Sendable (Event) -> Void)? {
        get { eventLock.withLock { handler } }
        set { eventLock.withLock { handler = newValue } }
    }

    /// Connects, says hello, and waits for the field's welcome. A field that refuses (another app is connected,
    /// another protocol version) gives its reason in the error.
    package init(address: LoopbackAddress, appName: String) throws(DeviceConnectError) {
        self.address = address
        let ws: WebSocket
        do {
            ws = try HTTPClient.webSocket(
                to: address, path: FieldProtocol.appPath,
                limits: WebSocket.Limits(
                    maxFrame: FieldProtocol.maxMessageBytes, maxMessage: FieldProtocol.maxMessageBytes),
                timeoutMilliseconds: FieldProtocol.requestTimeoutMilliseconds)
        } catch {
            if error.status != nil {
                throw DeviceConnectError("the field at \(address) refused this app: \(error.message)")
            }
            throw DeviceConnectError(
                "no field at \(address) (\(error.message)); start one with 'opennfc field serve --port \(address.port)'"
            )
        }
        socket = ws
        let pid = Int(ProcessInfo.processInfo.processIdentifier)
        do {
            try ws.send(
                text: FieldProtocol.Request.hello(version: FieldProtocol.version, app: appName, pid: pid).json.compact)
            guard case .text(let text)? = try ws.receive() else {
                throw DeviceConnectError("the field at \(address) closed the connection before its welcome")
            }
            guard case .welcome(let version, let caps) = try FieldProtocol.Reply(text) else {
                throw DeviceConnectError("the field at \(address) did not start with a welcome")
            }
            guard version == FieldProtocol.version else {
                throw DeviceConnectError(
                    "the field at \(address) speaks protocol \(version); this build speaks \(FieldProtocol.version)")
            }
            fieldCapabilities = caps
        } catch let e as DeviceConnectError {
            ws.close(WebSocketClose.protocolError, e.message, abort: true)
            throw e
        } catch let c as WebSocketClose {
            throw DeviceConnectError("the field at \(address) closed the connection: \(c.reason) (\(c.code))")
        } catch {
            ws.close(WebSocketClose.protocolError, "bad welcome", abort: true)
            throw DeviceConnectError("the field at \(address) sent a bad welcome: \(error)")
        }
        let t = Thread { [self] in receiveLoop() }
        t.name = "OpenCoreNFC remote field \(address)"
        t.start()
    }

    deinit { socket.close(WebSocketClose.goingAway, "the app is done", abort: true) }

    /// The field's capabilities; no technologies once the field is gone (a device without a reader).
    package var capabilities: RFCapabilities {
        var c = fieldCapabilities
        if isLost { c.technologies = [] }
        return c
    }

    /// Why the field is gone, nil while it is connected.
    package var lost: String? { condition.withLock { lostReason } }
    private var isLost: Bool { lost != nil }

    /// Counts the field's `field` events, for waiting on a change (``waitForChange(after:timeoutMilliseconds:)``).
    package var changeCount: Int { condition.withLock { changes } }

    /// Waits until the field reports a change after `count` (or is lost), at most `timeoutMilliseconds`; true when
    /// something changed.
    package func waitForChange(after count: Int, timeoutMilliseconds: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(timeoutMilliseconds) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while changes == count && lostReason == nil {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Shows the app's sheet in the field (nothing when the field is gone).
    package func send(sheet: FieldProtocol.Sheet) {
        guard !isLost else { return }
        try? socket.send(text: FieldProtocol.Request.sheet(sheet).json.compact)
    }

    /// Sends a notice that has no result (the card's presence, its events, an answer to the terminal); nothing when
    /// the field is gone.
    package func notify(_ request: FieldProtocol.Request) {
        guard !isLost else { return }
        try? socket.send(text: request.json.compact)
    }

    /// Closes the connection (the field frees its app slot).
    package func close() { socket.close(WebSocketClose.normal, "the app closed the device") }

    // MARK: RFFrontend

    package func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        guard case .targets(let t) = try call({ .poll(id: $0, request) }) else { throw unexpected("poll") }
        return t
    }

    package func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        guard case .done = try call({ .authenticate(id: $0, authentication) }, inFlightLoss: .linkLost) else {
            throw unexpected("authenticate")
        }
    }

    package func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        guard
            case .target(let t) = try call(
                { .activate(id: $0, handle: target.handle, isoDEP: isoDEP) }, inFlightLoss: .linkLost)
        else {
            throw unexpected("activate")
        }
        return t
    }

    package func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        guard command.count <= FieldProtocol.maxFrameBytes else {
            throw RFError(.frameTooLong, "command of \(command.count) bytes exceeds \(FieldProtocol.maxFrameBytes)")
        }
        guard case .response(let r) = try call({ .exchange(id: $0, command) }, inFlightLoss: .linkLost) else {
            throw unexpected("exchange")
        }
        return r
    }

    package func deactivate() {
        _ = try? call { .deactivate(id: $0) }
    }

    private func unexpected(_ op: String) -> RFError {
        RFError(.protocolViolation, "the field answered \(op) with the wrong kind of result")
    }

    /// One request and its result. A field lost before or while waiting gives `inFlightLoss` (`linkLost` for the
    /// calls that talk to a tag: the tag is gone; `frontendFailure` for polls: there is no reader any more).
    private func call(
        _ make: (Int) -> FieldProtocol.Request, inFlightLoss: RFError.Code = .frontendFailure
    ) throws(RFError) -> FieldProtocol.Outcome {
        condition.lock()
        if let why = lostReason {
            condition.unlock()
            throw RFError(inFlightLoss, "the field at \(address) is gone (\(why)); this device has no reader now")
        }
        let id = nextID
        nextID += 1
        condition.unlock()
        do {
            try socket.send(text: make(id).json.compact)
        } catch {
            markLost("sending failed: \(error.message)")
            throw RFError(inFlightLoss, "the connection to the field at \(address) was lost")
        }
        let deadline = Date(timeIntervalSinceNow: Double(FieldProtocol.requestTimeoutMilliseconds) / 1000)
        condition.lock()
        while results[id] == nil && lostReason == nil {
            if !condition.wait(until: deadline) { break }
        }
        let outcome = results.removeValue(forKey: id)
        let why = lostReason
        condition.unlock()
        guard let outcome else {
            if why == nil {
                markLost("no answer within \(FieldProtocol.requestTimeoutMilliseconds) ms")
                socket.close(WebSocketClose.goingAway, "the field did not answer in time", abort: true)
            }
            throw RFError(inFlightLoss, "the connection to the field at \(address) was lost (\(why ?? "no answer"))")
        }
        if case .failed(let e) = outcome { throw e }
        return outcome
    }

    private func markLost(_ why: String) {
        let first = condition.withLock { () -> Bool in
            guard lostReason == nil else { return false }
            lostReason = why
            condition.broadcast()
            return true
        }
        if first { post(.lost(why)) }
    }

    private func post(_ e: Event) {
        let h = onEvent
        events.async { h?(e) }
    }

    private func receiveLoop() {
        while true {
            let message: WebSocket.Message?
            do {
                message = try socket.receive()
            } catch {
                markLost("\(error.reason.isEmpty ? "closed" : error.reason) (\(error.code))")
                return
            }
            guard case .text(let text)? = message else {
                if message == nil {
                    markLost("the field closed the connection")
                } else {
                    socket.close(WebSocketClose.unsupportedData, "binary messages are not part of the protocol")
                    markLost("the field sent a binary message")
                }
                if message == nil { return }
                continue
            }
            let reply: FieldProtocol.Reply
            do {
                reply = try FieldProtocol.Reply(text)
            } catch {
                socket.close(WebSocketClose.invalidPayload, "bad message: \(error)", abort: true)
                markLost("the field sent a bad message: \(error)")
                return
            }
            switch reply {
            case .result(let id, let outcome):
                condition.withLock {
                    results[id] = outcome
                    condition.broadcast()
                }
            case .event(.field):
                condition.withLock {
                    changes += 1
                    condition.broadcast()
                }
                post(.fieldChanged)
            case .event(.cancel): post(.cancel)
            case .terminal(let t): post(.terminal(t))
            case .welcome: continue
            }
        }
    }
}

/// A remote device that could not be opened, with what to do.
package struct DeviceConnectError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Parses `remote:` arguments: empty (the default port), `N`, `127.0.0.1:N` or `localhost:N`.
package enum RemoteDeviceString {
    package static func address(_ argument: String) throws(DeviceConnectError) -> LoopbackAddress {
        var host = "127.0.0.1"
        var portText = argument
        if let colon = argument.lastIndex(of: ":") {
            host = String(argument[..<colon])
            portText = String(argument[argument.index(after: colon)...])
        } else if argument.contains(".") || argument == "localhost" {
            host = argument
            portText = ""
        }
        let port: UInt16
        if portText.isEmpty {
            port = FieldProtocol.defaultPort
        } else {
            guard let p = UInt16(portText), p > 0 else {
                throw DeviceConnectError("remote: \"\(portText)\" is not a port number (1…65535)")
            }
            port = p
        }
        do {
            return try LoopbackAddress(host: host, port: port)
        } catch {
            throw DeviceConnectError("remote: \(error.message)")
        }
    }
}
