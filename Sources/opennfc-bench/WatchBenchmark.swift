import Foundation
import OpenNFCBytes
import OpenNFCTestSupport

/// `opennfc-bench watch [--tags N] [--ndef]`: one reader station (`opennfc watch`, the binary beside this one) over a
/// simulated reader presenting N tags, publishing to a private mosquitto on loopback with QoS 1 and the journal, and a
/// `mosquitto_sub` subscriber. Prints the events per second the station sustains end to end (first tag to the last
/// event at the subscriber) and the latency from a tag's arrival (the event's `time`) to the subscriber receiving it.
///
/// Options: `--tags <n>` (default 2000; 2 events each), `--ndef` (read the NDEF message too; default UID only).
let watchBenchmark = BenchMode(
    name: "watch",
    summary: "Reader station: events/s through journal + MQTT QoS 1, latency tag→subscriber (needs mosquitto).",
    run: runWatchBenchmark
)

func runWatchBenchmark(_ args: [String]) throws -> JSONValue {
    var tags = 2000
    var ndef = false
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--tags":
            guard i + 1 < args.count, let v = Int(args[i + 1]), v > 0 else {
                throw BenchError(description: "--tags needs a positive count")
            }
            tags = v
            i += 2
        case "--ndef":
            ndef = true
            i += 1
        default:
            throw BenchError(description: "unknown option '\(args[i])' (use --tags <n>, --ndef)")
        }
    }
    guard Broker.available, FileManager.default.isExecutableFile(atPath: Subscriber.binary) else {
        throw BenchError(description: "needs mosquitto and mosquitto_sub (apt-get install mosquitto mosquitto-clients)")
    }
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let opennfc = here.appendingPathComponent("opennfc").path
    guard FileManager.default.isExecutableFile(atPath: opennfc) else {
        throw BenchError(description: "build opennfc beside opennfc-bench first (swift build -c release)")
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("opennfc-bench-watch-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let tag = dir.appendingPathComponent("tag.json").path
    let made = try Tool.run(
        opennfc,
        ["tag", "new", "--chip", "ntag215", "--uid", "04A1B2C3D4E5F6", "--uri", "https://example.org/", "-o", tag])
    guard made.status == 0 else { throw BenchError(description: "tag new failed: \(made.stderr)") }

    let broker = try Broker()
    try broker.start()
    defer { broker.stop() }
    let sub = try Subscriber(broker: broker, topic: "bench/#")
    // Each received line is stamped with the wall clock as it arrives.
    let received = ReceiveClock(sub.lines)
    let expected = 2 * tags + 2
    let station = try LineProcess(
        opennfc,
        [
            "watch", "--device", "sim:\(tag)", "--repeat", String(tags), "--station-id", "bench",
            "--mqtt", "\(broker.url)/bench", "--journal", dir.appendingPathComponent("journal").path,
        ] + (ndef ? [] : ["--uid-only"]))
    defer {
        station.signal(SIGTERM)
        _ = station.waitForExit(seconds: 30)
    }
    guard received.waitFor(events: expected, seconds: 600) else {
        throw BenchError(description: "the subscriber got \(received.count) of \(expected) events in 600 s")
    }
    let stamps = received.stamps
    var latencies: [Double] = []
    var first = Double.infinity
    var last = 0.0
    for (payload, at) in stamps {
        guard let j = try? JSONValue(parsing: payload), let t = j["time"]?.stringValue, let sent = parseTime(t) else {
            continue
        }
        latencies.append((at - sent) * 1000)
        first = min(first, sent)
        last = max(last, at)
    }
    latencies.sort()
    func pct(_ p: Double) -> Double {
        latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(p * Double(latencies.count)))]
    }
    let seconds = last - first
    return .object([
        ("mode", .string("watch")),
        ("tags", .int(tags)),
        ("events", .int(latencies.count)),
        ("ndef", .bool(ndef)),
        ("qos", .int(1)),
        ("journal_fsync_per_event", .bool(true)),
        ("seconds", .double((seconds * 1000).rounded() / 1000)),
        ("events_per_second", .double((Double(latencies.count) / seconds).rounded())),
        ("latency_ms_p50", .double((pct(0.5) * 10).rounded() / 10)),
        ("latency_ms_p99", .double((pct(0.99) * 10).rounded() / 10)),
        ("latency_ms_max", .double(((latencies.last ?? 0) * 10).rounded() / 10)),
    ])
}

/// `2026-12-02T05:40:00.123Z` as seconds since 1970.
private func parseTime(_ s: String) -> Double? {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return f.date(from: s)?.timeIntervalSince1970
}

/// Stamps each event line of a subscriber with the wall-clock time it was seen.
private final class ReceiveClock: @unchecked Sendable {
    private let condition = NSCondition()
    private var seen: [(String, Double)] = []
    private let lines: LineProcess

    init(_ lines: LineProcess) {
        self.lines = lines
        let t = Thread { [self] in
            var index = 0
            while true {
                let ok = lines.wait(seconds: 1) { out, _ in out.count > index }
                let now = Date().timeIntervalSince1970
                let out = lines.stdoutLines
                condition.lock()
                while index < out.count {
                    let line = out[index]
                    index += 1
                    if line.contains("/events/"), let sp = line.firstIndex(of: " ") {
                        seen.append((String(line[line.index(after: sp)...]), now))
                    }
                }
                condition.broadcast()
                condition.unlock()
                if !ok && !lines.process.isRunning { return }
            }
        }
        t.start()
    }

    var count: Int { condition.withLock { seen.count } }
    var stamps: [(String, Double)] { condition.withLock { seen } }

    func waitFor(events n: Int, seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while seen.count < n {
            if !condition.wait(until: deadline) { return seen.count >= n }
        }
        return true
    }
}
