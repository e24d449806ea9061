import Foundation
import OpenNFCDevices
import OpenNFCRF
import OpenNFCRemote
import OpenNFCSystem

/// One tag command's use of a device: the shared `--device`, `--timeout` and `--trace` options, waiting for a tag
/// with a prompt, activation, frame counting, and the closing `frames: <n>` line of the trace.
final class TagSession {
    /// The options every tag command takes.
    static let options: [Command.Option] = [
        .init(
            name: "device", value: "<device>",
            help:
                "sim:<tagfile>[+<tagfile>…], pcsc, pcsc:<reader>, remote:[<port>], replay:<file> or pn532:<tty>[:<baud>] (default: "
                + "$OPENCORENFC_DEVICE or $OPENNFC_DEVICE, else the only PC/SC reader)."),
        .init(name: "timeout", value: "<seconds>", help: "How long to wait for a tag (default: 30)."),
        .init(name: "trace", help: "Print every frame or APDU on stderr as it happens."),
        .init(
            name: "record", value: "<file>",
            help:
                "Record every poll, activation, frame and answer (replay with --device replay:<file>); the format follows "
                + "the extension: .json transcript, .pcapng (Wireshark), .trace (Proxmark3)."
        ),
        .init(
            name: "record-format", value: "json|pcapng|trace",
            help: "The --record file's format whatever its extension (docs/TRACES.md)."),
    ]

    let device: Device
    /// The device's frontend, counted and traced; every procedure talks through it.
    let frontend: InstrumentedFrontend
    let trace: TracePrinter?
    /// `--record`: the transcript being written.
    let recorder: RecordingFrontend?
    let timeout: NFCDuration
    private var closed = false

    init(_ inv: Invocation, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let seconds = try inv.int("timeout", default: 30, range: 0...86_400)
        timeout = .seconds(UInt64(seconds))
        if let d = inv.value("device") {
            device = try Device(d)
        } else if let (variable, d) = DeviceRegistry.fromEnvironment(environment) {
            do {
                device = try Device(d)
            } catch CLIError.usage(let m) {
                throw CLIError.failure("$\(variable): \(m)")
            }
        } else {
            device = try Device.implicit()
        }
        let tracer = inv.flag("trace") ? TracePrinter() : nil
        trace = tracer
        let opened = device
        if let path = inv.value("record") {
            // Checked before the first frame: a transcript that cannot be written is an error, not a warning later.
            var isDirectory: ObjCBool = false
            let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIError.failure("cannot write the transcript '\(path)': the directory '\(dir)' does not exist")
            }
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw CLIError.failure("cannot write the transcript '\(path)': is a directory, not a file")
            }
        }
        var format = inv.value("record").flatMap { TraceFormat(path: $0) } ?? .json
        if let name = inv.value("record-format") {
            guard let f = TraceFormat(rawValue: name) else {
                throw CLIError.usage("--record-format '\(name)': expected \(TraceFormat.names)")
            }
            guard inv.value("record") != nil else { throw CLIError.usage("--record-format needs --record <file>") }
            format = f
        }
        recorder = inv.value("record").map {
            RecordingFrontend(opened.frontend, path: $0, device: opened.name, format: format, now: { opened.clock.now })
        }
        frontend = InstrumentedFrontend(recorder ?? device.frontend, observer: tracer.map { t in { t.handle($0) } })
    }

    /// Runs `body` with a session, then prints the trace's last line and closes the device, whatever happened.
    static func run(_ inv: Invocation, _ body: (TagSession) throws -> Int32) throws -> Int32 {
        let session = try TagSession(inv)
        defer { session.close() }
        return try body(session)
    }

    /// Waits for the next tag and activates it (in its highest protocol: ISO-DEP when offered).
    /// Throws a one-line failure when no tag came within the timeout.
    func connect() throws -> RFTarget {
        guard let target = try waitForTarget() else {
            throw CLIError.failure(noTagMessage)
        }
        return try activate(target)
    }

    /// Activates a target found by ``waitForTarget()``.
    func activate(_ target: RFTarget) throws -> RFTarget {
        do {
            return try frontend.activate(target)
        } catch  where error.code == .frontendFailure {
            // The reader's own words already say what to do (another program holds the tag, pcscd stopped).
            throw CLIError.failure("the tag could not be activated: \(error.detail)")
        } catch {
            throw CLIError.failure("the tag could not be activated (\(error)); hold it still and try again")
        }
    }

    /// The next target without activating it, nil after the timeout.
    func waitForTarget() throws -> RFTarget? {
        let found = try waitForDeviceTarget()
        // The devices find their tags themselves; the recording notes what they found as a poll.
        recorder?.notePoll(RFPollRequest(Set(RFTechnology.allCases)), found: found.map { [$0] } ?? [])
        return found
    }

    private func waitForDeviceTarget() throws -> RFTarget? {
        if device.waitsForPeople {
            // A tag already on the reader needs no prompt.
            if let t = try device.waitForTag(timeout: .zero) { return t }
            Console.err("Hold a tag near the reader (\(device.name)); waiting up to \(timeout)…\n")
        }
        return try device.waitForTag(timeout: timeout)
    }

    var noTagMessage: String {
        if let left = device.tagsRemaining, left == 0 {
            return "no tag within \(timeout) on \(device.name): every simulated tag has been used"
        }
        return "no tag within \(timeout) on \(device.name); hold a tag on the reader, or raise --timeout"
    }

    /// Ends the use of the current tag: deactivates it and lets the device write it back / take it away.
    func release() throws {
        frontend.deactivate()
        try device.release()
    }

    func close() {
        guard !closed else { return }
        closed = true
        trace?.finish()
        recorder?.flush()
        device.close()
    }
}
