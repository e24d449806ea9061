import Foundation
import OpenNFCBytes
import OpenNFCFieldServer
import OpenNFCTestSupport
import Testing

/// `opennfc terminal --device remote:` is the field page's terminal (`POST /api/terminal`) as a command: an app's
/// `CardSession` on the field (`opencorenfc-example card` with `OPENCORENFC_DEVICE=remote:`) answers it through
/// the phone's routing (docs/CARD-EMULATION.md, "The field page's terminal").
@Suite(.serialized) struct FieldTerminalCLITests {
    @Test func opennfcTerminalTalksToTheAppsCardSessionOverRemote() throws {
        let dir = try FieldFixture.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let entitlements = try ExampleCardApp.writeEntitlements(in: dir)
        let s = try FieldServer(port: 0, shelf: [])
        s.start()
        defer { s.stop() }
        // No app on the field yet: the field's reason, not a hang.
        let none = try FieldFixture.run("opennfc", ["terminal", "--device", "remote:\(s.address)", "80CA000000"])
        #expect(none.status == 1 && none.stderr.contains("no app is connected"), "\(none.stderr)")
        let app = try FieldFixture.child(
            "opencorenfc-example", ["card"],
            environment: ["OPENCORENFC_DEVICE": "remote:\(s.address)", "OPENCORENFC_ENTITLEMENTS": entitlements.path])
        defer { app.stop() }
        _ = try FieldFixture.waitForState(s.address) { $0["card"]?["emulating"] == .bool(true) }
        let r = try FieldFixture.run(
            "opennfc",
            [
                "terminal", "--device", "remote:\(s.address)", "--aid", "F04C4F59414C", "80CA000000",
                "00A4040007A000000003101000", "80CA000000",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        // Another AID: the phone answers 6A 82 itself, and the app's AID is no longer selected (6D 00).
        #expect(
            r.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == [
                "00A4040006F04C4F59414C00 -> 9000", "80CA000000 -> 4D454D4245522D303034329000",
                "00A4040007A000000003101000 -> 6A82", "80CA000000 -> 6D00",
            ], "\(r.stdout)")
        // The terminal's field came and went: the handler saw both.
        #expect(app.waitForStderr("reader deselected", seconds: 30), "\(app.stderrText)")
        #expect(app.stderrText.contains("reader detected"))
        let state = try FieldFixture.waitForState(s.address) { $0["card"]?["field"] == .bool(false) }
        #expect(state["card"]?["emulating"] == .bool(true))
    }
}
