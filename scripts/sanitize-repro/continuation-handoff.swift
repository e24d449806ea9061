// ThreadSanitizer and Swift concurrency on Linux (docs/RELIABILITY.md, "Sanitizers"): an object made on a dispatch
// queue, handed to an awaiting task through CheckedContinuation.resume, then read by that task. resume happens before
// the task continues, so there is no race; ThreadSanitizer (Swift 6.3.1, Linux) reports one anyway.
//
//   swiftc -swift-version 6 -sanitize=thread -parse-as-library -o /tmp/handoff scripts/sanitize-repro/continuation-handoff.swift
//   /tmp/handoff    # prints "total 4000" and, most runs, "WARNING: ThreadSanitizer: data race"
import Dispatch

final class Payload: @unchecked Sendable {
    var bytes: [UInt8]
    init(_ b: [UInt8]) { bytes = b }
}
struct Unchecked<T>: @unchecked Sendable { let value: T }

let queue = DispatchQueue(label: "system")
func read(_ done: @escaping @Sendable (Payload) -> Void) {
    queue.async { done(Payload([1, 2, 3])) }
}
func readAsync() async -> Payload {
    let box = await withCheckedContinuation { (c: CheckedContinuation<Unchecked<Payload>, Never>) in
        read { c.resume(returning: Unchecked(value: $0)) }
    }
    return box.value
}
@main struct Main {
    static func main() async {
        var total = 0
        await withTaskGroup(of: Int.self) { g in
            for _ in 0..<8 {
                g.addTask {
                    var t = 0
                    for _ in 0..<500 { t += Int(await readAsync().bytes[0]) }
                    return t
                }
            }
            for await t in g { total += t }
        }
        print("total", total)
    }
}
