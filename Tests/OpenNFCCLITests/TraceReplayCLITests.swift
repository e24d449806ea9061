import Foundation
import OpenNFCTestSupport
import Testing

/// `opennfc trace replay`: a recording's reader side played against a card, each answer compared with the recorded
/// one (docs/TRACES.md, "Replay as a reader").
@Suite struct TraceReplayCLITests {
    @Test func aProxmarkTraceOfAReadReplaysAsAReader() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "ntag215", "--text", "hello", "-o", "a.json"]).status == 0)
        #expect(try ws.run(["read", "--device", "sim:a.json", "--record", "r.pcapng"]).status == 0)
        #expect(try ws.run(["trace", "convert", "r.pcapng", "-o", "r.trace"]).status == 0)
        // The same card: every answer as recorded.
        let same = try ws.run(["trace", "replay", "r.trace", "--protocol", "14a", "--device", "sim:a.json"])
        #expect(same.status == 0, "\(same.stderr)")
        let lines = same.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("= activation: NFC-A UID ") == true, "\(same.stdout)")
        #expect(lines.contains { $0.hasPrefix("= > 3003: E110") }, "\(same.stdout)")
        #expect(same.stdout.hasSuffix("answers compared, 0 differ: the card answers as recorded.\n"))
        // Another NTAG215 holding another text: its UID and the pages of the message differ, each named.
        #expect(try ws.run(["tag", "new", "--chip", "ntag215", "--text", "other", "-o", "b.json"]).status == 0)
        let other = try ws.run(["trace", "replay", "r.pcapng", "--device", "sim:b.json"])
        #expect(other.status == 1)
        #expect(other.stdout.contains("≠ activation: recorded NFC-A UID "), "\(other.stdout)")
        #expect(other.stdout.contains("= > 60: 0004040201001103"), "\(other.stdout)")
        #expect(
            other.stdout.contains("≠ > 3003: recorded E1103E00030CD101085402656E68656C, the card E1103E00030CD101"),
            "\(other.stdout)")
        #expect(other.stdout.contains("differ.\n") && !other.stdout.contains(" 0 differ"))
    }

    @Test func aMifareClassicCaptureReplaysWithItsKeys() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "mifare-classic-1k", "-o", "c.json"]).status == 0)
        #expect(try ws.run(["format", "--device", "sim:c.json"]).status == 0)
        #expect(try ws.run(["write", "--text", "hi", "--device", "sim:c.json"]).status == 0)
        #expect(try ws.run(["read", "--device", "sim:c.json", "--record", "r.pcapng"]).status == 0)
        let keys = TraceFilesCLITests.classicKeys.flatMap { ["--key", $0] }
        let r = try ws.run(["trace", "replay", "r.pcapng", "--device", "sim:c.json"] + keys)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("= authentication A block "), "\(r.stdout)")
        #expect(r.stdout.contains(" 0 differ"))
        // Without the keys the enciphered frames cannot be read back into commands: refused, saying why.
        let refused = try ws.run(["trace", "replay", "r.pcapng", "--device", "sim:c.json"])
        #expect(refused.status != 0 && refused.stderr.contains("--key"), "\(refused.stderr)")
    }
}
