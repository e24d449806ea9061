import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCRemote
import Testing

/// Air time in `--trace` and transcripts, `--timing` with reader profiles, `--instant` (docs/TIMING.md).
@Suite struct CLITimingTests {
    /// The frames `--trace` printed, as (command, answer) pairs.
    static func exchanges(_ trace: String) throws -> [([UInt8], [UInt8])] {
        var pairs: [([UInt8], [UInt8])] = []
        var command: [UInt8]?
        for line in trace.split(separator: "\n") {
            let hex = line.dropFirst(2).prefix { $0 != " " }
            if line.hasPrefix("> ") { command = try Hex.decode(String(hex)) }
            if line.hasPrefix("< "), let c = command { pairs.append((c, try Hex.decode(String(hex)))) }
        }
        return pairs
    }

    @Test func theTraceTotalOfAReadIsTheSumOfThePerFrameFormulas() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("example.com"))
        let r = try ws.run(["read", "--raw", "--trace", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        // Per frame, by ISO/IEC 14443-3 (docs/TIMING.md): the selection of the 7-byte UID, each exchange as
        // 1172 + (9(n+2) + 2)·128 + FDT(last parity bit of the CRC) + (9(m+2) + 2)·128 cycles, and HLTA
        // (1172 + 38·128, unanswered).
        let pairs = try Self.exchanges(r.stderr)
        #expect(pairs.map(\.0.count) == [1, 2, 3])  // GET_VERSION, READ 3, FAST_READ 7–9
        var cycles: UInt64 = 0
        for frame in NFCAAir.selection(uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], sak: 0x00) {
            cycles += frame.gap.cycles + frame.air.cycles
        }
        for (command, answer) in pairs {
            let sent = CRC.appendingCRCA(command)
            let lastParity: UInt64 = sent.last!.nonzeroBitCount % 2 == 0 ? 1 : 0
            cycles += 1172 + UInt64(9 * sent.count + 2) * 128
            cycles += 9 * 128 + (lastParity == 1 ? 84 : 20) + UInt64(9 * (answer.count + 2) + 2) * 128
        }
        cycles += 1172 + 38 * 128
        let expectedMicroseconds = Double(cycles) * 1e6 / 13_560_000
        let total = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("# air: ") })
        let ms = try #require(Double(total.dropFirst("# air: ".count).prefix { $0 != " " }))
        #expect(abs(ms * 1000 - expectedMicroseconds) <= 0.5, "\(total) vs \(expectedMicroseconds) µs")
        // Each exchange names its frames: `#   on air: > … after …, < … after …`.
        let onAir = r.stderr.split(separator: "\n").filter { $0.hasPrefix("#   on air: ") }
        #expect(onAir.count == 5)  // activation, three exchanges, release
        #expect(onAir.contains("#   on air: > 358.7 µs after 86.4 µs, < 1.548 ms after 91.2 µs"))  // READ 3
        #expect(r.stderr.hasSuffix("frames: 3\n"))
    }

    @Test func aRecordingCarriesEachFramesAirTimeAndTheClockMovesByIt() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("example.com"))
        let r = try ws.run(["read", "--raw", "--record", ws.path("t.rec.json"), "--device", "sim:\(file)"])
        #expect(r.status == 0)
        let transcript = try RFTranscript.read(path: ws.path("t.rec.json"))
        let exchanges = transcript.events.filter {
            if case .exchange = $0.operation { return true }
            return false
        }
        #expect(exchanges.count == 3)
        for e in exchanges {
            // A READ of an NTAG costs the chip no time: the call's duration is its air time (floored to µs).
            #expect(e.air.count == 2)
            #expect(e.duration == UInt64(e.air.total().microseconds))
        }
        // READ 3: 30 03 + CRC_A (38 etu = 4864 cycles) 1172 after the last answer, 16 bytes + CRC_A (164 etu).
        #expect(exchanges[1].air.map(\.air.cycles) == [4864, 20_992])
        #expect(exchanges[1].air.first?.gap.cycles == 1172)

        let instant = try ws.run([
            "read", "--raw", "--instant", "--record", ws.path("i.rec.json"), "--device", "sim:\(file)",
        ])
        #expect(instant.status == 0)
        let zero = try RFTranscript.read(path: ws.path("i.rec.json"))
        #expect(zero.events.allSatisfy { $0.time == 0 && $0.duration == 0 })
        // The model still names the frames: what they would take on the air.
        #expect(zero.events.contains { !$0.air.isEmpty })
    }

    @Test func timingSplitsTheEstimateIntoAirReaderAndHost() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("example.com"))
        let r = try ws.run(["read", "--raw", "--timing", "--profile", "pn532-uart", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        #expect(r.stdout == "D1010C55046578616D706C652E636F6D\n")
        // Host: GET_VERSION 1 + 10 + 6 + 8 + 10 = 35 bytes, READ 2 + 10 + 6 + 16 + 10 = 44, FAST_READ
        // 3 + 10 + 6 + 12 + 10 = 41: 120 bytes × 10 bits ÷ 115 200 baud = 10.4 ms. Reader: detection 50 ms +
        // activation 2 ms + 3 × 1 ms = 55 ms.
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("timing on ") })
        #expect(line.hasPrefix("timing on PN532 over UART at 115200 baud (estimated): "))
        #expect(line.contains("+ reader 55.0 ms + host 10.4 ms (1 activation, 3 exchanges)"))
        #expect(r.stderr.contains("# profile pn532-uart: host link computed from the frame lengths"))
        // Without --profile, the simulated field is timed as an iPhone.
        let phone = try ws.run(["read", "--raw", "--timing", "--device", "sim:\(file)"])
        #expect(phone.stderr.contains("timing on iPhone (Core NFC) (estimated): "))
        #expect(phone.stderr.contains("+ reader 72.0 ms + host 0.0 ms"))  // 50 + 10 + 3 × 4
    }

    @Test func timingOptionsRefuseWhatTheyCannotDo() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213)
        let unknown = try ws.run(["read", "--timing", "--profile", "acr122", "--device", "sim:\(file)"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown reader profile 'acr122'"))
        #expect(unknown.stderr.contains("acr122u"))
        let alone = try ws.run(["read", "--profile", "iphone", "--device", "sim:\(file)"])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("add --timing"))
        let replay = try ws.run(["read", "--instant", "--device", "replay:\(ws.path("none.json"))"])
        #expect(replay.status != 0)
    }
}
