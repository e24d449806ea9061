internal import Foundation
internal import Synchronization

/// A flag that ends the station's loops, with a bounded wait that returns early when the flag is raised (for back-off
/// between attempts to reopen a device): waits on an observable condition, never a blind sleep.
package final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    private let condition = NSCondition()

    package init() {}

    package var raised: Bool { flag.load(ordering: .acquiring) }

    package func raise() {
        condition.lock()
        flag.store(true, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until raised or `seconds` passed; true when raised.
    @discardableResult
    package func wait(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !raised {
            if !condition.wait(until: deadline) { break }
        }
        return raised
    }
}
