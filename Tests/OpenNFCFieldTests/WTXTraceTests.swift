import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCRemote
import OpenNFCSimulation
import Testing

@testable import OpenNFCFieldServer

/// S(WTX) in `--trace`'s `on air` lines and in the field server's air lines (docs/TIMING.md, "S(WTX) from the
/// virtual cards"), for ``ThinkingCard`` (FWI 4, 12 ms of thinking: one request, WTXM 2, ISO/IEC 14443-4 §7.3).
///
/// By hand, NFC-A at 106 kbit/s (ISO/IEC 14443-3: a frame of n bytes with CRC_A is (9n + 2)·128 cycles; the card
/// answers 1172 cycles after a last bit 0, 1236 after a 1; the reader sends 1172 cycles after the card):
/// the command's I-block `02 00B0000000` + CRC_A `79 5E` (8 bytes) 9472 cycles after 1172; the request `F2 02`
/// + CRC_A `0A 72` (4 bytes) 4864 after 1172 (the parity bit of `5E` is 0); the reader's response, the same 4 bytes,
/// 4864 after 1172; the answer's I-block `02 9000` + CRC_A (5 bytes) 6016 after 1236 (the parity bit of `72` is 1).
/// 29,968 cycles: 2.210 ms.
@Suite struct WTXTraceTests {
    static let command: [UInt8] = [0x00, 0xB0, 0x00, 0x00, 0x00]
    static let exchangeLine =
        "#   on air: > I-block 698.5 µs after 86.4 µs, < S(WTX) 358.7 µs after 86.4 µs, "
        + "> S(WTX) answer 358.7 µs after 86.4 µs, < I-block 443.7 µs after 91.2 µs"

    /// The `--trace` chain (``InstrumentedFrontend`` and ``AirTracker``, the lines ``AirFrame/traceText`` writes),
    /// with the recorder between the tracer and the field as `--trace --record` has it.
    @Test func theTraceShowsTheRequestAndTheResponseWithTheirTimes() throws {
        let clock = VirtualClock()
        let field = VirtualField(clock: clock)
        field.place(ThinkingCard())
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wtx-trace-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let recorder = RecordingFrontend(
            VirtualFieldFrontend(field: field), path: dir.appendingPathComponent("r.json").path, device: "sim",
            now: { clock.now })
        var tracker = AirTracker()
        var lines: [String] = []
        var all: [AirFrame] = []
        var events: [RFTraceEvent] = []
        let frontend = InstrumentedFrontend(recorder) { event in
            events.append(event)
            let frames = tracker.frames(for: event)
            if !frames.isEmpty { lines.append(frames.onAirComment()) }
            all += frames
        }
        let target = try #require(try frontend.poll(RFPollRequest([.nfcA])).first)
        let activated = try frontend.activate(target, isoDEP: true)
        let activationFrames = all
        #expect(try frontend.exchange(Self.command) == .frame([0x90, 0x00]))
        let exchangeFrames = Array(all.dropFirst(activationFrames.count))
        // The frontend said the card asked once, with WTXM 2, just before the answer it delayed.
        #expect(
            events.suffix(3) == [.sent(Self.command), .waitingTimeExtensions([2]), .received(.frame([0x90, 0x00]))])
        #expect(lines.last == Self.exchangeLine)
        #expect(exchangeFrames.map(\.air.cycles) == [9472, 4864, 4864, 6016])
        #expect(exchangeFrames.map(\.gap.cycles) == [1172, 1172, 1172, 1236])
        #expect(exchangeFrames.total().cycles == 29_968)
        // The second exchange asks again: the request belongs to each exchange, not to the first only.
        #expect(try frontend.exchange(Self.command) == .frame([0x90, 0x00]))
        #expect(lines.last == Self.exchangeLine)
        frontend.deactivate()
        // The closing total adds the S(WTX) frames: two exchanges of 29,968 cycles on top of the activation and the
        // release.
        let release = AirTimeModel.standard.release(activated)
        #expect(all.total().cycles == activationFrames.total().cycles + 2 * 29_968 + release.total().cycles)
        #expect(
            all.airTotalComment()
                == "# air: \(all.total()) on the air (frames \(all.airOnly()), gaps \(all.gapsOnly()))")
        #expect(all.filter { $0.label.hasPrefix("S(WTX)") }.count == 4)
    }

    /// The field server's line for the exchange carries the same frames, the S(WTX) with their bytes.
    @Test func theFieldServersAirLinesShowThem() throws {
        let s = try FieldServer(port: 0, shelf: [])
        s.field.place(ThinkingCard())
        s.start()
        defer { s.stop() }
        let app = try RemoteFieldFrontend(address: s.address, appName: "test")
        let target = try #require(try app.poll([.nfcA]).first)
        _ = try app.activate(target, isoDEP: true)
        #expect(try app.exchange(Self.command) == .frame([0x90, 0x00]))
        app.deactivate()
        let (_, transcript) = try FieldFixture.api(s.address, "GET", "/api/transcript?since=0")
        let lines = transcript["lines"]?.arrayValue ?? []
        let answer = try #require(lines.first { $0["text"]?.stringValue == "< 9000" })
        let air = answer["air"]?.arrayValue ?? []
        #expect(air.compactMap { $0["what"]?.stringValue } == ["I-block", "S(WTX)", "S(WTX) answer", "I-block"])
        #expect(air.compactMap { $0["to"]?.stringValue } == ["card", "reader", "card", "reader"])
        #expect(air.compactMap { $0["air"]?.intValue } == [9472, 4864, 4864, 6016])
        #expect(air.compactMap { $0["gap"]?.intValue } == [1172, 1172, 1172, 1236])
        #expect(air[1]["bytes"]?.stringValue == "F2020A72" && air[2]["bytes"]?.stringValue == "F2020A72")
    }
}
