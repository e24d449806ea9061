import OpenNFCTestSupport
import Testing

@testable import OpenNFCHTTP

/// The strict HTTP/1.1 parser (RFC 9112), with examples from the RFC and the malformed forms it must refuse.
@Suite struct HTTPParserTests {
    func head(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// RFC 9112 §3.2.1, the origin-form example.
    @Test func originFormExampleOfRFC9112() throws {
        let r = try HTTPParser.requestHead(head("GET /where?q=now HTTP/1.1\r\nHost: www.example.org\r\n\r\n"))
        #expect(r.method == "GET")
        #expect(r.path == "/where")
        #expect(r.parameter("q") == "now")
        #expect(r.version == "HTTP/1.1")
        #expect(r.headers["host"] == "www.example.org")
        #expect(r.keepsAlive)
    }

    @Test func percentDecodingAndFormSpaces() throws {
        let r = try HTTPParser.requestHead(head("GET /a%20b?name=x+y%2Fz&empty= HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(r.path == "/a b")
        #expect(r.parameter("name") == "x y/z")
        #expect(r.parameter("empty") == "")
        #expect(throws: HTTPError.self) { try HTTPParser.requestHead(head("GET /%zz HTTP/1.1\r\nHost: h\r\n\r\n")) }
    }

    /// RFC 9112 §5.1 (no whitespace before the colon), §5.2 (obs-fold), §3.2 (exactly one Host), §2.2 (bare CR/LF).
    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400, "field name"),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n  b\r\n\r\n", 400, "folding"),
        ("GET / HTTP/1.1\r\n\r\n", 400, "no Host"),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "2 Host"),
        ("GET / HTTP/1.1\nHost: h\r\n\r\n", 400, "bare LF"),
        ("GET / HTTP/1.1\r\nHost: h\rX\r\n\r\n", 400, "bare CR"),
        ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400, "single spaces"),
        ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505, "not supported"),
        ("GET / HTTX/1.1\r\nHost: h\r\n\r\n", 400, "not an HTTP version"),
        ("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", 400, "token"),
        ("GET http://x/ HTTP/1.1\r\nHost: h\r\n\r\n", 400, "origin form"),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{01}b\r\n\r\n", 400, "control character"),
        ("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", 400, "no colon"),
    ])
    func malformedHeadsAreRefusedWithAReason(text: String, status: Int, reason: String) {
        do {
            _ = try HTTPParser.requestHead(head(text))
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.status == status)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func limitsOnTargetAndFieldCount() {
        let long = "GET /" + String(repeating: "a", count: 100) + " HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(throws: HTTPError(414, "the request target has 101 bytes; at most 50 are accepted")) {
            try HTTPParser.requestHead(head(long), maxTarget: 50)
        }
        let many = "GET / HTTP/1.1\r\nHost: h\r\n" + (0..<5).map { "X\($0): v\r\n" }.joined() + "\r\n"
        #expect(throws: HTTPError(431, "6 header fields; at most 3 are accepted")) {
            try HTTPParser.requestHead(head(many), maxFields: 3)
        }
    }

    /// RFC 9112 §6.1–§6.3: one Content-Length, digits only; Transfer-Encoding refused here.
    @Test func contentLengthRules() throws {
        #expect(try HTTPParser.contentLength(HTTPHeaders([("Content-Length", "12")])) == 12)
        #expect(try HTTPParser.contentLength(HTTPHeaders([("Content-Length", "5"), ("Content-Length", "5")])) == 5)
        #expect(try HTTPParser.contentLength(HTTPHeaders()) == 0)
        #expect(throws: HTTPError.self) {
            try HTTPParser.contentLength(HTTPHeaders([("Content-Length", "5"), ("Content-Length", "6")]))
        }
        #expect(throws: HTTPError.self) { try HTTPParser.contentLength(HTTPHeaders([("Content-Length", "-1")])) }
        #expect(throws: HTTPError.self) { try HTTPParser.contentLength(HTTPHeaders([("Content-Length", "0x10")])) }
        #expect(throws: HTTPError(501, "Transfer-Encoding is not supported; send the body with Content-Length")) {
            try HTTPParser.contentLength(HTTPHeaders([("Transfer-Encoding", "chunked")]))
        }
        #expect(throws: HTTPError(400, "both Transfer-Encoding and Content-Length are present")) {
            try HTTPParser.contentLength(HTTPHeaders([("Transfer-Encoding", "chunked"), ("Content-Length", "3")]))
        }
    }

    @Test func connectionPersistence() throws {
        #expect(try !HTTPParser.requestHead(head("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")).keepsAlive)
        #expect(try !HTTPParser.requestHead(head("GET / HTTP/1.0\r\n\r\n")).keepsAlive)
        #expect(try HTTPParser.requestHead(head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")).keepsAlive)
    }

    @Test func responseSerializationAndParsing() throws {
        let r = HTTPResponse(status: 200, contentType: "text/plain", body: Array("hi".utf8))
        let wire = String(decoding: r.serialized(closing: true), as: UTF8.self)
        #expect(
            wire == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
        let parsed = try HTTPParser.responseHead(Array(wire.utf8.prefix(wire.utf8.count - 2)))
        #expect(parsed.status == 200)
        #expect(parsed.headers["content-length"] == "2")
        #expect(!String(decoding: HTTPResponse(status: 204).serialized(), as: UTF8.self).contains("Content-Length"))
    }

    /// Heads split across reads at every byte still parse; preceding empty lines are skipped (RFC 9112 §2.2).
    @Test func streamReassemblesHeadsAndBodies() throws {
        let text = "\r\nPOST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabcGET"
        let stream = ByteStream(MemorySource(Array(text.utf8), chunk: 1))
        let r = try HTTPServer.readRequest(stream, limits: HTTPServer.Limits())
        #expect(r.method == "POST")
        #expect(r.body == Array("abc".utf8))
        #expect(try stream.readAvailable() == Array("G".utf8))
    }

    /// Persistent connections: a second request whose head arrives after the buffer of the first was used up.
    @Test func consecutiveRequestsOnOneStream() throws {
        final class TwoReads: ByteSource {
            var chunks = [
                Array("GET /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8), Array("GET /b HTTP/1.1\r\nHo".utf8),
                Array("st: h\r\n\r\n".utf8),
            ]
            func read(max: Int) throws(SocketError) -> [UInt8] { chunks.isEmpty ? [] : chunks.removeFirst() }
        }
        let stream = ByteStream(TwoReads())
        #expect(try HTTPServer.readRequest(stream, limits: HTTPServer.Limits()).path == "/a")
        #expect(try HTTPServer.readRequest(stream, limits: HTTPServer.Limits()).path == "/b")
    }

    @Test func oversizedHeadsAndBodiesAreRefused() {
        var limits = HTTPServer.Limits()
        limits.maxHeadBytes = 64
        limits.maxBodyBytes = 2
        let big = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "v", count: 100) + "\r\n\r\n"
        #expect(throws: HTTPServer.HTTPServerReadError.self) {
            try HTTPServer.readRequest(ByteStream(MemorySource(Array(big.utf8))), limits: limits)
        }
        let body = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
        do {
            _ = try HTTPServer.readRequest(ByteStream(MemorySource(Array(body.utf8))), limits: limits)
            Issue.record("accepted a body over the limit")
        } catch {
            guard case .refused(let e) = error else { return #expect(Bool(false)) }
            #expect(e.status == 413)
        }
    }

    /// A deterministic fuzz run: mutated requests never crash or hang the parser; each is parsed or refused.
    @Test func fuzzedRequestHeadsAreParsedOrRefused() {
        var rng = SeededGenerator(seed: 0x0F1E_1D00)
        let seeds = [
            "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:7017\r\n\r\n",
            "POST /api/put?tag=a.json&position=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbody",
            "GET /app HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        ]
        var parsed = 0
        var refused = 0
        for i in 0..<3_000 {
            var bytes = Array(seeds[i % seeds.count].utf8)
            for _ in 0..<(1 + Int(rng.next() % 6)) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
                }
            }
            var limits = HTTPServer.Limits()
            limits.maxHeadBytes = 512
            do {
                let r = try HTTPServer.readRequest(ByteStream(MemorySource(bytes, chunk: 7)), limits: limits)
                #expect(!r.method.isEmpty)
                parsed += 1
            } catch {
                refused += 1
            }
        }
        #expect(parsed + refused == 3_000)
        #expect(parsed > 0 && refused > 0)
    }
}
