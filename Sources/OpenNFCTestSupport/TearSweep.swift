package import OpenNFCSimulation

/// Tear sweeps: an operation interrupted after, or torn inside, every one of its frames in turn (the tag taken away,
/// or a write committing only its first bytes: ``FaultPlan``), each time on a fresh tag, until the operation runs
/// through without reaching the fault — then every frame has been tried.
package enum TearSweep {
    /// The faults tried at frame `n`: the tag taken away after it, then torn after each of `tornAfter` bytes.
    package static func faults(_ n: Int, tornAfter bytes: [Int] = [0]) -> [FaultPlan.Fault] {
        [.removeAfter(frame: n)] + bytes.map { .tear(frame: n, afterBytes: $0) }
    }

    /// Calls `body(n, fault)` for every frame `n` of `frames` and every fault of `faults(n)`, in order, until `body`
    /// returns true (its attempt completed before the fault: the sweep is over). False when `frames` ran out first:
    /// the operation never completed, which the caller reports.
    package static func run(
        frames: some Sequence<Int>, faults: (Int) -> [FaultPlan.Fault],
        _ body: (_ n: Int, _ fault: FaultPlan.Fault) throws -> Bool
    ) rethrows -> Bool {
        for n in frames {
            for fault in faults(n) where try body(n, fault) { return true }
        }
        return false
    }

    /// Runs `operation` with `fault` planned on `field` (cleared afterwards): the error it threw, and whether it
    /// completed with fewer than `n` frames on the field, so that the fault at frame `n` lay past its end.
    package static func attempt<E: Error>(
        on field: VirtualField, frame n: Int, fault: FaultPlan.Fault, _ operation: () throws(E) -> Void
    ) -> (error: E?, pastTheEnd: Bool) {
        field.faultPlan = FaultPlan([fault])
        var failure: E?
        do {
            try operation()
        } catch {
            failure = error
        }
        let sent = field.framesExchanged
        field.faultPlan = .none
        return (failure, failure == nil && sent < n)
    }
}
