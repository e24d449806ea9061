import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCRemote
import OpenNFCSimulation
import Testing

/// Record/replay: unit level over a virtual field, then the CLI recording a read and a write on `sim:`.
@Suite struct RecordReplayTests {
    func fieldWithTag() throws -> (VirtualFieldFrontend, VirtualClock) {
        let clock = VirtualClock()
        let field = VirtualField(clock: clock)
        field.place(try TagFile.factory(chip: "ntag213", uid: [4, 1, 2, 3, 4, 5, 6], holding: FieldFixture.exampleURI))
        return (VirtualFieldFrontend(field: field), clock)
    }

    @Test func aRecordingReplaysTheSameAnswersAndTimes() throws {
        let dir = try FieldFixture.directory()
        let path = dir.appendingPathComponent("t.json").path
        let (base, clock) = try fieldWithTag()
        let rec = RecordingFrontend(base, path: path, device: "test", now: { clock.now })
        let targets = try rec.poll([.nfcA])
        _ = try rec.poll([.nfcA])
        _ = try rec.activate(targets[0], isoDEP: false)
        let read = try rec.exchange([0x30, 0x04])
        let nak = try rec.exchange([0x30, 0xF0])
        #expect(throws: RFError.self) { try rec.exchange([0x30, 0x04]) }  // muted after the NAK
        rec.deactivate()
        let recordedTime = clock.now
        let transcript = try RFTranscript.read(path: path)
        #expect(transcript.events.count == 6)
        guard case .poll(_, _, let repeats) = transcript.events[0].operation else {
            Issue.record("no poll")
            return
        }
        #expect(repeats == 2)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"op\":\"exchange\",\"frame\":\"3004\",\"response\":{\"frame\":\"0"))
        #expect(text.contains("{\"nak\":0}"))

        let replayClock = VirtualClock()
        let replay = ReplayFrontend(transcript, clock: replayClock)
        let again = try replay.poll([.nfcA])
        #expect(again == targets)
        _ = try replay.activate(again[0], isoDEP: false)
        #expect(try replay.exchange([0x30, 0x04]) == read)
        #expect(try replay.exchange([0x30, 0xF0]) == nak)
        #expect(throws: RFError(.timeout, "no answer")) { try replay.exchange([0x30, 0x04]) }
        replay.deactivate()
        #expect(replay.isComplete)
        #expect(replay.mismatch == nil)
        // Durations are replayed, waits between calls are not: the replay takes at most the recorded time.
        #expect(replayClock.now <= recordedTime && replayClock.now > .init(nanoseconds: 0))
    }

    @Test func aDifferentProgramFailsNamingTheFirstDifferingFrame() throws {
        let dir = try FieldFixture.directory()
        let path = dir.appendingPathComponent("t.json").path
        let (base, clock) = try fieldWithTag()
        let rec = RecordingFrontend(base, path: path, device: "test", now: { clock.now })
        let t = try rec.activate(try rec.poll([.nfcA])[0], isoDEP: false)
        _ = try rec.exchange([0x30, 0x00])
        _ = try rec.exchange([0x30, 0x04])
        rec.deactivate()
        let replay = ReplayFrontend(try RFTranscript.read(path: path), clock: VirtualClock())
        _ = try replay.activate(t, isoDEP: false)
        _ = try replay.exchange([0x30, 0x00])
        #expect(
            throws: RFError(.frontendFailure, "replay: frame 2 differs from the recording: sent 3008, recorded 3004")
        ) {
            try replay.exchange([0x30, 0x08])
        }
        #expect(replay.mismatch == "replay: frame 2 differs from the recording: sent 3008, recorded 3004")
        // Everything after the difference fails the same way.
        #expect(throws: RFError.self) { try replay.exchange([0x30, 0x04]) }
        let short = ReplayFrontend(try RFTranscript.read(path: path), clock: VirtualClock())
        _ = try short.activate(t, isoDEP: false)
        _ = try short.exchange([0x30, 0x00])
        _ = try short.exchange([0x30, 0x04])
        #expect(
            throws: RFError(
                .frontendFailure, "replay: frame 3 (3010) is not in the recording, which ended after 2 frames")
        ) {
            try short.exchange([0x30, 0x10])
        }
    }

    @Test func badTranscriptsSayWhere() throws {
        let dir = try FieldFixture.directory()
        let path = dir.appendingPathComponent("bad.json").path
        try
            "{\"format\":\"opencorenfc-rf-transcript\",\"version\":1,\"capabilities\":{\"maxCommandSize\":10,\"maxResponseSize\":10,\"rawFrames\":true,\"technologies\":[\"nfcA\"]},\"events\":[{\"t\":0,\"d\":0,\"op\":\"exchange\",\"frame\":\"ZZ\",\"response\":{\"ack\":true}}]}"
            .write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try RFTranscript.read(path: path)
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix("\(path): events[0].frame:"))
        }
    }

    /// The CLI records a read and a write on `sim:`, replays both without the tag file, and a changed write fails
    /// at the first frame that differs.
    @Test func theCLIRecordsAndReplaysAReadAndAWrite() throws {
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        let readLog = dir.appendingPathComponent("read.json").path
        let writeLog = dir.appendingPathComponent("write.json").path
        let read = try FieldFixture.run("opennfc", ["read", "--device", "sim:\(file)", "--record", readLog])
        #expect(read.status == 0, "\(read.stderr)")
        let write = try FieldFixture.run(
            "opennfc", ["write", "--device", "sim:\(file)", "--uri", "https://example.org/a", "--record", writeLog])
        #expect(write.status == 0, "\(write.stderr)")
        try FileManager.default.removeItem(atPath: file)

        let replayedRead = try FieldFixture.run("opennfc", ["read", "--device", "replay:\(readLog)"])
        #expect(replayedRead.status == 0, "\(replayedRead.stderr)")
        #expect(replayedRead.stdout == read.stdout)
        let replayedWrite = try FieldFixture.run(
            "opennfc", ["write", "--device", "replay:\(writeLog)", "--uri", "https://example.org/a"])
        #expect(replayedWrite.status == 0, "\(replayedWrite.stderr)")

        // Another URI: the write's first differing frame is named, with both byte strings.
        let changed = try FieldFixture.run(
            "opennfc", ["write", "--device", "replay:\(writeLog)", "--uri", "https://example.org/b"])
        #expect(changed.status == 1)
        let transcript = try RFTranscript.read(path: writeLog)
        var n = 0
        var expected = ""
        for e in transcript.events {
            guard case .exchange(let f, _) = e.operation else { continue }
            n += 1
            if f.contains(UInt8(ascii: "a")) {
                expected = "replay: frame \(n) differs from the recording: sent "
                break
            }
        }
        #expect(!expected.isEmpty)
        #expect(changed.stderr.contains(expected), "\(changed.stderr)")
        #expect(changed.stderr.contains(", recorded "))
    }
}
