import OpenNFCRF
import Synchronization
import Testing

/// A frontend that answers from a fixed script, for testing the instrumentation itself.
final class EchoFrontend: RFFrontend {
    var capabilities: RFCapabilities {
        RFCapabilities(maxCommandSize: 64, maxResponseSize: 64, rawFrames: true, technologies: [.nfcA])
    }
    let target = RFTarget.nfcA(
        uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06], sensRes: 0x0044,
        selRes: 0x00)
    func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] { [target] }
    func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget { target }
    func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        switch command.first {
        case 0xA2: return .ack
        case 0x30: return .frame(Array(repeating: 0, count: 16))
        case 0x1B: return .nak(0)
        default: throw RFError(.timeout)
        }
    }
    func deactivate() {}
}

@Suite struct InstrumentedFrontendTests {
    @Test func countsFramesAndBytes() throws {
        let events = Mutex<[RFTraceEvent]>([])
        let f = InstrumentedFrontend(EchoFrontend()) { e in events.withLock { $0.append(e) } }
        let t = try f.activate(try f.poll([.nfcA])[0])
        #expect(t.sensRes == 0x0044)
        #expect(try f.exchange([0x30, 0x04]) == .frame(Array(repeating: 0, count: 16)))
        #expect(try f.exchange([0xA2, 0x04, 1, 2, 3, 4]) == .ack)
        #expect(try f.exchange([0x1B, 0, 0, 0, 0]) == .nak(0))
        #expect(throws: RFError(.timeout)) { try f.exchange([0x60]) }
        #expect(f.counts.framesSent == 4)
        #expect(f.counts.framesReceived == 3)
        #expect(f.counts.bytesSent == 2 + 6 + 5 + 1)
        #expect(f.counts.bytesReceived == 16 + 1 + 1)
        let log = events.withLock { $0 }
        #expect(log.count == 1 + 4 + 4)
        #expect(log.last == .failed(RFError(.timeout)))
    }

    @Test func isoDEPFromSAK() {
        #expect(RFTarget.nfcA(uid: [1], selRes: 0x20).isISODEP)
        #expect(!RFTarget.nfcA(uid: [1], selRes: 0x00).isISODEP)
    }
}

@Suite struct VirtualClockTests {
    @Test func timersFireInDueOrderAndTiesInSchedulingOrder() {
        let clock = VirtualClock()
        let fired = Mutex<[String]>([])
        clock.schedule(after: .seconds(60)) { fired.withLock { $0.append("60s") } }
        clock.schedule(after: .milliseconds(500)) { fired.withLock { $0.append("500ms-a") } }
        clock.schedule(after: .milliseconds(500)) { fired.withLock { $0.append("500ms-b") } }
        clock.advance(by: .seconds(1))
        #expect(fired.withLock { $0 } == ["500ms-a", "500ms-b"])
        #expect(clock.now == NFCInstant(nanoseconds: 1_000_000_000))
        #expect(clock.advanceToNextTimer())
        #expect(clock.now == NFCInstant(nanoseconds: 60_000_000_000))
        #expect(fired.withLock { $0 }.last == "60s")
        #expect(!clock.advanceToNextTimer())
    }

    @Test func cancelledTimerNeverFires() {
        let clock = VirtualClock()
        let fired = Mutex(false)
        let id = clock.schedule(after: .seconds(1)) { fired.withLock { $0 = true } }
        clock.cancel(id)
        clock.advance(by: .seconds(2))
        #expect(!fired.withLock { $0 })
    }
}
