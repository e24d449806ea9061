/// The minimal HTTP/1.1 client the CLI and the tests need: one request per connection, `Content-Length` bodies,
/// loopback only; and the client side of the WebSocket handshake.
package enum HTTPClient {
    /// What went wrong, in one line.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        package var message: String
        /// The HTTP status when the server answered with something else than expected.
        package var status: Int?
        package init(_ message: String, status: Int? = nil) {
            self.message = message
            self.status = status
        }
        package var description: String { message }
    }

    /// Sends one request and reads the response (at most `maxBody` bytes of body).
    package static func request(
        _ method: String, _ target: String, to address: LoopbackAddress, headers: [(String, String)] = [],
        body: [UInt8] = [], timeoutMilliseconds: Int = 10_000, maxBody: Int = 16 << 20
    ) throws(Failure) -> HTTPResponse {
        let socket: TCPSocket
        do {
            socket = try TCPSocket.connect(to: address, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw Failure("cannot reach \(address): \(error.message)")
        }
        defer { socket.close() }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n"
        for (n, v) in headers { head += "\(n): \(v)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        do {
            try socket.write(Array(head.utf8) + body)
        } catch {
            throw Failure("sending to \(address): \(error.message)")
        }
        let stream = ByteStream(socket)
        let (status, h) = try readHead(stream, from: address)
        let length: Int
        do {
            length = try HTTPParser.contentLength(h)
        } catch {
            throw Failure("bad response from \(address): \(error.reason)")
        }
        guard length <= maxBody else { throw Failure("the response from \(address) has \(length) bytes; too large") }
        let bytes: [UInt8]
        do {
            bytes = try stream.read(exactly: length)
        } catch {
            throw Failure("the response from \(address) ended before its \(length) bytes")
        }
        return HTTPResponse(status: status, headers: h, body: bytes)
    }

    static func readHead(_ stream: ByteStream, from address: LoopbackAddress) throws(Failure) -> (Int, HTTPHeaders) {
        let head: [UInt8]
        do {
            head = try stream.readHead(limit: 65_536)
        } catch {
            switch error {
            case .source(let e) where e.kind == .timeout: throw Failure("\(address) did not answer in time")
            default: throw Failure("\(address) closed the connection without an answer")
            }
        }
        do {
            let r = try HTTPParser.responseHead(head)
            return (r.status, r.headers)
        } catch {
            throw Failure("bad response from \(address): \(error.reason)")
        }
    }

    /// Opens a WebSocket to `path` (RFC 6455 §4.1). A server that answers with anything but 101 gives a failure
    /// carrying its status and the text of its body (the server's reason).
    package static func webSocket(
        to address: LoopbackAddress, path: String, headers: [(String, String)] = [],
        limits: WebSocket.Limits = WebSocket.Limits(), timeoutMilliseconds: Int = 10_000
    ) throws(Failure) -> WebSocket {
        let socket: TCPSocket
        do {
            socket = try TCPSocket.connect(to: address, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw Failure("cannot reach \(address): \(error.message)")
        }
        var nonce: [UInt8] = []
        for _ in 0..<4 { nonce += WebSocket.randomMask() }
        let key = Base64.encode(nonce)
        var head =
            "GET \(path) HTTP/1.1\r\nHost: \(address)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (n, v) in headers { head += "\(n): \(v)\r\n" }
        head += "\r\n"
        do {
            try socket.write(Array(head.utf8))
        } catch {
            socket.close()
            throw Failure("sending to \(address): \(error.message)")
        }
        let stream = ByteStream(socket)
        let status: Int
        let h: HTTPHeaders
        do {
            (status, h) = try readHead(stream, from: address)
        } catch {
            socket.close()
            throw error
        }
        guard status == 101 else {
            let length = (try? HTTPParser.contentLength(h)) ?? 0
            let text = (try? stream.read(exactly: min(length, 4_096))).map { String(decoding: $0, as: UTF8.self) }
            socket.close()
            let reason = text?.trimmingCharacters(in: "\n") ?? ""
            throw Failure(reason.isEmpty ? "\(address) refused the connection (\(status))" : reason, status: status)
        }
        guard h.contains("Upgrade", token: "websocket"), h.contains("Connection", token: "upgrade"),
            h["Sec-WebSocket-Accept"] == WebSocketHandshake.accept(key: key)
        else {
            socket.close()
            throw Failure("\(address) answered 101 without a valid WebSocket handshake")
        }
        return WebSocket(socket: socket, stream: stream, isServer: false, limits: limits)
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
