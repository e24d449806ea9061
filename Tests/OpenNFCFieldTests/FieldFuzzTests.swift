import OpenNFCBytes
import OpenNFCHTTP
import OpenNFCRF
import OpenNFCRemote
import OpenNFCTestSupport
import Testing

/// Deterministic fuzz runs of the field's parsers: app protocol messages, transcript files and WebSocket frames.
/// Every mutated input is parsed or refused with a reason; none crashes or hangs.
@Suite struct FieldFuzzTests {
    static func mutate(_ seed: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<(1 + Int(rng.next() % 5)) where !bytes.isEmpty {
            let at = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 4 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(Array("{}[]\",:0".utf8)[Int(rng.next() % 8)], at: at)
            default: bytes[at] = Array("0123456789ABCDEF".utf8)[Int(rng.next() % 16)]
            }
        }
        return bytes
    }

    @Test func appMessages() {
        let seeds = [
            FieldProtocol.Request.hello(version: 1, app: "kiosk", pid: 42).json.compact,
            FieldProtocol.Request.poll(id: 2, .init([.nfcA, .nfcF, .nfcV])).json.compact,
            FieldProtocol.Request.exchange(id: 3, [0x30, 0x04]).json.compact,
            FieldProtocol.Request.activate(id: 4, handle: 1, isoDEP: true).json.compact,
            FieldProtocol.Request.sheet(.init(presented: true, message: "Hold it near")).json.compact,
            FieldProtocol.Reply.result(id: 3, .response(.frame([1, 2, 3]))).json.compact,
            FieldProtocol.Reply.welcome(
                version: 1,
                capabilities: .init(maxCommandSize: 261, maxResponseSize: 258, rawFrames: true, technologies: [.nfcA])
            ).json.compact,
        ]
        var rng = SeededGenerator(seed: 17)
        var refused = 0
        for i in 0..<4_000 {
            let text = String(decoding: Self.mutate(Array(seeds[i % seeds.count].utf8), &rng), as: UTF8.self)
            do {
                _ = try FieldProtocol.Request(text)
            } catch {
                refused += 1
                #expect(!error.description.isEmpty)
            }
            _ = try? FieldProtocol.Reply(text)
        }
        #expect(refused > 1_000)
        #expect(refused < 4_000)
    }

    @Test func transcripts() throws {
        var t = RFTranscript(device: "sim:x", capabilities: .simulatedLike)
        t.events = [
            .init(time: 0, duration: 5, operation: .poll(.init([.nfcA]), [], repeats: 3)),
            .init(time: 5, duration: 9, operation: .exchange([0x60], .success(.frame([0, 4, 4, 2, 1, 0, 0x11, 3])))),
            .init(time: 14, duration: 1, operation: .deactivate),
        ]
        let seed = Array(t.text.utf8)
        #expect(try RFTranscript(parsing: t.text, file: "t") == t)
        var rng = SeededGenerator(seed: 99)
        var refused = 0
        for _ in 0..<2_000 {
            do {
                _ = try RFTranscript(parsing: String(decoding: Self.mutate(seed, &rng), as: UTF8.self), file: "t")
            } catch {
                refused += 1
                #expect(error.description.hasPrefix("t"))
            }
        }
        #expect(refused > 500)
    }

    @Test func webSocketFrames() {
        let seeds = [
            WebSocketFrame(opcode: .text, payload: Array("{\"type\":\"poll\"}".utf8)).encoded(mask: [1, 2, 3, 4]),
            WebSocketFrame(opcode: .close, payload: WebSocketClose(1000, "bye").payload).encoded(mask: [9, 9, 9, 9]),
            WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 7, count: 300)).encoded(mask: [
                0, 1, 0, 1,
            ]),
        ]
        var rng = SeededGenerator(seed: 5)
        for i in 0..<3_000 {
            let bytes = Self.mutate(seeds[i % seeds.count], &rng)
            let stream = ByteStream(MemorySource(bytes, chunk: 3))
            do {
                let f = try WebSocketFrameReader.read(from: stream, expectMasked: true, maxFrame: 1_024)
                #expect(f.payload.count <= 1_024)
            } catch {
                if case .protocolViolation(let c) = error { #expect([1002, 1009].contains(c.code)) }
            }
        }
    }
}

extension RFCapabilities {
    fileprivate static let simulatedLike = RFCapabilities(
        maxCommandSize: 261, maxResponseSize: 258, rawFrames: true, technologies: [.nfcA, .nfcB])
}
