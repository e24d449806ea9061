internal import OpenNFCBytes
package import OpenNFCRF

/// Plays an ``RFTranscript`` back as a frontend (device `replay:<file>`), deterministically on a
/// ``VirtualClock``: no reader, no tag, the same answers at the same virtual durations.
///
/// | Call | Replay rule |
/// |---|---|
/// | `activate`, `exchange`, `authenticate` | strict: must be the next recorded activation or frame, with the same handle and ISO-DEP choice, or the same bytes; the recorded result (or error) comes back and the clock moves by the recorded duration |
/// | `poll` | lenient: the next recorded poll's targets when the next event is a poll (its `repeat` count consumed one by one); otherwise the targets seen last (or, before any poll, the target the next activation names) — polls depend on timing, which a replay does not reproduce |
/// | `deactivate` | lenient: consumes a recorded deactivation when it is next, else nothing |
/// | A difference | the call throws `frontendFailure` with a message naming the first differing frame (its 1-based index among the frames, the bytes sent and the bytes recorded) or activation; every later call fails the same way, and ``mismatch`` keeps the message |
/// | The end of the recording | a further frame or activation is a difference ("the recording ended after N frames") |
package final class ReplayFrontend: RFFrontend {
    package let transcript: RFTranscript
    package let clock: VirtualClock
    private var next = 0
    private var pollRepeatsUsed = 0
    private var framesMatched = 0
    private var activationsMatched = 0
    private var lastTargets: [RFTarget] = []
    /// The first difference between what the program did and the recording, once there is one.
    package private(set) var mismatch: String?
    /// Called once with the message of the first difference (the device prints it on stderr).
    package var onMismatch: ((String) -> Void)?

    package init(_ transcript: RFTranscript, clock: VirtualClock) {
        self.transcript = transcript
        self.clock = clock
    }

    package var capabilities: RFCapabilities { transcript.capabilities }

    /// Whether every recorded frame and activation has been replayed.
    package var isComplete: Bool {
        transcript.events[next...].allSatisfy {
            switch $0.operation {
            case .activate, .exchange, .authenticate: return false
            case .poll, .deactivate: return true
            }
        }
    }

    private func advance(_ e: RFTranscript.Event) {
        if e.duration > 0 { clock.advance(by: .microseconds(e.duration)) }
    }

    /// Skips polls and deactivations to the next strict event.
    private func nextStrict() -> RFTranscript.Event? {
        while next < transcript.events.count {
            switch transcript.events[next].operation {
            case .poll(_, let t, _):
                lastTargets = t
                next += 1
                pollRepeatsUsed = 0
            case .deactivate: next += 1
            case .activate, .exchange, .authenticate: return transcript.events[next]
            }
        }
        return nil
    }

    private func differ(_ message: String) -> RFError {
        if mismatch == nil {
            mismatch = message
            onMismatch?(message)
        }
        return RFError(.frontendFailure, message)
    }

    private func failIfDiffered() throws(RFError) {
        if let mismatch { throw RFError(.frontendFailure, mismatch) }
    }

    package func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        let technologies = request.technologies
        try failIfDiffered()
        if next < transcript.events.count, case .poll(_, let targets, let repeats) = transcript.events[next].operation {
            let e = transcript.events[next]
            pollRepeatsUsed += 1
            if pollRepeatsUsed >= repeats {
                next += 1
                pollRepeatsUsed = 0
            }
            lastTargets = targets
            advance(e)
            return targets.filter { technologies.contains($0.technology) }
        }
        if lastTargets.isEmpty, let e = peekStrict(), case .activate(_, _, .success(let t)) = e.operation {
            return [t].filter { technologies.contains($0.technology) }
        }
        return lastTargets.filter { technologies.contains($0.technology) }
    }

    private func peekStrict() -> RFTranscript.Event? {
        var i = next
        while i < transcript.events.count {
            switch transcript.events[i].operation {
            case .activate, .exchange, .authenticate: return transcript.events[i]
            default: i += 1
            }
        }
        return nil
    }

    package func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        try failIfDiffered()
        let n = activationsMatched + 1
        let what = "handle \(target.handle)\(isoDEP ? " as ISO-DEP" : "")"
        guard let e = nextStrict() else {
            throw differ(
                "replay: activation \(n) (\(what)) is not in the recording, which ended after \(framesMatched) frames")
        }
        switch e.operation {
        case .activate(let h, let iso, let result) where h == target.handle && iso == isoDEP:
            next += 1
            activationsMatched = n
            advance(e)
            return try result.get()
        case .activate(let h, let iso, _):
            throw differ(
                "replay: activation \(n) differs from the recording: the program activated \(what), the recording "
                    + "handle \(h)\(iso ? " as ISO-DEP" : "")")
        case .exchange(let f, _):
            throw differ(
                "replay: the program activated \(what) where the recording sends frame \(framesMatched + 1) "
                    + "(\(Hex.encode(f)))")
        default:
            throw differ("replay: unexpected activation")
        }
    }

    package func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        try failIfDiffered()
        let n = framesMatched + 1
        guard let e = nextStrict() else {
            throw differ(
                "replay: frame \(n) (\(Hex.encode(command))) is not in the recording, which ended after "
                    + "\(framesMatched) frames")
        }
        switch e.operation {
        case .exchange(let f, let result) where f == command:
            next += 1
            framesMatched = n
            advance(e)
            return try result.get()
        case .exchange(let f, _):
            throw differ(
                "replay: frame \(n) differs from the recording: sent \(Hex.encode(command)), recorded \(Hex.encode(f))")
        case .activate(let h, _, _):
            throw differ(
                "replay: frame \(n) (\(Hex.encode(command))) was sent where the recording activates handle \(h)")
        default:
            throw differ("replay: unexpected frame")
        }
    }

    package func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        try failIfDiffered()
        guard let e = nextStrict() else {
            throw differ("replay: an authentication is not in the recording, which ended after \(framesMatched) frames")
        }
        guard case .authenticate(let a, let error) = e.operation, a == authentication else {
            throw differ(
                "replay: the program authenticated (\(authentication)) after frame \(framesMatched) where the recording "
                    + "does not")
        }
        next += 1
        advance(e)
        if let error { throw error }
    }

    package func deactivate() {
        guard mismatch == nil else { return }
        if next < transcript.events.count, case .deactivate = transcript.events[next].operation {
            advance(transcript.events[next])
            next += 1
        }
    }
}
