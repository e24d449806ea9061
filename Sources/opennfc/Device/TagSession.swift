import Foundation
import OpenNFCBytes
import OpenNFCDevices
import OpenNFCRF
import OpenNFCRemote
import OpenNFCSimulation
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
            name: "timing",
            help:
                "Estimate on stderr how long the command takes on a reader: air, reader and host time (docs/TIMING.md)."
        ),
        .init(
            name: "profile", value: "<reader>",
            help:
                "The reader --timing estimates: iphone, acr122u, acr1252u, pn532-uart or pcsc (default: by --device)."),
        .init(name: "instant", help: "On a simulated device, let nothing take time (no air time on its clock)."),
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
    /// `--timing`: the time the exchanges so far would take on the profile's reader.
    let timing: TimingBox?
    private var closed = false

    /// Holds the account the frontend's observer adds to.
    final class TimingBox {
        var account: TimingAccount
        init(_ account: TimingAccount) { self.account = account }
    }

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
        if inv.flag("instant") {
            guard let simulated = device.frontend as? VirtualFieldFrontend else {
                throw CLIError.usage("--instant applies to a simulated device (sim:), not \(device.name)")
            }
            simulated.field.isInstant = true
        }
        if let name = inv.value("profile") {
            guard let profile = ReaderProfile.named(name) else {
                let names = ReaderProfile.all.map(\.name)
                throw CLIError.usage(
                    "unknown reader profile '\(name)'\(Suggestion.hint(for: name, among: names)) (profiles: "
                        + names.joined(separator: ", ") + ")")
            }
            timing = TimingBox(TimingAccount(profile: profile))
        } else {
            timing = inv.flag("timing") ? TimingBox(TimingAccount(profile: Self.defaultProfile(for: device.name))) : nil
        }
        if timing != nil && !inv.flag("timing") {
            throw CLIError.usage("--profile names the reader --timing estimates; add --timing")
        }
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
        let timed = timing
        let observer: ((RFTraceEvent) -> Void)? =
            tracer == nil && timed == nil
            ? nil
            : { event in
                tracer?.handle(event)
                timed?.account.note(event)
            }
        frontend = InstrumentedFrontend(recorder ?? device.frontend, observer: observer)
    }

    /// The reader `--timing` estimates when `--profile` does not say: the PN532's for `pn532:`, an ACR122U's or
    /// ACR1252U's when the PC/SC reader's name says so, a generic PC/SC reader's for other readers, the iPhone's
    /// for the simulated field.
    static func defaultProfile(for device: String) -> ReaderProfile {
        let name = device.lowercased()
        if name.hasPrefix("pn532") { return .pn532UART }
        if name.hasPrefix("pcsc") {
            if name.contains("acr122") { return .acr122u }
            if name.contains("acr1252") { return .acr1252u }
            return .genericPCSC
        }
        return .iPhone
    }

    /// The `--timing` report: one line with the total and its parts, one naming the profile's source.
    static func timingReport(_ a: TimingAccount) -> String {
        let ms = { (d: NFCDuration) in String(format: "%.1f ms", Double(d.nanoseconds) / 1e6) }
        return "timing on \(a.profile.summary) (estimated): \(ms(a.total)) = air \(ms(a.air.duration)) + reader "
            + "\(ms(a.reader)) + host \(ms(a.host)) (\(a.activations) activation\(a.activations == 1 ? "" : "s"), "
            + "\(a.exchanges) exchange\(a.exchanges == 1 ? "" : "s"))\n# profile \(a.profile.name): \(a.profile.source)\n"
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
        if let timing { Console.err(Self.timingReport(timing.account)) }
        recorder?.flush()
        device.close()
    }
}
