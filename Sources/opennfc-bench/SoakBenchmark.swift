import Foundation
import OpenNFCBytes
import OpenNFCDemo
import OpenNFCTestSupport

/// `opennfc-bench soak --seed S --sessions N`: the seeded soak of sessions and faults
/// (``Soak`` in OpenNFCDemo, docs/RELIABILITY.md "Soak"). Prints the sessions, scenarios, invariant checks, how the
/// sessions ended, what the world did, the rate (release build), and every invariant violation (none expected).
///
/// Options: `--seed <n>` (default 1), `--sessions <n>` (default 10,000).
let soakBenchmark = BenchMode(
    name: "soak",
    summary: "Seeded soak: random sessions, tags, faults, Cancel, timeouts; invariants checked after each.",
    run: runSoakBenchmark
)

func runSoakBenchmark(_ args: [String]) throws -> JSONValue {
    var seed: UInt64 = 1
    var sessions = 10_000
    var i = 0
    while i < args.count {
        let value = i + 1 < args.count ? args[i + 1] : ""
        switch args[i] {
        case "--seed":
            guard let v = UInt64(value) else { throw BenchError(description: "--seed needs a whole number") }
            seed = v
        case "--sessions":
            guard let v = Int(value), v > 0 else { throw BenchError(description: "--sessions needs a positive count") }
            sessions = v
        default:
            throw BenchError(description: "unknown option '\(args[i])' (use --seed <n>, --sessions <n>)")
        }
        i += 2
    }
    var rng = SeededGenerator(seed: seed)
    let start = DispatchTime.now().uptimeNanoseconds
    let r = Soak.run(sessions: sessions, using: &rng)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return .object([
        ("mode", .string("soak")),
        ("seed", .int(Int(truncatingIfNeeded: seed))),
        ("sessions", .int(r.sessions)),
        ("scenarios", .int(r.scenarios)),
        ("invariant_checks", .int(r.invariantChecks)),
        ("violations", .int(r.violations.count)),
        ("first_violations", .array(r.violations.prefix(20).map { .string($0) })),
        ("seconds", .double(seconds)),
        ("sessions_per_second", .int(seconds > 0 ? Int(Double(r.sessions) / seconds) : 0)),
        ("endings", .object(r.endings.sorted { $0.key < $1.key }.map { ("\($0.key)", .int($0.value)) })),
        ("actions", .object(r.actions.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
        ("messages_read", .int(r.messagesRead)),
        ("writes_completed", .int(r.writesCompleted)),
        ("tag_commands_answered", .int(r.tagCommandsAnswered)),
    ])
}
