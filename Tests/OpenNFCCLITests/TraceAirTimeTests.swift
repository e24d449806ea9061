import OpenNFCRF
import OpenNFCRemote
import Testing

/// Durations in trace files come from the air-time model (docs/TRACES.md, "Proxmark3 .trace": Duration): each
/// record's duration is the frame's air time by ISO/IEC 14443-2/-3, ISO/IEC 15693-2 or JIS X 6319-4, computed here
/// by hand from the standards' bit counts, and the reader gives the frame its air time back.
@Suite struct TraceAirTimeTests {
    /// The 16-bit little-endian duration of each record of a Proxmark3 trace.
    static func durations(_ bytes: [UInt8]) -> [Int] {
        var out: [Int] = []
        var o = 0
        while o + 8 <= bytes.count {
            let n = Int(bytes[o + 6]) | Int(bytes[o + 7] & 0x7F) << 8
            out.append(Int(bytes[o + 4]) | Int(bytes[o + 5]) << 8)
            o += 8 + n + (n - 1) / 8 + 1
        }
        return out
    }

    @Test func nfcARecordsCarryTheModelsAirTimeLessTheEndOfFrame() throws {
        let read = [UInt8](repeating: 0x11, count: 16) + [0x22, 0x33]
        let trace = AirTrace(
            frames: [
                AirFrame(.reader, time: 0, bytes: [0x52], lastBits: 7),
                AirFrame(.tag, time: 100_000, bytes: [0x44, 0x00]),
                AirFrame(.tag, time: 200_000, bytes: read),
                AirFrame(.tag, time: 400_000, bytes: [0x0A], lastBits: 4),
            ], protocols: [.iso14443a])
        let bytes = ProxmarkTrace.encode(trace, protocol: .iso14443a)
        // S + 7 bits (+ E, not counted: no modulation) = 8 × 128; S + 2 × 9 bits = 19 × 128; S + 18 × 9 = 163 × 128;
        // S + 4 bits = 5 × 128 (ISO/IEC 14443-3 §6.2.3).
        #expect(Self.durations(bytes) == [1024, 2432, 20_864, 640])
        let back = try ProxmarkTrace.decode(bytes, protocol: .iso14443a, file: "t.trace")
        // The model's frame: with E, 9n + 2 bit periods of 128/fc (9 for the short frame, 6 for the nibble).
        #expect(back.frames.map(\.air.cycles) == [1152, 2560, 20_992, 768])
        #expect(back.frames.map(\.lastBits) == [7, nil, nil, 4])
        #expect(back.frames.map(\.air) == trace.modelledAir())
    }

    @Test func otherTechnologiesRecordTheirWholeFrame() throws {
        // WUPB `05 00 08` + CRC_B: SOF 12 + 5 × 10 + EOF 10 = 72 etu of 128/fc (ISO/IEC 14443-3 §7.1).
        let b = AirTrace(frames: [AirFrame(.reader, bytes: [0x05, 0x00, 0x08, 0x39, 0x73])], protocols: [.iso14443b])
        #expect(Self.durations(ProxmarkTrace.encode(b, protocol: .iso14443b)) == [9216])
        // Inventory `26 01 00` + CRC, 1-of-4: SOF 1024 + 5 × 4096 + EOF 512 = 22 016/fc, stored ÷ 32 = 688; the
        // answer `00 DSFID UID` + CRC (12 bytes) at the high rate: 2048 + 96 × 512 + 2048 = 53 248/fc ÷ 32 = 1664
        // (ISO/IEC 15693-2 §7.3.2, §8.2).
        let v = AirTrace(
            frames: [
                AirFrame(.reader, bytes: [0x26, 0x01, 0x00, 0xF6, 0x0A]),
                AirFrame(.tag, bytes: [UInt8](repeating: 0, count: 12)),
            ], protocols: [.iso15693])
        #expect(Self.durations(ProxmarkTrace.encode(v, protocol: .iso15693)) == [688, 1664])
        // FeliCa Polling `B2 4D 06 00 FF FF 00 00` + CRC: preamble 6 + sync 2 + LEN + 5 + CRC 2 = 16 bytes of 8 bits
        // at 64/fc (212 kbit/s, JIS X 6319-4 §7).
        let f = AirTrace(
            frames: [AirFrame(.reader, bytes: [0xB2, 0x4D, 0x06, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x09, 0x21])],
            protocols: [.felica])
        #expect(Self.durations(ProxmarkTrace.encode(f, protocol: .felica)) == [16 * 8 * 64])
    }

    @Test func pcapngKeepsOnlyDurationsTheModelDoesNotGive() throws {
        var frames = [
            AirFrame(.fieldOn),
            AirFrame(.reader, time: 1_000, bytes: [0x52], lastBits: 7),
            AirFrame(.tag, time: 200_000, bytes: [0x44, 0x00]),
        ]
        // A sniffer's measured duration, longer than the model's 2560/fc.
        frames[2].air = AirTime(cycles: 2688)
        let bytes = try PcapNG.encode(AirTrace(frames: frames, protocols: [.iso14443a]))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("duration=\(AirTime(cycles: 2688).nanoseconds)ns"))
        #expect(!text.contains("duration=\(AirTime(cycles: 1152).nanoseconds)ns"))
        let back = try PcapNG.decode(bytes, file: "t.pcapng")
        #expect(back.frames.map(\.air.cycles) == [0, 1152, 2688])
    }

    @Test func aTranscriptRenderedOnTheAirHasEveryFramesAirTime() throws {
        let target = RFTarget(
            .nfcA(NFCAActivation(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], sensRes: 0x0044, selRes: 0x00)),
            handle: 1)
        var transcript = RFTranscript(
            device: "sim:t.json",
            capabilities: RFCapabilities(
                maxCommandSize: 256, maxResponseSize: 256, rawFrames: true, technologies: [.nfcA]))
        transcript.events = [
            RFTranscript.Event(time: 0, duration: 100, operation: .poll(RFPollRequest([.nfcA]), [target], repeats: 1)),
            RFTranscript.Event(
                time: 100, duration: 900, operation: .activate(handle: 1, isoDEP: false, .success(target))),
            RFTranscript.Event(
                time: 1_000, duration: 900,
                operation: .exchange([0x30, 0x04], .success(.frame([UInt8](repeating: 0, count: 16))))),
        ]
        let air = try AirTrace(transcript: transcript)
        #expect(air.frames.filter(\.isFrame).allSatisfy { $0.air > .zero })
        // READ `30 04` + CRC_A: 4 bytes, 9 × 4 + 2 = 38 bit periods; its answer 18 bytes: 164 (ISO/IEC 14443-3 §6.2.3).
        let last = air.frames.filter(\.isFrame).suffix(2).map(\.air.cycles)
        #expect(last == [38 * 128, 164 * 128])
    }
}
