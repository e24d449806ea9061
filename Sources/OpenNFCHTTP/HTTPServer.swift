internal import Foundation

/// What a handler answers to a request.
package enum HTTPReply: Sendable {
    /// Send this response (the connection stays open unless the request asked to close it).
    case response(HTTPResponse)
    /// Complete a WebSocket handshake (RFC 6455 §4.2.2) and run `session` on the connection's thread until it
    /// returns; the connection is closed afterwards. A request that is no valid handshake gets 400/426 instead.
    case webSocket(WebSocket.Limits, @Sendable (WebSocket) -> Void)
}

/// A small, strict HTTP/1.1 server (RFC 9112) on a loopback address, one thread per connection.
///
/// | Feature | Behaviour |
/// |---|---|
/// | Addresses | loopback only (``LoopbackAddress``): binding anything else is refused |
/// | Requests | origin-form targets, `Content-Length` bodies; `Transfer-Encoding` is refused with 501 |
/// | Persistent connections | yes (HTTP/1.1 default; `Connection: close` honoured), no pipelining beyond in-order reads |
/// | Limits | head size (431), target length (414), header count (431), body size (413), read timeout (408), connection count (503) |
/// | Malformed input | 400 with a one-line reason naming what was wrong, then the connection is closed |
/// | WebSocket | upgrade through ``HTTPReply/webSocket(_:_:)`` |
package final class HTTPServer: @unchecked Sendable {
    package struct Limits: Sendable, Hashable {
        package var maxHeadBytes = 16_384
        package var maxTargetBytes = 4_096
        package var maxHeaderFields = 64
        package var maxBodyBytes = 1 << 20
        /// A request's head and body must arrive within this time; an idle persistent connection is closed after it.
        package var readTimeoutMilliseconds = 10_000
        package var maxConnections = 32

        package init() {}
    }

    package let address: LoopbackAddress
    package let limits: Limits
    private let listener: TCPListener
    private let handler: @Sendable (HTTPRequest) -> HTTPReply
    private let lock = SocketLock()
    private var open: [ObjectIdentifier: TCPSocket] = [:]
    private var stopped = false
    private let finished = NSCondition()
    private var acceptRunning = false

    /// Binds the listener now (so a port in use fails here, with a clear message); ``start()`` begins accepting.
    package init(
        address: LoopbackAddress, limits: Limits = Limits(),
        handler: @escaping @Sendable (HTTPRequest) -> HTTPReply
    ) throws(SocketError) {
        listener = try TCPListener(address)
        self.address = listener.address
        self.limits = limits
        self.handler = handler
    }

    /// Starts the accepting thread.
    package func start() {
        finished.withLock { acceptRunning = true }
        let t = Thread { [self] in
            while let s = listener.accept() {
                let admitted = lock.withLock { () -> Bool in
                    if stopped || open.count >= limits.maxConnections { return false }
                    open[ObjectIdentifier(s)] = s
                    return true
                }
                guard admitted else {
                    s.setTimeouts(readMilliseconds: 1_000, writeMilliseconds: 1_000)
                    try? s.write(
                        HTTPResponse.text(503, "too many connections (at most \(limits.maxConnections))")
                            .serialized(closing: true))
                    s.close()
                    continue
                }
                let c = Thread { [self] in
                    serve(s)
                    lock.withLock { _ = open.removeValue(forKey: ObjectIdentifier(s)) }
                    s.close()
                }
                c.name = "OpenNFCHTTP connection"
                c.start()
            }
            finished.withLock {
                acceptRunning = false
                finished.broadcast()
            }
        }
        t.name = "OpenNFCHTTP accept \(address)"
        t.start()
    }

    /// Stops accepting and drops every open connection (their threads end promptly).
    package func stop() {
        let sockets = lock.withLock { () -> [TCPSocket] in
            stopped = true
            return Array(open.values)
        }
        listener.close()
        for s in sockets { s.shutdownBoth() }
        finished.withLock { while acceptRunning { finished.wait() } }
    }

    /// Serves requests on one connection until it closes, fails, or becomes a WebSocket.
    private func serve(_ socket: TCPSocket) {
        let stream = ByteStream(socket)
        while true {
            socket.setTimeouts(
                readMilliseconds: limits.readTimeoutMilliseconds, writeMilliseconds: limits.readTimeoutMilliseconds)
            let request: HTTPRequest
            do {
                request = try Self.readRequest(stream, limits: limits)
            } catch {
                if case .refused(let e) = error {
                    try? socket.write(HTTPResponse.text(e.status, e.reason).serialized(closing: true))
                }
                return
            }
            switch handler(request) {
            case .response(let r):
                let keep = request.keepsAlive && r.headers["Connection"]?.lowercased() != "close"
                do {
                    try socket.write(r.serialized(closing: !keep))
                } catch {
                    return
                }
                if !keep { return }
            case .webSocket(let wsLimits, let session):
                let key: String
                do {
                    key = try WebSocketHandshake.validate(request)
                } catch {
                    var r = HTTPResponse.text(error.status, error.reason)
                    if error.status == 426 { r.headers.add("Sec-WebSocket-Version", "13") }
                    try? socket.write(r.serialized(closing: true))
                    return
                }
                do {
                    try socket.write(WebSocketHandshake.response(key: key).serialized())
                } catch {
                    return
                }
                session(WebSocket(socket: socket, stream: stream, isServer: true, limits: wsLimits))
                return
            }
        }
    }

    package enum HTTPServerReadError: Error {
        /// The client closed (or went silent) between requests: nothing to answer.
        case closed
        case refused(HTTPError)
    }

    /// Reads one request (head, then a `Content-Length` body) within the limits.
    package static func readRequest(_ stream: ByteStream, limits: Limits) throws(HTTPServerReadError) -> HTTPRequest {
        let head: [UInt8]
        do {
            head = try stream.readHead(limit: limits.maxHeadBytes)
        } catch {
            switch error {
            case .ended(let n):
                if n == 0 { throw .closed }
                throw .refused(HTTPError(400, "the connection ended inside the request head after \(n) bytes"))
            case .tooLong(let limit):
                throw .refused(HTTPError(431, "the request head is longer than \(limit) bytes"))
            case .source(let e):
                if e.kind == .timeout && stream.buffered > 0 {
                    throw .refused(HTTPError(408, "the request head did not arrive in time"))
                }
                throw .closed
            }
        }
        var request: HTTPRequest
        do {
            request = try HTTPParser.requestHead(
                head, maxTarget: limits.maxTargetBytes, maxFields: limits.maxHeaderFields)
        } catch {
            throw .refused(error)
        }
        let length: Int
        do {
            length = try HTTPParser.contentLength(request.headers)
        } catch {
            throw .refused(error)
        }
        guard length <= limits.maxBodyBytes else {
            throw .refused(HTTPError(413, "a body of \(length) bytes; at most \(limits.maxBodyBytes) are accepted"))
        }
        if length > 0 {
            do {
                request.body = try stream.read(exactly: length)
            } catch {
                throw .refused(HTTPError(400, "the body ended before its Content-Length of \(length) bytes"))
            }
        }
        return request
    }
}
