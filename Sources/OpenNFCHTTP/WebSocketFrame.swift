/// One WebSocket frame (RFC 6455 §5.2), payload unmasked.
package struct WebSocketFrame: Sendable, Hashable {
    /// RFC 6455 §5.2 opcodes; §11.8 reserves the others.
    package enum Opcode: UInt8, Sendable, Hashable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong (RFC 6455 §5.5).
        package var isControl: Bool { rawValue & 0x8 != 0 }
    }

    package var fin: Bool
    package var opcode: Opcode
    package var payload: [UInt8]

    package init(fin: Bool = true, opcode: Opcode, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// The frame on the wire; `mask` (4 bytes) for frames a client sends (RFC 6455 §5.3), nil for a server's.
    /// The length uses the fewest bytes (§5.2: 7 bits, 16 bits after 126, 64 bits after 127).
    package func encoded(mask: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        let m: UInt8 = mask == nil ? 0 : 0x80
        let n = payload.count
        if n < 126 {
            out.append(m | UInt8(n))
        } else if n <= 0xFFFF {
            out += [m | 126, UInt8(n >> 8), UInt8(n & 0xFF)]
        } else {
            out.append(m | 127)
            for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: UInt64(n) >> (UInt64(i) * 8))) }
        }
        if let mask {
            out += mask
            out += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        } else {
            out += payload
        }
        return out
    }
}

/// Why a connection is being closed (RFC 6455 §7.4.1 status codes) and the reason sent with it.
package struct WebSocketClose: Error, Sendable, Hashable, CustomStringConvertible {
    package var code: UInt16
    package var reason: String

    package init(_ code: UInt16, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    package static let normal: UInt16 = 1000
    package static let goingAway: UInt16 = 1001
    package static let protocolError: UInt16 = 1002
    package static let unsupportedData: UInt16 = 1003
    package static let invalidPayload: UInt16 = 1007
    package static let policyViolation: UInt16 = 1008
    package static let messageTooBig: UInt16 = 1009
    package static let internalError: UInt16 = 1011

    /// The close frame's payload: the code big-endian, then the reason in UTF-8 cut to fit 125 bytes (§5.5).
    package var payload: [UInt8] {
        var reasonBytes = Array(reason.utf8)
        while reasonBytes.count > 123 || String(validating: reasonBytes, as: UTF8.self) == nil {
            reasonBytes.removeLast()
        }
        return [UInt8(code >> 8), UInt8(code & 0xFF)] + reasonBytes
    }

    /// Parses a received close payload (§5.5.1, §7.4): empty (no code: 1005 locally), or a valid code and UTF-8.
    package static func parse(_ p: [UInt8]) -> Result<WebSocketClose, WebSocketClose> {
        if p.isEmpty { return .success(WebSocketClose(1005, "")) }
        guard p.count >= 2 else { return .failure(WebSocketClose(protocolError, "a close payload of 1 byte")) }
        let code = UInt16(p[0]) << 8 | UInt16(p[1])
        let valid = (1000...1003).contains(code) || (1007...1011).contains(code) || (3000...4999).contains(code)
        guard valid else { return .failure(WebSocketClose(protocolError, "close code \(code) may not be sent")) }
        guard let reason = String(validating: p[2...], as: UTF8.self) else {
            return .failure(WebSocketClose(invalidPayload, "the close reason is not UTF-8"))
        }
        return .success(WebSocketClose(code, reason))
    }

    package var description: String { reason.isEmpty ? "close \(code)" : "close \(code): \(reason)" }
}

/// Reads frames from a stream, strictly (RFC 6455 §5.2–§5.5): no extensions (RSV bits must be 0), known opcodes,
/// control frames unfragmented and at most 125 bytes, minimal length encoding, masking as the role requires, and
/// at most `maxFrame` payload bytes.
package enum WebSocketFrameReader {
    /// `expectMasked`: true on the server (every client frame is masked, §5.1), false on the client.
    package static func read(
        from stream: ByteStream, expectMasked: Bool, maxFrame: Int, started: (() -> Void)? = nil
    ) throws(WebSocketReadError) -> WebSocketFrame {
        let h = try bytes(stream, 2, atStart: true)
        started?()
        let fin = h[0] & 0x80 != 0
        guard h[0] & 0x70 == 0 else {
            throw .protocolViolation(WebSocketClose(WebSocketClose.protocolError, "RSV bits set without an extension"))
        }
        guard let opcode = WebSocketFrame.Opcode(rawValue: h[0] & 0x0F) else {
            throw .protocolViolation(
                WebSocketClose(WebSocketClose.protocolError, "reserved opcode \(h[0] & 0x0F)"))
        }
        let masked = h[1] & 0x80 != 0
        guard masked == expectMasked else {
            throw .protocolViolation(
                WebSocketClose(
                    WebSocketClose.protocolError,
                    expectMasked ? "a client frame must be masked" : "a server frame must not be masked"))
        }
        var length = UInt64(h[1] & 0x7F)
        if length == 126 {
            let e = try bytes(stream, 2)
            length = UInt64(e[0]) << 8 | UInt64(e[1])
            guard length >= 126 else {
                throw .protocolViolation(WebSocketClose(WebSocketClose.protocolError, "non-minimal 16-bit length"))
            }
        } else if length == 127 {
            let e = try bytes(stream, 8)
            length = e.reduce(0) { $0 << 8 | UInt64($1) }
            guard length >> 63 == 0 else {
                throw .protocolViolation(WebSocketClose(WebSocketClose.protocolError, "64-bit length with MSB set"))
            }
            guard length > 0xFFFF else {
                throw .protocolViolation(WebSocketClose(WebSocketClose.protocolError, "non-minimal 64-bit length"))
            }
        }
        if opcode.isControl {
            guard fin else {
                throw .protocolViolation(WebSocketClose(WebSocketClose.protocolError, "fragmented control frame"))
            }
            guard length <= 125 else {
                throw .protocolViolation(
                    WebSocketClose(WebSocketClose.protocolError, "control frame of \(length) bytes (at most 125)"))
            }
        }
        guard length <= UInt64(maxFrame) else {
            throw .protocolViolation(
                WebSocketClose(
                    WebSocketClose.messageTooBig, "frame of \(length) bytes; at most \(maxFrame) are accepted"))
        }
        let mask = masked ? try bytes(stream, 4) : []
        var payload = try bytes(stream, Int(length))
        if masked { for i in payload.indices { payload[i] ^= mask[i & 3] } }
        return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
    }

    private static func bytes(_ s: ByteStream, _ n: Int, atStart: Bool = false) throws(WebSocketReadError) -> [UInt8] {
        do {
            return try s.read(exactly: n)
        } catch {
            switch error {
            case .ended(let got):
                if atStart && got == 0 { throw .ended }
                throw .protocolViolation(
                    WebSocketClose(WebSocketClose.protocolError, "the connection ended inside a frame"))
            case .tooLong: throw .ended
            case .source(let e):
                if e.kind == .timeout {
                    throw atStart
                        ? .idle
                        : .protocolViolation(
                            WebSocketClose(WebSocketClose.protocolError, "a frame was not completed in time"))
                }
                throw .ended
            }
        }
    }
}

/// Why no frame was read.
package enum WebSocketReadError: Error, Equatable {
    /// The stream ended (or failed) between frames.
    case ended
    /// Nothing arrived within the idle timeout.
    case idle
    /// The peer broke RFC 6455: close the connection with this code and reason.
    case protocolViolation(WebSocketClose)
}
