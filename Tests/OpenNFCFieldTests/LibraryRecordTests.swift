import Foundation
import OpenNFCRemote
import Testing

/// `OPENCORENFC_RECORD` and `OPENCORENFC_DEVICE=replay:` with a plain Core NFC program run as a process.
@Suite struct LibraryRecordTests {
    @Test func theExampleRecordsOnSimAndReplaysWithoutTheTag() throws {
        let dir = try FieldFixture.directory()
        let tag = dir.appendingPathComponent("poster.ndef")
        try Data(FieldFixture.exampleURI).write(to: tag)
        let log = dir.appendingPathComponent("app.json").path
        let recorded = try FieldFixture.run(
            "opencorenfc-example", [],
            environment: [
                "OPENCORENFC_DEVICE": "sim:\(tag.path)", "OPENCORENFC_PROFILE": "desktop", "OPENCORENFC_RECORD": log,
            ])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout == "URI https://example.com\n")
        let transcript = try RFTranscript.read(path: log)
        #expect(transcript.device == "sim:\(tag.path)")
        let frames = transcript.events.filter {
            if case .exchange = $0.operation { return true } else { return false }
        }
        #expect(frames.count >= 2)
        try FileManager.default.removeItem(at: tag)

        let replayed = try FieldFixture.run(
            "opencorenfc-example", [],
            environment: ["OPENCORENFC_DEVICE": "replay:\(log)", "OPENCORENFC_PROFILE": "desktop"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == "URI https://example.com\n")

        let missing = try FieldFixture.run(
            "opencorenfc-example", [],
            environment: ["OPENCORENFC_DEVICE": "replay:\(dir.path)/nope.json", "OPENCORENFC_PROFILE": "desktop"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("replay: \(dir.path)/nope.json: cannot read"))
    }
}
