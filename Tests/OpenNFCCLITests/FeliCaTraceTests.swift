import Foundation
import Testing

/// FeliCa frames decoded for people: `opennfc send` and `--trace` on a virtual FeliCa Lite-S (`sim:`), the frames
/// sent without LEN as the procedures send them (JIS X 6319-4 §8.5 Polling; FeliCa Card User's Manual §4.4).
@Suite struct FeliCaTraceTests {
    @Test func sendDecodesPollingReadAndTheCardsStatusFlags() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let new = try ws.run(["tag", "new", "--chip", "felica-lite-s", "--uid", "012E4CE445055B87", "-o", "l.json"])
        #expect(new.status == 0, "\(new.stderr)")
        let idm = "012E4CE445055B87"
        let r = try ws.run([
            "send", "0012FC0100", "06\(idm)010B000280008001",
            "06\(idm)010B000180FF", "0C\(idm)", "--device", "sim:\(ws.path("l.json"))", "--trace",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("# Polling system 12FC, system code requested, 1 time slot"))
        #expect(r.stdout.contains("(FeliCa Lite-S), system 12FC"))
        #expect(r.stderr.contains("# Read Without Encryption services 000B, blocks 0, 1"))
        #expect(r.stdout.contains("# OK, 2 blocks"))
        #expect(r.stdout.contains("# status 01A8: illegal block number"))
        #expect(r.stdout.contains("# systems 88B4, 12FC"))
    }
}
