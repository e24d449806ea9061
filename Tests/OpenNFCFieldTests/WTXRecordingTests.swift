import Foundation
import OpenNFCRF
import OpenNFCRemote
import OpenNFCSimulation
import Testing

/// An ISO-DEP card with FWI 4 (ATS `03 28 40`: TB(1) `40`, FWT 4.83 ms) that thinks 12 ms before each answer
/// (also `WTXTraceTests`).
final class ThinkingCard: VirtualTag {
    var chip: String { "thinking" }
    var activation: VirtualActivation {
        VirtualActivation(
            uid: [0x04, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66], sensRes: 0x0344, selRes: 0x20, ats: [0x03, 0x28, 0x40])
    }
    func reset() {}
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer { .data([0x90, 0x00]) }
    func processingTime(for frame: [UInt8]) -> NFCDuration { .milliseconds(12) }
}

/// S(WTX) recorded (docs/TIMING.md, "S(WTX) from the virtual cards"): the field reports the requests its card sent
/// (`AirReporting`), the recorder puts them in the transcript's air frames with their bytes, and a transcript
/// rendered on the air (pcapng, Proxmark3) has the S(WTX) request and the reader's response between the command's
/// I-block and the answer's; read back, they are skipped and the exchange is the recorded one.
@Suite struct WTXRecordingTests {
    @Test func aCardsRequestsForMoreTimeReachTheRecording() throws {
        let clock = VirtualClock()
        let field = VirtualField(clock: clock)
        field.place(ThinkingCard())
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wtx-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.json").path
        let recorder = RecordingFrontend(
            VirtualFieldFrontend(field: field), path: path, device: "sim", now: { clock.now })
        let target = try #require(try recorder.poll(RFPollRequest([.nfcA])).first)
        _ = try recorder.activate(target, isoDEP: true)
        #expect(try recorder.exchange([0x00, 0xB0, 0x00, 0x00, 0x00]) == .frame([0x90, 0x00]))
        recorder.deactivate()
        // 12 ms against an FWT of 65 536/fc: one request, WTXM 2 (ISO/IEC 14443-4 §7.3), F2 02 + CRC_A.
        let request = [0xF2, 0x02] + crcA([0xF2, 0x02])
        let written = try RFTranscript.read(path: path)
        let exchange = try #require(
            written.events.first { if case .exchange = $0.operation { true } else { false } })
        #expect(exchange.air.map(\.label) == ["I-block", "S(WTX)", "S(WTX) answer", "I-block"])
        #expect(exchange.air[1].bytes == request && exchange.air[2].bytes == request)
        // On the air: the command's I-block, the request, the response, the answer's I-block.
        let air = try AirTrace(transcript: written)
        let frames = air.frames.filter(\.isFrame).map { ($0.event, $0.bytes) }
        let i = try #require(frames.firstIndex { $0.1 == request })
        #expect(frames[i - 1].0 == .reader && frames[i - 1].1.prefix(6) == [0x02, 0x00, 0xB0, 0x00, 0x00, 0x00])
        #expect(frames[i].0 == .tag && frames[i + 1].0 == .reader && frames[i + 1].1 == request)
        #expect(frames[i + 2].0 == .tag && frames[i + 2].1.prefix(3) == [0x02, 0x90, 0x00])
        // Read back as a reader's session, the S(WTX) pair is skipped: the same exchange.
        let reading = air.reading()
        #expect(reading.problems.isEmpty, "\(reading.problems)")
        #expect(
            reading.transcript.events.contains {
                $0.operation == .exchange([0x00, 0xB0, 0x00, 0x00, 0x00], .success(.frame([0x90, 0x00])))
            })
    }

    /// CRC_A (ISO/IEC 14443-3 Annex B: init 6363, reflected 8408, low byte first).
    func crcA(_ b: [UInt8]) -> [UInt8] {
        var crc: UInt16 = 0x6363
        for x in b {
            crc ^= UInt16(x)
            for _ in 0..<8 { crc = crc & 1 != 0 ? crc >> 1 ^ 0x8408 : crc >> 1 }
        }
        return [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }
}
