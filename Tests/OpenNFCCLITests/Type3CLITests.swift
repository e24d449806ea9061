import Foundation
import Testing

/// The `opennfc` binary with a FeliCa Lite-S (Type 3) on `sim:`: tag files, NDEF commands, raw frames.
@Suite struct Type3CLITests {
    static let idm = "012E4CE445055B87"

    func newTag(_ ws: Workspace, _ name: String) throws -> String {
        let r = try ws.run(["tag", "new", "--chip", "felica-lite-s", "--uid", Self.idm, "-o", name])
        #expect(r.status == 0, "\(r.stderr)")
        return ws.path(name)
    }

    @Test func tagNewShowAndSend() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json")
        let show = try ws.run(["tag", "show", file])
        #expect(show.status == 0)
        #expect(show.stdout.contains("Product: FeliCa Lite-S (RC-S966), IDm \(Self.idm), PMm 00F1000000014300"))
        #expect(show.stdout.contains("System codes: 88B4, 12FC"))
        #expect(show.stdout.contains("Nbr 4, Nbw 1, Nmaxb 13, WriteF 00, RW 01, Ln 0"))
        // Polling with request code 01 for the NDEF system code, then a Check of D_ID (IDm and PMm).
        let poll = try ws.run(["tag", "send", file, "00 12FC 01 00"])
        #expect(poll.status == 0, "\(poll.stderr)")
        #expect(poll.stdout.contains("01\(Self.idm)00F100000001430012FC"))
        let check = try ws.run(["tag", "send", file, "06 \(Self.idm) 01 0B00 01 8083"])
        #expect(check.stdout.contains("07\(Self.idm)000001\(Self.idm)00F1000000014300"))
        let bad = try ws.run(["tag", "new", "--chip", "felica-lite-s", "--uid", "0102", "-o", "b.json"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("felica-lite-s has a 8-byte UID, not 2 bytes"))
    }

    @Test func writeReadFormatLock() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try newTag(ws, "t.json")
        let w = try ws.run(["write", "--uri", "https://felica.example/1", "--device", "sim:\(file)"])
        #expect(w.status == 0, "\(w.stderr)")
        let r = try ws.run(["read", "--device", "sim:\(file)"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("https://felica.example/1"))
        let f = try ws.run(["format", "--device", "sim:\(file)"])
        #expect(f.status == 0, "\(f.stderr)")
        #expect(try ws.run(["tag", "show", file]).stdout.contains("Ln 0"))
        #expect(try ws.run(["write", "--text", "kept", "--device", "sim:\(file)"]).status == 0)
        let l = try ws.run(["lock", "--yes", "--device", "sim:\(file)"])
        #expect(l.status == 0, "\(l.stderr)")
        let again = try ws.run(["write", "--text", "no", "--device", "sim:\(file)"])
        #expect(again.status == 1)
        #expect(try ws.run(["read", "--device", "sim:\(file)"]).stdout.contains("kept"))
        #expect(try ws.run(["tag", "show", file]).stdout.contains("system blocks read-only"))
    }
}
