import Foundation
import OpenNFCTestSupport
import Testing

@testable import OpenNFCHTTP

/// RFC 6455: the handshake and frame examples of §1.3 and §5.7, the strict reader, and a real loopback server.
@Suite struct WebSocketTests {
    /// FIPS 180-4 / RFC 3174 test vectors.
    @Test func sha1Vectors() {
        func hex(_ b: [UInt8]) -> String { OpenNFCTestSupport.hex(b, uppercase: false) }
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(
            hex(SHA1.digest([UInt8](repeating: 0x61, count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func base64IsStrict() {
        #expect(Base64.encode(Array("the sample nonce".utf8)) == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(Base64.decode("dGhlIHNhbXBsZSBub25jZQ==") == Array("the sample nonce".utf8))
        #expect(Base64.decode("dGhlIHNhbXBsZSBub25jZQ=") == nil)
        #expect(Base64.decode("dGhl*HNh") == nil)
        #expect(Base64.decode("dGg=dGg=") == nil)
    }

    /// RFC 6455 §1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" is accepted with "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
    @Test func handshakeAcceptOfRFC6455() {
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func read(_ bytes: [UInt8], masked: Bool, max: Int = 1 << 20) throws(WebSocketReadError) -> WebSocketFrame {
        try WebSocketFrameReader.read(
            from: ByteStream(MemorySource(bytes, chunk: 1)), expectMasked: masked, maxFrame: max)
    }

    /// RFC 6455 §5.7, every example.
    @Test func framesOfRFC6455Section5_7() throws {
        let hello = Array("Hello".utf8)
        let unmasked: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        let masked: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        #expect(WebSocketFrame(opcode: .text, payload: hello).encoded() == unmasked)
        #expect(WebSocketFrame(opcode: .text, payload: hello).encoded(mask: [0x37, 0xfa, 0x21, 0x3d]) == masked)
        #expect(try read(unmasked, masked: false) == WebSocketFrame(opcode: .text, payload: hello))
        #expect(try read(masked, masked: true) == WebSocketFrame(opcode: .text, payload: hello))
        // A fragmented unmasked text message: "Hel" then "lo".
        #expect(
            try read([0x01, 0x03, 0x48, 0x65, 0x6c], masked: false)
                == WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)))
        #expect(
            try read([0x80, 0x02, 0x6c, 0x6f], masked: false)
                == WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)))
        // Unmasked ping, masked pong.
        #expect(try read([0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], masked: false).opcode == .ping)
        let pong: [UInt8] = [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        #expect(try read(pong, masked: true) == WebSocketFrame(opcode: .pong, payload: hello))
        // 256 bytes and 64 KiB binary messages in single unmasked frames.
        let b256 = [UInt8](repeating: 7, count: 256)
        #expect(Array(WebSocketFrame(opcode: .binary, payload: b256).encoded().prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        let b64k = [UInt8](repeating: 9, count: 65_536)
        let e = WebSocketFrame(opcode: .binary, payload: b64k).encoded()
        #expect(Array(e.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        #expect(try read(e, masked: false).payload == b64k)
    }

    @Test(
        arguments: [
            ([0xC1, 0x00], "RSV"),
            ([0x83, 0x00], "reserved opcode 3"),
            ([0x81, 0x00], "must be masked"),
            ([0x09, 0x80, 1, 2, 3, 4], "fragmented control"),
            ([0x89, 0xFE, 0x00, 0x7E], "control frame of 126"),
            ([0x82, 0xFE, 0x00, 0x05], "non-minimal 16-bit"),
            ([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], "MSB"),
            ([0x82, 0xFF, 0, 0, 0, 0, 0, 0, 0x01, 0], "non-minimal 64-bit"),
            ([0x82, 0xFF, 0, 0, 0, 0, 0x10, 0, 0, 0], "at most 1024"),
            ([0x82, 0x85, 1, 2], "ended inside a frame"),
        ] as [([UInt8], String)])
    func malformedFramesCloseWithAReason(bytes: [UInt8], reason: String) {
        do {
            _ = try read(bytes, masked: true, max: 1024)
            Issue.record("accepted \(bytes)")
        } catch {
            guard case .protocolViolation(let c) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(c.reason.contains(reason), "\(c.reason)")
            #expect(c.code == (reason.contains("at most 1024") ? 1009 : 1002))
        }
    }

    @Test func closePayloads() {
        #expect(WebSocketClose.parse([0x03, 0xE8, 0x6F, 0x6B]) == .success(WebSocketClose(1000, "ok")))
        #expect(WebSocketClose.parse([]) == .success(WebSocketClose(1005, "")))
        #expect(WebSocketClose.parse([0x03]) == .failure(WebSocketClose(1002, "a close payload of 1 byte")))
        #expect(
            WebSocketClose.parse([0x03, 0xED]) == .failure(WebSocketClose(1002, "close code 1005 may not be sent")))
        #expect(
            WebSocketClose.parse([0x03, 0xE8, 0xFF]) == .failure(WebSocketClose(1007, "the close reason is not UTF-8")))
        #expect(WebSocketClose(1000, String(repeating: "é", count: 100)).payload.count <= 125)
    }

    // MARK: over loopback

    func echoServer(limits: WebSocket.Limits = WebSocket.Limits()) throws -> HTTPServer {
        let server = try HTTPServer(address: LoopbackAddress(host: "127.0.0.1", port: 0)) { request in
            if request.path == "/echo" {
                return .webSocket(limits) { ws in
                    while let m = try? ws.receive() {
                        switch m {
                        case .text(let t): try? ws.send(text: "echo " + t)
                        case .binary(let b): try? ws.send(binary: b.reversed())
                        }
                    }
                }
            }
            if request.path == "/hello" { return .response(.text(200, "hello \(request.parameter("name") ?? "")")) }
            return .response(.text(404, "no such path \(request.path)"))
        }
        server.start()
        return server
    }

    @Test func loopbackOnly() throws {
        #expect(throws: SocketError.self) { try LoopbackAddress(host: "0.0.0.0", port: 1) }
        #expect(throws: SocketError.self) { try LoopbackAddress(host: "192.168.1.2", port: 1) }
        #expect(throws: SocketError.self) { try LoopbackAddress(host: "example.com", port: 1) }
        #expect(try LoopbackAddress(host: "localhost", port: 5).description == "127.0.0.1:5")
        do {
            _ = try LoopbackAddress(host: "0.0.0.0", port: 1)
        } catch {
            #expect(error.message.contains("loopback only"))
        }
    }

    @Test func requestsAndMessagesOverLoopback() throws {
        let server = try echoServer()
        defer { server.stop() }
        let r = try HTTPClient.request("GET", "/hello?name=field", to: server.address)
        #expect(r.status == 200)
        #expect(String(decoding: r.body, as: UTF8.self) == "hello field\n")
        #expect(try HTTPClient.request("GET", "/nope", to: server.address).status == 404)

        let ws = try HTTPClient.webSocket(to: server.address, path: "/echo")
        try ws.send(text: "one")
        #expect(try ws.receive() == .text("echo one"))
        try ws.send(binary: [1, 2, 3])
        #expect(try ws.receive() == .binary([3, 2, 1]))
        // Fragmented, with a ping in between (RFC 6455 §5.4: control frames may be injected).
        try ws.send(WebSocketFrame(fin: false, opcode: .text, payload: Array("fr".utf8)))
        try ws.send(WebSocketFrame(opcode: .ping, payload: [9]))
        try ws.send(WebSocketFrame(opcode: .continuation, payload: Array("agment".utf8)))
        #expect(try ws.receive() == .text("echo fragment"))
        ws.close()
        #expect(try ws.receive() == nil)
    }

    /// A client that breaks the protocol gets a close frame saying why, and the connection ends.
    @Test func rawProtocolViolationsGetCloseReasons() throws {
        let server = try echoServer(limits: WebSocket.Limits(maxFrame: 64, maxMessage: 100))
        defer { server.stop() }
        func raw(_ frames: [UInt8]) throws -> (UInt16, String) {
            let s = try TCPSocket.connect(to: server.address)
            defer { s.close() }
            let key = "dGhlIHNhbXBsZSBub25jZQ=="
            try s.write(
                Array(
                    ("GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
            let stream = ByteStream(s)
            let head = String(decoding: try stream.readHead(limit: 4096), as: UTF8.self)
            #expect(head.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
            #expect(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
            try s.write(frames)
            let f = try WebSocketFrameReader.read(from: stream, expectMasked: false, maxFrame: 200)
            #expect(f.opcode == .close)
            let c = try WebSocketClose.parse(f.payload).get()
            return (c.code, c.reason)
        }
        #expect(try raw([0x81, 0x02, 0x68, 0x69]) == (1002, "a client frame must be masked"))
        let m: [UInt8] = [1, 2, 3, 4]
        #expect(try raw([0x81, 0x81] + m + [0xFF ^ 1]) == (1007, "a text message that is not UTF-8"))
        #expect(try raw([0x80, 0x81] + m + [0x41 ^ 1]) == (1002, "a continuation frame without a message"))
        let part = WebSocketFrame(fin: false, opcode: .text, payload: [UInt8](repeating: 0x41, count: 60))
        let more = WebSocketFrame(fin: false, opcode: .continuation, payload: [UInt8](repeating: 0x41, count: 60))
        #expect(try raw(part.encoded(mask: m) + more.encoded(mask: m)) == (1009, "message of more than 100 bytes"))
    }

    @Test func malformedHTTPGetsAStatusAndClose() throws {
        let server = try echoServer()
        defer { server.stop() }
        func send(_ text: String) throws -> String {
            let s = try TCPSocket.connect(to: server.address)
            defer { s.close() }
            try s.write(Array(text.utf8))
            var all: [UInt8] = []
            while true {
                let b = try s.read(max: 4096)
                if b.isEmpty { break }
                all += b
            }
            return String(decoding: all, as: UTF8.self)
        }
        let r = try send("GET / HTTP/1.1\r\nHost : x\r\n\r\n")
        #expect(r.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(r.contains("Connection: close"))
        #expect(r.contains("field name must be a token"))
        let upgrade = try send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(upgrade.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
        #expect(upgrade.contains("Sec-WebSocket-Version: 13"))
        let chunked = try send("POST /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(chunked.hasPrefix("HTTP/1.1 501 Not Implemented\r\n"))
    }

    /// A client that sends part of a head and stops gets 408 after the read timeout (short here), not a hang.
    @Test func slowClientsTimeOut() throws {
        var limits = HTTPServer.Limits()
        limits.readTimeoutMilliseconds = 200
        let server = try HTTPServer(address: LoopbackAddress(host: "127.0.0.1", port: 0), limits: limits) { _ in
            .response(.text(200, "ok"))
        }
        server.start()
        defer { server.stop() }
        let s = try TCPSocket.connect(to: server.address)
        defer { s.close() }
        try s.write(Array("GET / HTTP/1.1\r\nHo".utf8))
        let answer = String(decoding: try s.read(max: 4096), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
    }
}
