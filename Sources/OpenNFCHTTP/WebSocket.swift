/// A WebSocket connection (RFC 6455), server or client side, over a ``TCPSocket``.
///
/// | Feature | Behaviour |
/// |---|---|
/// | Messages | text (UTF-8 checked, 1007 otherwise) and binary; fragmented messages are reassembled (§5.4) |
/// | Control frames | ping answered with pong at once (§5.5.2); pong ignored; close echoed, then the TCP connection closed (§5.5.1) |
/// | Masking | required from clients, refused from servers (§5.1); clients mask with a fresh random key per frame |
/// | Limits | frame and message sizes (1009 beyond), a frame must complete within `frameTimeout` (1002), optional idle timeout |
/// | Extensions, subprotocols | none: RSV bits must be 0 (1002) |
/// | Threads | one thread receives; any thread may send (sends are serialized) or close |
package final class WebSocket: @unchecked Sendable {
    package enum Message: Sendable, Hashable {
        case text(String)
        case binary([UInt8])
    }

    package struct Limits: Sendable, Hashable {
        package var maxFrame: Int
        package var maxMessage: Int
        /// Once a frame has started, its remaining bytes must arrive within this time.
        package var frameTimeoutMilliseconds: Int
        /// Between frames, close the connection after this long without one (0: wait forever).
        package var idleTimeoutMilliseconds: Int
        package var writeTimeoutMilliseconds: Int

        package init(
            maxFrame: Int = 1 << 20, maxMessage: Int = 1 << 20, frameTimeoutMilliseconds: Int = 10_000,
            idleTimeoutMilliseconds: Int = 0, writeTimeoutMilliseconds: Int = 10_000
        ) {
            self.maxFrame = maxFrame
            self.maxMessage = maxMessage
            self.frameTimeoutMilliseconds = frameTimeoutMilliseconds
            self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
            self.writeTimeoutMilliseconds = writeTimeoutMilliseconds
        }
    }

    let socket: TCPSocket
    let stream: ByteStream
    package let isServer: Bool
    package let limits: Limits
    private let writeLock = SocketLock()
    private let stateLock = SocketLock()
    private var closeSent = false
    private var fragments: (opcode: WebSocketFrame.Opcode, bytes: [UInt8])?

    init(socket: TCPSocket, stream: ByteStream, isServer: Bool, limits: Limits) {
        self.socket = socket
        self.stream = stream
        self.isServer = isServer
        self.limits = limits
    }

    /// The next message; nil when the peer closed the connection properly (its close frame was answered).
    /// Throws the close code and reason when the connection failed: the peer broke the protocol (the close frame
    /// sent to it says why), it went away without a close frame (1006), or stayed silent past the idle timeout.
    package func receive() throws(WebSocketClose) -> Message? {
        while true {
            socket.setTimeouts(
                readMilliseconds: limits.idleTimeoutMilliseconds, writeMilliseconds: limits.writeTimeoutMilliseconds)
            let frame: WebSocketFrame
            do {
                frame = try WebSocketFrameReader.read(
                    from: stream, expectMasked: isServer, maxFrame: limits.maxFrame,
                    started: { [socket, limits] in
                        socket.setTimeouts(
                            readMilliseconds: limits.frameTimeoutMilliseconds,
                            writeMilliseconds: limits.writeTimeoutMilliseconds)
                    })
            } catch {
                switch error {
                case .ended:
                    socket.close()
                    throw WebSocketClose(1006, "the connection was lost without a close frame")
                case .idle:
                    let c = WebSocketClose(
                        WebSocketClose.policyViolation, "no message for \(limits.idleTimeoutMilliseconds) ms")
                    fail(c)
                    throw c
                case .protocolViolation(let c):
                    fail(c)
                    throw c
                }
            }
            switch frame.opcode {
            case .ping:
                try? send(WebSocketFrame(opcode: .pong, payload: frame.payload))
            case .pong:
                continue
            case .close:
                switch WebSocketClose.parse(frame.payload) {
                case .success(let c):
                    let echo = WebSocketClose(c.code == 1005 ? WebSocketClose.normal : c.code, "")
                    sendClose(echo)
                    socket.close()
                    if c.code == WebSocketClose.normal || c.code == 1005 || c.code == WebSocketClose.goingAway {
                        return nil
                    }
                    throw c
                case .failure(let c):
                    fail(c)
                    throw c
                }
            case .text, .binary:
                guard fragments == nil else {
                    let c = WebSocketClose(WebSocketClose.protocolError, "a new message began inside a fragmented one")
                    fail(c)
                    throw c
                }
                if frame.fin { return try message(frame.opcode, frame.payload) }
                fragments = (frame.opcode, frame.payload)
                try checkSize(frame.payload.count)
            case .continuation:
                guard var f = fragments else {
                    let c = WebSocketClose(WebSocketClose.protocolError, "a continuation frame without a message")
                    fail(c)
                    throw c
                }
                f.bytes += frame.payload
                try checkSize(f.bytes.count)
                if frame.fin {
                    fragments = nil
                    return try message(f.opcode, f.bytes)
                }
                fragments = f
            }
        }
    }

    private func checkSize(_ n: Int) throws(WebSocketClose) {
        guard n <= limits.maxMessage else {
            let c = WebSocketClose(
                WebSocketClose.messageTooBig, "message of more than \(limits.maxMessage) bytes")
            fail(c)
            throw c
        }
    }

    private func message(_ opcode: WebSocketFrame.Opcode, _ bytes: [UInt8]) throws(WebSocketClose) -> Message {
        guard opcode == .text else { return .binary(bytes) }
        guard let s = String(validating: bytes, as: UTF8.self) else {
            let c = WebSocketClose(WebSocketClose.invalidPayload, "a text message that is not UTF-8")
            fail(c)
            throw c
        }
        return .text(s)
    }

    /// Sends a text message in one frame.
    package func send(text: String) throws(SocketError) {
        try send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
    }

    /// Sends a binary message in one frame.
    package func send(binary: [UInt8]) throws(SocketError) {
        try send(WebSocketFrame(opcode: .binary, payload: binary))
    }

    /// Sends one frame as it is (tests use it to fragment messages and to send pings).
    package func send(_ frame: WebSocketFrame) throws(SocketError) {
        if stateLock.withLock({ closeSent }) && frame.opcode != .close {
            throw SocketError(.closed, "the WebSocket is closing")
        }
        let bytes = frame.encoded(mask: isServer ? nil : Self.randomMask())
        try writeLock.withLock { () throws(SocketError) in try socket.write(bytes) }
    }

    /// Starts the closing handshake (§7.1.2): sends a close frame once; the receiving thread sees the echo and
    /// returns nil. `abort`: also shut the TCP connection down at once.
    package func close(_ code: UInt16 = WebSocketClose.normal, _ reason: String = "", abort: Bool = false) {
        sendClose(WebSocketClose(code, reason))
        if abort { socket.shutdownBoth() }
    }

    private func sendClose(_ c: WebSocketClose) {
        let first = stateLock.withLock { () -> Bool in
            if closeSent { return false }
            closeSent = true
            return true
        }
        guard first else { return }
        let bytes = WebSocketFrame(opcode: .close, payload: c.payload).encoded(mask: isServer ? nil : Self.randomMask())
        writeLock.withLock { try? socket.write(bytes) }
    }

    /// Fails the connection (§7.1.7): a close frame with the reason, then the TCP connection is dropped.
    private func fail(_ c: WebSocketClose) {
        sendClose(c)
        socket.close()
    }

    static func randomMask() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        let v = g.next() as UInt32
        return [
            UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8),
            UInt8(truncatingIfNeeded: v),
        ]
    }
}

/// The opening handshake (RFC 6455 §4).
package enum WebSocketHandshake {
    /// RFC 6455 §1.3: the GUID appended to the client's key.
    package static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: base64(SHA-1(key + GUID)).
    package static func accept(key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + guid).utf8)))
    }

    /// Checks an upgrade request (§4.2.1) and returns its key; the error's status is 400, or 426 with the version
    /// this server speaks.
    package static func validate(_ r: HTTPRequest) throws(HTTPError) -> String {
        guard r.method == "GET" else { throw HTTPError(405, "a WebSocket handshake must be a GET") }
        guard r.version == "HTTP/1.1" else { throw HTTPError(400, "a WebSocket handshake needs HTTP/1.1") }
        guard r.headers.contains("Upgrade", token: "websocket") else {
            throw HTTPError(426, "this path speaks WebSocket only (Upgrade: websocket is missing)")
        }
        guard r.headers.contains("Connection", token: "upgrade") else {
            throw HTTPError(400, "Connection: Upgrade is missing")
        }
        guard r.headers.values("Sec-WebSocket-Version") == ["13"] else {
            throw HTTPError(426, "only WebSocket version 13 is supported (Sec-WebSocket-Version: 13)")
        }
        let keys = r.headers.values("Sec-WebSocket-Key")
        guard keys.count == 1, let key = keys.first, Base64.decode(key)?.count == 16 else {
            throw HTTPError(400, "Sec-WebSocket-Key must be the base64 of 16 bytes")
        }
        return key
    }

    /// The 101 response that completes the handshake.
    package static func response(key: String) -> HTTPResponse {
        HTTPResponse(
            status: 101,
            headers: HTTPHeaders([
                ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept(key: key)),
            ]))
    }
}
