import Foundation
import OpenNFCTestSupport
import Testing

/// A MIFARE Plus write on the air (docs/TRACES.md, "Round trips"): `opennfc restore` of a dump onto a card in
/// security level 3 — an AES authentication per sector, then one Write Encrypted MACed (`A3`) per block — recorded to
/// each of the three formats, dissected by tshark, converted to a Proxmark3 trace and back without loss.
@Suite struct MIFAREPlusTraceTests {
    /// A new chip (SL0, as NXP ships it) turned into an SL3 card by editing its tag file.
    static func sl3Card(_ ws: Workspace, _ name: String, uid: String) throws {
        let made = try ws.run(["tag", "new", "--chip", "mifare-plus-ev1-2k", "--uid", uid, "-o", name])
        #expect(made.status == 0, "\(made.stderr)")
        let text = try String(contentsOfFile: ws.path(name), encoding: .utf8)
        try text.replacingOccurrences(of: "\"securityLevel\": 0", with: "\"securityLevel\": 3")
            .write(toFile: ws.path(name), atomically: true, encoding: .utf8)
    }

    @Test func restoreOntoAnSL3CardIsRecordedInEveryFormat() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try Self.sl3Card(ws, "src.json", uid: "04A1B2C3D4E5F6")
        #expect(try ws.run(["dump", "-o", "d.json", "--device", "sim:src.json"]).status == 0)
        for (k, file) in ["w.pcapng", "w.json", "w.trace"].enumerated() {
            try Self.sl3Card(ws, "dst\(k).json", uid: "04010203040506")
            let r = try ws.run(["restore", "d.json", "--device", "sim:dst\(k).json", "--record", file])
            #expect(r.status == 0 && r.stderr.contains("95 data blocks written"), "\(r.stderr)")
        }
        // 95 writes (`A3`, ISO-wrapped `90 A3`), each in an I-block, each answered; the same in all three files.
        let shown = try TraceFilesCLITests.frames(ws, "w.pcapng")
        let writes = shown.filter { $0.hasPrefix("> 0290A3") || $0.hasPrefix("> 0390A3") }
        #expect(writes.count == 95, "\(shown.joined(separator: "\n"))")
        let json = try String(contentsOfFile: ws.path("w.json"), encoding: .utf8)
        #expect(json.components(separatedBy: "\"90A3").count - 1 == 95)
        let frames = shown.filter { !$0.hasPrefix("*") }
        #expect(try TraceFilesCLITests.frames(ws, "w.trace", ["--protocol", "14a"]).count == frames.count)
        try TraceFilesCLITests.checkWithTShark(ws.path("w.pcapng"), proto: "14a")
        #expect(try ws.run(["trace", "convert", "w.pcapng", "-o", "x.trace"]).status == 0)
        #expect(try ws.run(["trace", "convert", "x.trace", "--protocol", "14a", "-o", "x.pcapng"]).status == 0)
        #expect(try TraceFilesCLITests.frames(ws, "x.pcapng") == frames)
        // The reader draws a fresh RndA for every AES authentication, so a replay of the recording meets a
        // different AuthenticateContinue (`72`) and says so (docs/TRACES.md, "Round trips").
        let replayed = try ws.run(["restore", "d.json", "--device", "replay:w.json"])
        #expect(replayed.status != 0)
        #expect(replayed.stderr.contains("differs from the recording: sent 907200"), "\(replayed.stderr)")
    }
}
