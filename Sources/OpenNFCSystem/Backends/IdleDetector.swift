internal import Dispatch
public import OpenNFCRF

/// Moves a simulated device's virtual clock when nothing else can happen (Core NFC parity issue item 5): a session
/// is waiting for a tag, no callback or completion is running or queued, no command is in flight, and the app has
/// made no API call for at least one second of wall time (so the app's own short timers — Apple's sample waits
/// 500 ms before `restartPolling()` — run first). Then the clock jumps to its next due timer, so a 60 s timeout
/// happens at once while an app busy between awaits or inside callbacks is never cut short.
public enum IdleDetector {
    /// Wall time without API calls before the clock may jump.
    public static let quietSpell: UInt64 = 1_000_000_000

    /// Checks every 100 ms of wall time, for as long as the system lives.
    public static func start(system: NFCSystem, clock: VirtualClock) {
        let queue = DispatchQueue(label: "OpenCoreNFC.IdleDetector")
        schedule(queue: queue, system: system, clock: clock)
    }

    private static func schedule(queue: DispatchQueue, system: NFCSystem, clock: VirtualClock) {
        queue.asyncAfter(deadline: .now() + .milliseconds(100)) { [weak system] in
            guard let system else { return }
            if system.isIdle { system.synchronized { _ = clock.advanceToNextTimer() } }
            schedule(queue: queue, system: system, clock: clock)
        }
    }
}

extension NFCSystem {
    /// The idle rule: a session waiting, nothing running, and a quiet spell of wall time.
    public var isIdle: Bool {
        guard isQuiescent, wallTimeSinceLastAPICall >= IdleDetector.quietSpell else { return false }
        return perform {
            guard let id = arbiter.active, let s = sessions[id] else { return false }
            return s.connected == nil || s.awaitingRestart
        }
    }
}
