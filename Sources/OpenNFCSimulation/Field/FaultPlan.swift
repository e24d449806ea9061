public import OpenNFCRF

/// Faults the ``VirtualField`` injects into the exchanges that follow, to test how readers cope with tags that
/// leave, tear, fall silent or garble their answers.
///
/// Frames are numbered from 1 in the order the field exchanges them after the plan was installed (activations do
/// not count). Faults apply to whichever tag is active at that frame.
public struct FaultPlan: Sendable, Hashable {
    /// One injected fault.
    public enum Fault: Sendable, Hashable {
        /// The tag answers frame `n`, then leaves the field. The next exchange fails with `linkLost`.
        case removeAfter(frame: Int)
        /// The tag leaves the field while executing frame `n`, after committing at most `bytes` bytes of any memory
        /// write (with the chip's real granularity: a Type 2 page is written whole or not at all). The exchange
        /// fails with `linkLost`.
        case tear(frame: Int, afterBytes: Int)
        /// From frame `n` on the tag answers nothing (not even activation) until it is taken out of the field.
        case mute(fromFrame: Int)
        /// Frame `n` fails with `code` (`.transmission` for a corrupted answer, `.timeout` for a lost one). When
        /// `tagProcesses` is true the tag executed the command before its answer was lost, the nastiest case.
        case error(frame: Int, code: RFError.Code, tagProcesses: Bool)
        /// Adds `delay` to the virtual clock before frame `n` is answered, or before every frame when `frame` is nil.
        case latency(NFCDuration, frame: Int?)
    }

    /// The faults, in any order; several may hit the same frame.
    public var faults: [Fault]

    public init(_ faults: [Fault] = []) { self.faults = faults }

    /// No faults.
    public static let none = FaultPlan()

    /// Extra latency for frame `n`.
    func latency(for n: Int) -> NFCDuration {
        var total = NFCDuration.zero
        for case .latency(let d, let f) in faults where f == nil || f == n { total = total + d }
        return total
    }

    func removesAfter(_ n: Int) -> Bool {
        faults.contains { if case .removeAfter(let f) = $0 { return f == n } else { return false } }
    }

    func tear(at n: Int) -> Int? {
        for case .tear(let f, let bytes) in faults where f == n { return max(0, bytes) }
        return nil
    }

    func mutes(at n: Int) -> Bool {
        faults.contains { if case .mute(let f) = $0 { return n >= f } else { return false } }
    }

    func error(at n: Int) -> (code: RFError.Code, tagProcesses: Bool)? {
        for case .error(let f, let code, let processes) in faults where f == n { return (code, processes) }
        return nil
    }
}
