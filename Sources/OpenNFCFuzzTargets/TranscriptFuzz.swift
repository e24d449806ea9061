internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCCrypto
internal import OpenNFCRF
internal import OpenNFCRemote
internal import OpenNFCSimulation

/// Record/replay transcripts (`--record`, device `replay:<file>`, docs/FIELD.md "Transcripts"): the file parser,
/// its printer, and the replay frontend driven by a program whose calls come from the input.
///
/// The input is the transcript text, a NUL byte, then the calls: per byte, play the next recorded frame,
/// activation or authentication as recorded (most bytes), or send other bytes, poll, deactivate, or activate
/// another handle.
///
/// Invariants: a transcript that parses prints to text that parses equal, and printing is then a fixed point;
/// each event's JSON parses back to the event; a refused file names the file, and a JSON error a line inside it
/// (members are named by path, `events[3].frame`, the event on line 4 + 3 of the printed form). The replay never
/// answers beyond the transcript: the calls it accepts are, in order, a prefix of the recorded frames,
/// activations and authentications, each answered with its recorded result or error; after the first difference
/// every call fails with the same message; polls only report recorded targets; the clock never moves past the
/// recording's total duration; a replay that played every recorded call is complete.
enum TranscriptFuzz {
    static let target = FuzzTarget(
        "transcript", "record/replay transcripts: parse → print → parse equal; replay never beyond the recording",
        seeds: seeds, run: run)

    static let file = "session.rftranscript"

    static func run(_ data: [UInt8]) {
        let split = data.firstIndex(of: 0) ?? data.count
        guard let text = String(validating: data[..<split], as: UTF8.self) else { return }
        let transcript: RFTranscript
        do {
            transcript = try RFTranscript(parsing: text, file: file)
        } catch {
            refused(error, text)
            return
        }
        let printed = transcript.text
        do {
            let back = try RFTranscript(parsing: printed, file: file)
            fuzzRequire(back == transcript, "a transcript printed parses differently")
            fuzzRequire(back.text == printed, "printing a transcript is not a fixed point")
        } catch {
            fuzzRequire(false, "a printed transcript is refused: \(error)")
        }
        replay(transcript, calls: FuzzInput(Array(data[min(data.count, split + 1)...])))
    }

    static func refused(_ error: RFWire.Problem, _ text: String) {
        fuzzRequire(!error.reason.isEmpty, "a transcript refused without a reason")
        fuzzRequire(error.path.hasPrefix(file), "a transcript error that does not name the file: \(error)")
        if error.reason.hasPrefix("not JSON:") {
            guard let at = error.reason.range(of: " at line ", options: .backwards),
                let line = Int(error.reason[at.upperBound...].prefix(while: \.isNumber))
            else {
                fuzzRequire(false, "a JSON error without a line: \(error)")
                return
            }
            let lines = text.utf8.count(where: { $0 == 0x0A }) + 1
            fuzzRequire(line >= 1 && line <= lines, "a JSON error on line \(line) of \(lines)")
        }
    }

    /// What a strict call (activation, frame, authentication) replays: the recorded event it matched.
    static func isStrict(_ e: RFTranscript.Event) -> Bool {
        switch e.operation {
        case .activate, .exchange, .authenticate: return true
        case .poll, .deactivate: return false
        }
    }

    static func replay(_ transcript: RFTranscript, calls: FuzzInput) {
        var calls = calls
        let clock = VirtualClock()
        let frontend = ReplayFrontend(transcript, clock: clock)
        let strict = transcript.events.filter(isStrict)
        var recordedTargets = Set<RFTarget>()
        var total: UInt64? = 0
        for e in transcript.events {
            if case .poll(_, let t, let repeats) = e.operation {
                recordedTargets.formUnion(t)
                let (d, o) = e.duration.multipliedReportingOverflow(by: UInt64(repeats))
                total = o ? nil : total.flatMap { t in t.addingReportingOverflow(d).overflow ? nil : t + d }
            } else {
                total = total.flatMap { t in t.addingReportingOverflow(e.duration).overflow ? nil : t + e.duration }
            }
            if case .activate(_, _, .success(let t)) = e.operation { recordedTargets.insert(t) }
        }
        var played = 0
        let fallback = RFTarget(
            .nfcA(NFCAActivation(uid: [0x04, 1, 2, 3, 4, 5, 6], sensRes: 0x44, selRes: 0)), handle: 0)
        for _ in 0..<256 where !calls.isAtEnd {
            let before = frontend.mismatch
            let b = calls.byte()
            let recorded = played < strict.count ? strict[played] : nil
            var outcome: String? = nil
            var strictCall = true
            switch b % 8 {
            case 4:
                outcome = exchange(frontend, calls.take(Int(calls.byte() % 8)))
            case 5:
                strictCall = false
                do {
                    let targets = try frontend.poll(RFPollRequest(Set(RFTechnology.allCases)))
                    fuzzRequire(targets.allSatisfy(recordedTargets.contains), "a poll reports a target never recorded")
                } catch {
                    fuzzRequire(before != nil && error.detail == before, "a poll fails before any difference: \(error)")
                }
            case 6:
                strictCall = false
                frontend.deactivate()
            case 7:
                outcome = activate(frontend, RFTarget(fallback.activation, handle: Int(calls.byte())), iso: b & 8 != 0)
            default:
                // Play the next recorded call as the recording has it.
                switch recorded?.operation {
                case .exchange(let f, _)?: outcome = exchange(frontend, f)
                case .activate(let h, let iso, let r)?:
                    outcome = activate(
                        frontend, RFTarget((try? r.get())?.activation ?? fallback.activation, handle: h), iso: iso)
                case .authenticate(let a, _)?:
                    do {
                        try frontend.authenticate(a)
                        outcome = "done"
                    } catch {
                        outcome = "error \(error.code) \(error.detail)"
                    }
                default:
                    outcome = exchange(frontend, [0x30, 0x00])
                }
            }
            if let before {
                if strictCall {
                    fuzzRequire(
                        outcome == "error frontendFailure \(before)", "a call after a difference: \(outcome ?? "")")
                }
                fuzzRequire(frontend.mismatch == before, "the first difference changed")
                continue
            }
            guard strictCall else { continue }
            if frontend.mismatch != nil {
                fuzzRequire(
                    outcome?.hasPrefix("error frontendFailure replay: ") == true, "a difference: \(outcome ?? "")")
                continue
            }
            // Accepted: it must be the next recorded call, answered as recorded.
            guard let recorded else {
                fuzzRequire(false, "the replay answered beyond the recording: \(outcome ?? "")")
                return
            }
            fuzzRequire(outcome == expected(recorded), "replayed \(outcome ?? "") for \(expected(recorded))")
            played += 1
        }
        if let total { fuzzRequire(clock.now.nanoseconds / 1_000 <= total, "the clock passed the recording's end") }
        if frontend.mismatch == nil && played == strict.count {
            fuzzRequire(frontend.isComplete, "every recorded call replayed, yet the replay is not complete")
        }
        if played < strict.count { fuzzRequire(!frontend.isComplete, "complete with recorded calls left") }
    }

    static func exchange(_ f: ReplayFrontend, _ frame: [UInt8]) -> String {
        do {
            return "response \(try f.exchange(frame))"
        } catch {
            return "error \(error.code) \(error.detail)"
        }
    }

    static func activate(_ f: ReplayFrontend, _ t: RFTarget, iso: Bool) -> String {
        do {
            return "target \(try f.activate(t, isoDEP: iso))"
        } catch {
            return "error \(error.code) \(error.detail)"
        }
    }

    /// The outcome a faithful replay of `e` gives.
    static func expected(_ e: RFTranscript.Event) -> String {
        switch e.operation {
        case .exchange(_, .success(let r)): return "response \(r)"
        case .exchange(_, .failure(let error)), .activate(_, _, .failure(let error)):
            return "error \(error.code) \(error.detail)"
        case .activate(_, _, .success(let t)): return "target \(t)"
        case .authenticate(_, let error?): return "error \(error.code) \(error.detail)"
        case .authenticate(_, nil): return "done"
        case .poll, .deactivate: return "none"
        }
    }

    // MARK: Seeds: sessions recorded from the virtual chips

    static func seeds() -> [[UInt8]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opennfc-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var out: [[UInt8]] = []
        for (i, chip) in TagFile.chips.enumerated() {
            guard let tag = CardFuzz.tag(of: chip) else { continue }
            let clock = VirtualClock()
            let field = VirtualField(clock: clock)
            var caps = RFCapabilities.simulatedIPhone
            caps.mifareClassicAuthentication = true
            let virtualFrontend = VirtualFieldFrontend(field: field, capabilities: caps)
            virtualFrontend.random = SeededRandomSource(seed: 0x5244_5246)
            let path = directory.appendingPathComponent("\(i).json").path
            let recorder = RecordingFrontend(virtualFrontend, path: path, device: "sim:\(chip.name)") { clock.now }
            field.place(tag)
            guard let first = try? recorder.poll(RFPollRequest([.nfcA, .nfcB, .nfcF, .nfcV])).first,
                let target = try? recorder.activate(first)
            else { continue }
            ReaderFuzz.operate(chip.name.contains("classic") ? 5 : 0, target: target, frontend: recorder)
            recorder.deactivate()
            let text = recorder.recorded.text
            // Faithful replay, then one that strays after two calls.
            out.append(Array(text.utf8) + [0] + [UInt8](repeating: 0, count: 64))
            if i % 4 == 0 { out.append(Array(text.utf8) + [0, 0, 0, 5, 4, 2, 0xAA, 0xBB, 0, 6, 0]) }
        }
        return out
    }
}
