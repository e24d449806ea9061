internal import OpenNFCBytes
internal import OpenNFCHTTP
internal import OpenNFCRF
internal import OpenNFCRemote

/// The field server's wire (`opennfc field serve`, docs/FIELD.md): HTTP/1.1 requests as the server reads them
/// (RFC 9112), response heads as the client reads them, WebSocket frames (RFC 6455 §5) in both roles, close payloads
/// (§5.5.1), the opening handshake (§4.2.1) and the app↔field protocol's messages both ways (`FieldProtocol`).
/// The first byte chooses; the second, for the streams, how many bytes the source hands out at a time.
///
/// Invariants: a request is read within the limits (target, header count, body = its Content-Length) or refused
/// with a status the server sends and a reason, the same whatever the chunking; a request re-serialized parses
/// equal; a response head re-serialized parses to the same status and fields; a handshake accepted yields a
/// 16-byte key and a 101 response whose accept value is the key's; every decoded WebSocket frame re-encodes
/// (with the mask it came with) to exactly the bytes it was read from, within the frame limit, control frames at
/// most 125 bytes and unfragmented; a refused frame closes with 1002 or 1009 and a reason; a close payload that
/// parses re-encodes to one that parses equal; a field message that decodes re-encodes to one that decodes equal,
/// within the protocol's sizes; a refused message says what is wrong.
enum FieldFuzz {
    static let target = FuzzTarget(
        "field", "field server HTTP/1.1, WebSocket frames and field protocol messages (re-encode equal; bounded)",
        seeds: seeds, run: run)

    static let limits: HTTPServer.Limits = {
        var l = HTTPServer.Limits()
        l.maxHeadBytes = 2_048
        l.maxTargetBytes = 512
        l.maxHeaderFields = 16
        l.maxBodyBytes = 1_024
        return l
    }()
    static let maxFrame = 1_024
    static let statuses: Set<Int> = [400, 408, 413, 414, 431, 501, 505]

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let choice = input.byte() % 7
        let chunk = Int(input.byte() % 32) + 1
        let rest = input.rest()
        switch choice {
        case 0: requests(rest, chunk: chunk)
        case 1: responseHead(rest)
        case 2, 3: frames(rest, chunk: chunk, server: choice == 2)
        case 4, 5: message(rest, request: choice == 4)
        default: closePayload(Array(rest.prefix(125)))
        }
    }

    // MARK: HTTP

    /// Every request on one connection, as the server's read loop sees them, in `chunk`-byte reads.
    static func read(_ bytes: [UInt8], chunk: Int) -> [String] {
        let stream = ByteStream(MemorySource(bytes, chunk: chunk))
        var outcomes: [String] = []
        for _ in 0..<8 {
            do {
                let r = try HTTPServer.readRequest(stream, limits: limits)
                check(r)
                outcomes.append("request \(serialize(r))")
            } catch {
                switch error {
                case .closed:
                    outcomes.append("closed")
                case .refused(let e):
                    fuzzRequire(statuses.contains(e.status), "refused with status \(e.status)")
                    fuzzRequire(!e.reason.isEmpty, "refused without a reason")
                    fuzzRequire(HTTPResponse.reasonPhrase(e.status) != "Status", "status \(e.status) has no phrase")
                    outcomes.append("refused \(e)")
                }
                return outcomes
            }
        }
        return outcomes
    }

    static func requests(_ bytes: [UInt8], chunk: Int) {
        let whole = read(bytes, chunk: .max)
        fuzzRequire(read(bytes, chunk: chunk) == whole, "the requests read depend on the chunking (\(chunk))")
    }

    static func check(_ r: HTTPRequest) {
        fuzzRequire(r.target.utf8.count <= limits.maxTargetBytes, "a target of \(r.target.utf8.count) bytes")
        fuzzRequire(r.headers.fields.count <= limits.maxHeaderFields, "\(r.headers.fields.count) header fields")
        fuzzRequire(r.body.count <= limits.maxBodyBytes, "a body of \(r.body.count) bytes")
        fuzzRequire(r.body.count == (try? HTTPParser.contentLength(r.headers)), "a body other than Content-Length")
        let wire = Array(serialize(r).utf8) + r.body
        do {
            let back = try HTTPServer.readRequest(ByteStream(MemorySource(wire)), limits: limits)
            fuzzRequire(back == r, "a request re-serialized parses differently")
        } catch {
            fuzzRequire(false, "a request re-serialized is refused: \(error)")
        }
        do {
            let key = try WebSocketHandshake.validate(r)
            fuzzRequire(OpenNFCHTTP.Base64.decode(key)?.count == 16, "a handshake key that is not 16 bytes")
            let response = WebSocketHandshake.response(key: key).serialized()
            let head = try HTTPParser.responseHead(Array(response.dropLast(2)))
            fuzzRequire(head.status == 101, "handshake status \(head.status)")
            fuzzRequire(
                head.headers["Sec-WebSocket-Accept"] == WebSocketHandshake.accept(key: key),
                "the accept value is not the key's")
        } catch {
            fuzzRequire([400, 405, 426].contains(error.status) && !error.reason.isEmpty, "handshake refusal \(error)")
        }
    }

    /// The request's head on the wire (the parser's inverse: request line, fields as received, empty line). No space
    /// after the colon (OWS is optional, RFC 9112 §5): the head is then never longer than the one received, which
    /// the server's head-size limit (431) accepted.
    static func serialize(_ r: HTTPRequest) -> String {
        var s = "\(r.method) \(r.target) \(r.version)\r\n"
        for f in r.headers.fields { s += "\(f.name):\(f.value)\r\n" }
        return s + "\r\n"
    }

    static func responseHead(_ bytes: [UInt8]) {
        let head: (status: Int, headers: HTTPHeaders)
        do {
            head = try HTTPParser.responseHead(bytes)
        } catch {
            fuzzRequire(error.status == 400 && !error.reason.isEmpty, "response head refusal \(error)")
            return
        }
        let body: [UInt8] = Array("body".utf8)
        let wire = HTTPResponse(status: head.status, headers: head.headers, body: body).serialized()
        guard let end = (0..<max(0, wire.count - 3)).first(where: { Array(wire[$0..<$0 + 4]) == [13, 10, 13, 10] })
        else {
            fuzzRequire(false, "a serialized response without the end of its head")
            return
        }
        do {
            let back = try HTTPParser.responseHead(Array(wire[..<(end + 2)]))
            fuzzRequire(back.status == head.status, "status \(head.status) comes back as \(back.status)")
            let kept = head.headers.fields.filter { $0.name.lowercased() != "content-length" }
            let again = back.headers.fields.filter { $0.name.lowercased() != "content-length" }
            fuzzRequire(
                kept.count == again.count && zip(kept, again).allSatisfy { $0.name == $1.name && $0.value == $1.value },
                "response fields change when re-serialized")
        } catch {
            fuzzRequire(false, "a response head re-serialized is refused: \(error)")
        }
    }

    // MARK: WebSocket

    /// Counts the bytes handed to the stream, so that each frame's own bytes are known.
    final class CountingSource: ByteSource {
        let bytes: [UInt8]
        let chunk: Int
        var offset = 0
        init(_ bytes: [UInt8], chunk: Int) {
            self.bytes = bytes
            self.chunk = chunk
        }
        func read(max: Int) throws(SocketError) -> [UInt8] {
            let n = Swift.min(max, chunk, bytes.count - offset)
            defer { offset += n }
            return Array(bytes[offset..<offset + n])
        }
    }

    static func frames(_ bytes: [UInt8], chunk: Int, server: Bool) {
        let source = CountingSource(bytes, chunk: chunk)
        let stream = ByteStream(source)
        var start = 0
        for _ in 0..<64 {
            let frame: WebSocketFrame
            do {
                frame = try WebSocketFrameReader.read(from: stream, expectMasked: server, maxFrame: maxFrame)
            } catch {
                if case .protocolViolation(let c) = error {
                    fuzzRequire(
                        c.code == WebSocketClose.protocolError || c.code == WebSocketClose.messageTooBig,
                        "a frame refused with close code \(c.code)")
                    fuzzRequire(!c.reason.isEmpty && c.payload.count <= 125, "a close reason: \(c.reason)")
                    fuzzRequire(WebSocketClose.parse(c.payload) == .success(c), "the close we send does not parse")
                } else {
                    fuzzRequire(error == .ended, "\(error) from bytes in memory")
                }
                return
            }
            let end = source.offset - stream.buffered
            let own = Array(bytes[start..<end])
            fuzzRequire(frame.payload.count <= maxFrame, "a frame of \(frame.payload.count) bytes")
            if frame.opcode.isControl {
                fuzzRequire(frame.fin && frame.payload.count <= 125, "a control frame fragmented or too long")
            }
            // The mask sits just before the payload (RFC 6455 §5.2).
            let mask =
                server ? Array(own[(own.count - frame.payload.count - 4)..<(own.count - frame.payload.count)]) : nil
            fuzzRequire(frame.encoded(mask: mask) == own, "a frame re-encodes to other bytes")
            if frame.opcode == .close, case .success(let c) = WebSocketClose.parse(frame.payload), c.code != 1005 {
                fuzzRequire(WebSocketClose.parse(c.payload) == .success(c), "a close payload re-encodes differently")
            }
            start = end
        }
    }

    static func closePayload(_ p: [UInt8]) {
        switch WebSocketClose.parse(p) {
        case .success(let c):
            if p.isEmpty {
                fuzzRequire(c.code == 1005, "an empty close payload gives \(c.code)")
            } else {
                fuzzRequire(c.payload == p, "a close payload re-encodes to other bytes")
            }
        case .failure(let c):
            fuzzRequire(
                [WebSocketClose.protocolError, WebSocketClose.invalidPayload].contains(c.code) && !c.reason.isEmpty,
                "a close payload refused with \(c)")
        }
    }

    // MARK: Field protocol

    static func message(_ bytes: [UInt8], request: Bool) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        do {
            if request {
                let m = try FieldProtocol.Request(text)
                bounded(m)
                let again = m.json.compact
                fuzzRequire((try? FieldProtocol.Request(again)) == m, "a request re-encodes differently: \(again)")
            } else {
                let m = try FieldProtocol.Reply(text)
                let again = m.json.compact
                fuzzRequire((try? FieldProtocol.Reply(again)) == m, "a reply re-encodes differently: \(again)")
                if case .result(_, .targets(let t)) = m { fuzzRequire(t.count <= 64, "\(t.count) targets") }
                if case .result(_, .response(.frame(let f))) = m {
                    fuzzRequire(f.count <= FieldProtocol.maxFrameBytes, "an answer of \(f.count) bytes")
                }
            }
        } catch {
            fuzzRequire(!error.reason.isEmpty, "a field message refused without a reason")
        }
    }

    static func bounded(_ m: FieldProtocol.Request) {
        switch m {
        case .hello(_, let app, _): fuzzRequire(app.count <= FieldProtocol.maxTextLength, "an app name too long")
        case .exchange(_, let f): fuzzRequire(f.count <= FieldProtocol.maxFrameBytes, "a frame of \(f.count) bytes")
        case .sheet(let s):
            fuzzRequire(
                s.title.count <= FieldProtocol.maxTextLength && s.message.count <= FieldProtocol.maxTextLength,
                "a sheet text too long")
        default: break
        }
    }

    // MARK: Seeds

    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        let key = OpenNFCHTTP.Base64.encode(Array(0..<16))
        let get =
            "GET /app?name=a%20b&x=1+2 HTTP/1.1\r\nHost: 127.0.0.1:7071\r\nUpgrade: websocket\r\n"
            + "Connection: keep-alive, Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let post = "POST /api/place HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n{\"tag\":\"a\"}"
        out.append([0, 7] + Array((get + post + "\r\nGET / HTTP/1.0\r\n\r\n").utf8))
        out.append([0, 1] + Array("PUT /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        let response = HTTPResponse.text(404, "no such tag").serialized()
        out.append([1, 0] + Array(response.prefix(while: { $0 != 0x7B }).dropLast(2)))
        out.append([1, 0] + WebSocketHandshake.response(key: key).serialized().dropLast(2))
        // Frames a client sends (masked) and a server sends, with every length form and the control frames.
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        let client: [WebSocketFrame] = [
            WebSocketFrame(opcode: .text, payload: Array(#"{"type":"hello","version":1}"#.utf8)),
            WebSocketFrame(fin: false, opcode: .binary, payload: Array(repeating: 0xA5, count: 200)),
            WebSocketFrame(opcode: .continuation, payload: [1, 2, 3]),
            WebSocketFrame(opcode: .ping, payload: [9]),
            WebSocketFrame(opcode: .close, payload: WebSocketClose(1000, "bye").payload),
        ]
        out.append([2, 5] + client.flatMap { $0.encoded(mask: mask) })
        out.append([3, 32] + client.flatMap { $0.encoded() })
        out.append([3, 3] + WebSocketFrame(opcode: .binary, payload: Array(repeating: 7, count: 70_000)).encoded())
        for m in requests() { out.append([4, 0] + Array(m.json.compact.utf8)) }
        for m in replies() { out.append([5, 0] + Array(m.json.compact.utf8)) }
        out.append([6, 0] + WebSocketClose(4000, "détail").payload)
        return out
    }

    static let nfcA = RFTarget(
        .nfcA(NFCAActivation(uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], sensRes: 0x0044, selRes: 0x00)),
        handle: 1)
    static let nfcF = RFTarget(
        .nfcF(
            NFCFActivation(
                idm: [1, 0x2E, 3, 4, 5, 6, 7, 8], pmm: [0, 0xF0, 0, 0, 0, 0, 0, 0], systemCode: 0x12FC,
                requestData: nil, bitRate: 212)),
        handle: 2)

    static func requests() -> [FieldProtocol.Request] {
        var poll = RFPollRequest()
        poll.nfcA = .init(wakeUp: true)
        poll.nfcF = .init(systemCode: 0xFFFF, requestCode: 1, timeSlots: 3, bitRate: 212)
        poll.nfcV = .init(afi: nil, slots: 16)
        return [
            .hello(version: 1, app: "Reader (pid 42)", pid: 42), .poll(id: 1, poll),
            .authenticate(id: 2, .mifareClassic(block: 4, keyType: .a, key: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])),
            .activate(id: 3, handle: 1, isoDEP: true), .exchange(id: 4, [0x30, 0x04]), .deactivate(id: 5),
            .sheet(FieldProtocol.Sheet(presented: true, title: "Ready to Scan", message: "Hold near", glyph: "error")),
        ]
    }

    static func replies() -> [FieldProtocol.Reply] {
        [
            .welcome(version: 1, capabilities: .simulatedIPhone), .event(.field), .event(.cancel),
            .result(id: 1, .targets([nfcA, nfcF])), .result(id: 3, .target(nfcA)),
            .result(id: 4, .response(.frame([0x03, 0x00, 0xFE, 0x00]))), .result(id: 6, .response(.nak(5))),
            .result(id: 7, .response(.ack)), .result(id: 5, .done),
            .result(id: 8, .failed(RFError(.timeout, "no answer in 5 ms"))),
        ]
    }
}
