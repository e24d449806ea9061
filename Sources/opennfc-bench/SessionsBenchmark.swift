import Foundation
import OpenCoreNFCTesting
import OpenNFCBytes
import OpenNFCDemo

/// `opennfc-bench sessions`: complete simulated NDEF read sessions per second on the simulated iPhone.
///
/// Each session is a real `NFCNDEFReaderSession` in read-only mode with `invalidateAfterFirstRead`: begin → the system
/// polls, identifies the NTAG215 on the phone (GET_VERSION), reads its NDEF through the Type 2 procedure over the
/// virtual field → `didDetectNDEFs` → `didInvalidateWithError` (204), all callbacks on the session queue; the next
/// session is begun from the previous one's invalidation. Target: at least 100,000 per second on one core (release).
/// Wall-clock time, so the load average is printed beside it (docs/PERFORMANCE.md).
///
/// Options: `--sessions <n>` per round (default 20,000), `--rounds <n>` (default 5; the best round is reported).
let sessionsBenchmark = BenchMode(
    name: "sessions",
    summary: "Complete simulated NDEF read sessions per second (begin → read → 204).",
    run: runSessionsBenchmark
)

func runSessionsBenchmark(_ args: [String]) throws -> JSONValue {
    var sessions = 20_000
    var rounds = 5
    var i = 0
    while i < args.count {
        let value = i + 1 < args.count ? Int(args[i + 1]) : nil
        switch args[i] {
        case "--sessions":
            guard let v = value, v > 0 else { throw BenchError(description: "--sessions needs a positive count") }
            sessions = v
        case "--rounds":
            guard let v = value, v > 0 else { throw BenchError(description: "--rounds needs a positive count") }
            rounds = v
        default:
            throw BenchError(description: "unknown option '\(args[i])' (use --sessions <n>, --rounds <n>)")
        }
        i += 2
    }
    var best: SessionsBenchmark.Result?
    for _ in 0..<rounds {
        let r = try SessionsBenchmark.run(sessions: sessions)
        guard r.messagesDelivered == sessions else {
            throw BenchError(description: "only \(r.messagesDelivered) of \(sessions) sessions delivered a message")
        }
        if best.map({ r.sessionsPerSecond > $0.sessionsPerSecond }) ?? true { best = r }
    }
    let b = best!
    return .object([
        ("mode", .string("sessions")),
        ("sessions", .int(b.sessions)),
        ("rounds", .int(rounds)),
        ("best_seconds", .double(b.seconds)),
        ("sessions_per_second", .int(Int(b.sessionsPerSecond))),
        ("target_per_second", .int(100_000)),
        ("load_average", .string(loadAverage())),
    ])
}
