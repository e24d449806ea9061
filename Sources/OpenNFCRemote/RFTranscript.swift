internal import Foundation
package import OpenNFCBytes
package import OpenNFCRF

/// A recording of everything a program asked of a frontend and what came back (docs/FIELD.md, "Transcripts"):
/// written by ``RecordingFrontend``, played back by ``ReplayFrontend``.
///
/// The file is JSON: `format` `"opencorenfc-rf-transcript"`, `version` 1, `device` (as the program named it),
/// `capabilities`, and `events`, one per line, each with `t` (microseconds since the recording started, on the
/// device's clock) and `d` (how long the call took), and `op`:
/// - `poll`: `request` (per technology: NFC-A wake-up, NFC-B AFI, FeliCa system code, request code and time slots,
///   ISO 15693 AFI and slots), `targets`, and `repeat` when the same answer came several times in a row;
/// - `authenticate`: `authentication` (MIFARE Classic block, key type, key), then `error` when it failed;
/// - `activate`: `handle`, `isoDEP`, then `target` or `error`;
/// - `exchange`: `frame` (hex), then `response` (`{"frame":hex}`, `{"ack":true}`, `{"nak":n}`) or `error`;
/// - `deactivate`.
///
/// `activate`, `exchange` and `deactivate` events also carry `air`: the frames the call put on the air by the
/// air-time model (docs/TIMING.md), each `{"to": "card"|"reader", "gap": cycles, "air": cycles, "what": text}` with
/// the gap the standard requires before the frame and the frame's own duration in carrier cycles of fc = 13.56 MHz
/// (the unit of Proxmark3 trace timestamps). Files without it read as before.
package struct RFTranscript: Sendable, Hashable {
    package static let formatName = "opencorenfc-rf-transcript"
    package static let formatVersion = 1
    /// Largest transcript file read (bytes).
    package static let maxFileBytes = 64 << 20
    /// Largest `t` and `d` read (microseconds, about 285 years): 2^53, the largest integer every JSON reader holds
    /// exactly (RFC 8259 §6), and small enough that the replay's clock (nanoseconds in 64 bits) can move by it.
    package static let maxMicroseconds = 1 << 53

    package enum Operation: Sendable, Hashable {
        case poll(RFPollRequest, [RFTarget], repeats: Int)
        case authenticate(RFAuthentication, RFError?)
        case activate(handle: Int, isoDEP: Bool, Result<RFTarget, RFError>)
        case exchange([UInt8], Result<RFResponse, RFError>)
        case deactivate
    }

    package struct Event: Sendable, Hashable {
        /// Microseconds since the recording started, and the call's duration.
        package var time: UInt64
        package var duration: UInt64
        package var operation: Operation
        /// The frames the call put on the air (empty for polls and authentications, and in older files).
        package var air: [OpenNFCRF.AirFrame]

        package init(time: UInt64, duration: UInt64, operation: Operation, air: [OpenNFCRF.AirFrame] = []) {
            self.time = time
            self.duration = duration
            self.operation = operation
            self.air = air
        }
    }

    package var device: String
    package var capabilities: RFCapabilities
    package var events: [Event]

    package init(device: String, capabilities: RFCapabilities, events: [Event] = []) {
        self.device = device
        self.capabilities = capabilities
        self.events = events
    }

    // MARK: encoding

    package static func json(_ e: Event) -> JSONValue {
        var m: [(String, JSONValue)] = [("t", .int(Int(e.time))), ("d", .int(Int(e.duration)))]
        switch e.operation {
        case .poll(let request, let targets, let repeats):
            m += [
                ("op", .string("poll")), ("request", RFWire.pollRequest(request)),
                ("targets", .array(targets.map(RFWire.target))),
            ]
            if repeats > 1 { m.append(("repeat", .int(repeats))) }
        case .authenticate(let a, let e):
            m += [("op", .string("authenticate")), ("authentication", RFWire.authentication(a))]
            if let e { m.append(("error", RFWire.error(e))) }
        case .activate(let h, let iso, let r):
            m += [("op", .string("activate")), ("handle", .int(h)), ("isoDEP", .bool(iso))]
            switch r {
            case .success(let t): m.append(("target", RFWire.target(t)))
            case .failure(let e): m.append(("error", RFWire.error(e)))
            }
        case .exchange(let f, let r):
            m += [("op", .string("exchange")), ("frame", .string(Hex.encode(f)))]
            switch r {
            case .success(let x): m.append(("response", RFWire.response(x)))
            case .failure(let e): m.append(("error", RFWire.error(e)))
            }
        case .deactivate:
            m.append(("op", .string("deactivate")))
        }
        if !e.air.isEmpty { m.append(("air", .array(e.air.map(airFrame)))) }
        return .object(m)
    }

    package static func airFrame(_ f: OpenNFCRF.AirFrame) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("to", .string(f.event == .reader ? "card" : "reader")), ("gap", .int(Int(f.gap.cycles))),
            ("air", .int(Int(f.air.cycles))), ("what", .string(f.label)),
        ]
        // The model's frames carry bytes only where the command and the answer do not say them (S(WTX)).
        if !f.bytes.isEmpty { m.append(("bytes", .string(Hex.encode(f.bytes)))) }
        return .object(m)
    }

    package static func airFrames(_ v: JSONValue?, _ path: String) throws(RFWire.Problem) -> [OpenNFCRF.AirFrame] {
        guard let v else { return [] }
        guard let list = v.arrayValue else { throw RFWire.Problem(path, "expected an array") }
        var frames: [OpenNFCRF.AirFrame] = []
        for (i, f) in list.enumerated() {
            let p = "\(path)[\(i)]"
            let direction: AirFrame.Event
            switch f["to"]?.stringValue {
            case "card": direction = .reader
            case "reader": direction = .tag
            default: throw RFWire.Problem("\(p).to", "expected \"card\" or \"reader\"")
            }
            let gap = try RFWire.int(f["gap"], "\(p).gap", 0...maxMicroseconds)
            let air = try RFWire.int(f["air"], "\(p).air", 0...maxMicroseconds)
            var bytes: [UInt8] = []
            if let text = f["bytes"]?.stringValue {
                guard let b = try? Hex.decode(text) else { throw RFWire.Problem("\(p).bytes", "expected hex digits") }
                bytes = b
            }
            frames.append(
                OpenNFCRF.AirFrame(
                    direction, bytes: bytes, gap: AirTime(cycles: UInt64(gap)), air: AirTime(cycles: UInt64(air)),
                    label: f["what"]?.stringValue ?? ""))
        }
        return frames
    }

    /// The file's text: the header members indented, then one event per line.
    package var text: String {
        var s = "{\n"
        s += "  \"format\": \(JSONValue.string(Self.formatName).compact),\n"
        s += "  \"version\": \(Self.formatVersion),\n"
        s += "  \"device\": \(JSONValue.string(device).compact),\n"
        s += "  \"capabilities\": \(RFWire.capabilities(capabilities).compact),\n"
        s += "  \"events\": ["
        s +=
            events.isEmpty ? "" : "\n" + events.map { "    " + Self.json($0).compact }.joined(separator: ",\n") + "\n  "
        s += "]\n}\n"
        return s
    }

    // MARK: decoding

    /// Parses a transcript; errors name the line and column (JSON) or the event and member.
    package init(parsing text: String, file: String) throws(RFWire.Problem) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: text, maxDepth: 16)
        } catch {
            throw RFWire.Problem(file, "not JSON: \(error)")
        }
        guard root["format"]?.stringValue == Self.formatName else {
            throw RFWire.Problem("\(file): format", "expected \"\(Self.formatName)\"")
        }
        guard root["version"]?.intValue == Self.formatVersion else {
            throw RFWire.Problem("\(file): version", "this build reads version \(Self.formatVersion)")
        }
        device = root["device"]?.stringValue ?? ""
        capabilities = try RFWire.capabilities(root["capabilities"], "\(file): capabilities")
        guard let list = root["events"]?.arrayValue else {
            throw RFWire.Problem("\(file): events", "expected an array")
        }
        events = []
        for (i, v) in list.enumerated() {
            let p = "\(file): events[\(i)]"
            let t = UInt64(try RFWire.int(v["t"], "\(p).t", 0...Self.maxMicroseconds))
            let d = UInt64(try RFWire.int(v["d"], "\(p).d", 0...Self.maxMicroseconds))
            let op: Operation
            switch v["op"]?.stringValue {
            case "poll":
                guard let a = v["targets"]?.arrayValue else {
                    throw RFWire.Problem("\(p).targets", "expected an array")
                }
                var targets: [RFTarget] = []
                for (j, x) in a.enumerated() { targets.append(try RFWire.target(x, "\(p).targets[\(j)]")) }
                let r = v["repeat"] == nil ? 1 : try RFWire.int(v["repeat"], "\(p).repeat", 1...Int(Int32.max))
                op = .poll(try RFWire.pollRequest(v["request"], "\(p).request"), targets, repeats: r)
            case "authenticate":
                op = .authenticate(
                    try RFWire.authentication(v["authentication"], "\(p).authentication"),
                    v["error"] == nil ? nil : try RFWire.error(v["error"], "\(p).error"))
            case "activate":
                guard let iso = v["isoDEP"]?.boolValue else {
                    throw RFWire.Problem("\(p).isoDEP", "expected true or false")
                }
                let h = try RFWire.int(v["handle"], "\(p).handle", 0...Int(Int32.max))
                op = .activate(
                    handle: h, isoDEP: iso,
                    v["error"] != nil
                        ? .failure(try RFWire.error(v["error"], "\(p).error"))
                        : .success(try RFWire.target(v["target"], "\(p).target")))
            case "exchange":
                let f = try RFWire.bytes(v["frame"], "\(p).frame", max: 65_536)
                op = .exchange(
                    f,
                    v["error"] != nil
                        ? .failure(try RFWire.error(v["error"], "\(p).error"))
                        : .success(try RFWire.response(v["response"], "\(p).response", maxFrame: 65_536)))
            case "deactivate": op = .deactivate
            default: throw RFWire.Problem("\(p).op", "expected poll, authenticate, activate, exchange or deactivate")
            }
            events.append(Event(time: t, duration: d, operation: op, air: try Self.airFrames(v["air"], "\(p).air")))
        }
    }

    /// Reads a transcript file.
    package static func read(path: String) throws(RFWire.Problem) -> RFTranscript {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RFWire.Problem(path, "cannot read: \(error.localizedDescription)")
        }
        guard data.count <= maxFileBytes else { throw RFWire.Problem(path, "larger than \(maxFileBytes) bytes") }
        guard let text = String(data: data, encoding: .utf8) else { throw RFWire.Problem(path, "not UTF-8 text") }
        return try RFTranscript(parsing: text, file: path)
    }

    /// Writes the file through the project's one writer (``FileAccess/write(_:to:)``: atomic, links followed).
    package func write(path: String) throws(RFWire.Problem) {
        do {
            try FileAccess.write(Array(text.utf8), to: path)
        } catch {
            throw RFWire.Problem(path, "cannot write: \(error.reason)")
        }
    }
}
