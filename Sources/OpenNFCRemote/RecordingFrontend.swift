internal import Foundation
package import OpenNFCRF

/// Wraps any frontend and records every poll, activation, frame and answer, with its timing, into an
/// ``RFTranscript`` file (`OPENCORENFC_RECORD=<file>`, the CLI's `--record <file>`).
///
/// | Behaviour | How |
/// |---|---|
/// | What is recorded | every call and its result or error, in order; polls answered the same way in a row are one event with `repeat` |
/// | Timing | microseconds on the device's clock (virtual for `sim:`, wall for `pcsc` and `remote:`) since the first call |
/// | Air time | each activation, exchange and release carries the frames it put on the air by ``AirTimeModel`` (docs/TIMING.md) |
/// | Format | `format`: the JSON transcript, or the same events as frames on the air in pcapng or a Proxmark3 trace (docs/TRACES.md) |
/// | Writing | the whole file atomically (temporary file + rename) after each deactivation, each failure, every 64 events and on ``flush()``; a program that ends between those loses at most the events since |
/// | Errors while writing | reported once on stderr with the file name; the program's own operation is not affected |
package final class RecordingFrontend: RFFrontend {
    package let base: any RFFrontend
    package let path: String
    /// The file's format: our transcript (`.json`), pcapng or a Proxmark3 trace (docs/TRACES.md).
    package let format: TraceFormat
    private let now: () -> NFCInstant
    private var transcript: RFTranscript
    private var origin: NFCInstant?
    private var unsaved = 0
    private var reportedWriteError = false
    /// The activated target, whose technology and ISO-DEP parameters time the exchanges.
    private var target: RFTarget?
    /// The model that times each frame.
    package var airModel = AirTimeModel.standard

    /// `now` is the clock the device runs on.
    package init(
        _ base: any RFFrontend, path: String, device: String, format: TraceFormat = .json,
        now: @escaping () -> NFCInstant
    ) {
        self.base = base
        self.path = path
        self.format = format
        self.now = now
        transcript = RFTranscript(device: device, capabilities: base.capabilities)
    }

    deinit { flush() }

    package var capabilities: RFCapabilities { base.capabilities }

    /// What has been recorded so far.
    package var recorded: RFTranscript { transcript }

    private func micros(_ i: NFCInstant) -> UInt64 {
        if origin == nil { origin = i }
        return i.duration(since: origin!).nanoseconds / 1_000
    }

    private func append(
        _ op: RFTranscript.Operation, started: NFCInstant, save: Bool = false, air: [OpenNFCRF.AirFrame] = []
    ) {
        let t = micros(started)
        let d = now().duration(since: started).nanoseconds / 1_000
        if case .poll(let request, let targets, _) = op, let last = transcript.events.last,
            case .poll(let lr, let ltargets, let n) = last.operation, lr == request, ltargets == targets
        {
            transcript.events[transcript.events.count - 1].operation = .poll(request, targets, repeats: n + 1)
        } else {
            transcript.events.append(RFTranscript.Event(time: t, duration: d, operation: op, air: air))
        }
        unsaved += 1
        if save || unsaved >= 64 || transcript.events.count == 1 { flush() }
    }

    /// Writes the file now (atomically) if anything was recorded since the last write.
    package func flush() {
        guard unsaved > 0 else { return }
        unsaved = 0
        transcript.capabilities = base.capabilities
        do throws(AirTrace.Problem) {
            try TraceFile.write(try TraceFile.encode(transcript, format: format), to: path)
        } catch {
            if !reportedWriteError {
                reportedWriteError = true
                FileHandle.standardError.write(Data("OpenCoreNFC record: \(error)\n".utf8))
            }
        }
    }

    /// Records a poll made around this frontend (a device that finds its tags itself, as the CLI's `sim:` does).
    package func notePoll(_ request: RFPollRequest, found: [RFTarget]) {
        append(.poll(request, found, repeats: 1), started: now())
    }

    package func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        let start = now()
        let found = try base.poll(request)
        append(.poll(request, found, repeats: 1), started: start)
        return found
    }

    package func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        let start = now()
        do {
            try base.authenticate(authentication)
            append(.authenticate(authentication, nil), started: start)
        } catch {
            append(.authenticate(authentication, error), started: start, save: true)
            throw error
        }
    }

    package func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        let start = now()
        do {
            let t = try base.activate(target, isoDEP: isoDEP)
            self.target = t
            append(
                .activate(handle: target.handle, isoDEP: isoDEP, .success(t)), started: start,
                air: airModel.activation(t, isoDEP: t.isISODEP))
            return t
        } catch {
            append(.activate(handle: target.handle, isoDEP: isoDEP, .failure(error)), started: start, save: true)
            throw error
        }
    }

    package func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        let start = now()
        do {
            let r = try base.exchange(command)
            append(.exchange(command, .success(r)), started: start, air: air(command, r))
            return r
        } catch {
            append(.exchange(command, .failure(error)), started: start, save: true, air: air(command, nil))
            throw error
        }
    }

    package func deactivate() {
        let start = now()
        base.deactivate()
        append(.deactivate, started: start, save: true, air: target.map { airModel.release($0) } ?? [])
        target = nil
    }

    /// The exchange's frames by the model, with the S(WTX) the frontend reports its card sent (``AirReporting``).
    private func air(_ command: [UInt8], _ answer: RFResponse?) -> [OpenNFCRF.AirFrame] {
        let wtxm = (base as? any AirReporting)?.lastWaitingTimeExtensions
        return target.map { airModel.exchange(command, answer: answer, target: $0, wtxm: wtxm) } ?? []
    }
}

extension RecordingFrontend: AirReporting {
    /// What the recorded frontend reports, so a tracer above the recorder (`--trace` with `--record`) still sees
    /// the card's S(WTX).
    package var lastWaitingTimeExtensions: [UInt8] { (base as? any AirReporting)?.lastWaitingTimeExtensions ?? [] }
}
