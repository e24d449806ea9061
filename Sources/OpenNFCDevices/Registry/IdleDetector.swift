internal import Dispatch
package import OpenNFCRF
package import OpenNFCSystem

/// Moves a simulated device's virtual clock when nothing else can happen (Core NFC parity issue item 5): a session
/// is waiting for a tag, no callback or completion is running or queued, no command is in flight, and the app has
/// made no API call for at least one second of wall time (so the app's own short timers — Apple's sample waits
/// 500 ms before `restartPolling()` — run first). Then the clock jumps to its next due timer, so a 60 s timeout
/// happens at once while an app busy between awaits or inside callbacks is never cut short.
package enum IdleDetector {
    /// Checks every 100 ms of wall time, for as long as the system lives.
    package static func start(system: NFCSystem, clock: VirtualClock) {
        let queue = DispatchQueue(label: "OpenCoreNFC.IdleDetector")
        schedule(queue: queue, system: system, clock: clock)
    }

    /// Between jumps the virtual clock keeps pace with wall time, so an app busy for two seconds between awaits sees
    /// two seconds pass, and a session the app keeps busy still ends at its 60 s limit.
    private static func schedule(queue: DispatchQueue, system: NFCSystem, clock: VirtualClock, last: UInt64? = nil) {
        queue.asyncAfter(deadline: .now() + .milliseconds(100)) { [weak system] in
            guard let system else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            let elapsed = now &- (last ?? now)
            if system.isIdle {
                system.synchronized { _ = clock.advanceToNextTimer() }
            } else if elapsed > 0 {
                system.synchronized { clock.advance(by: NFCDuration(nanoseconds: elapsed)) }
            }
            schedule(queue: queue, system: system, clock: clock, last: now)
        }
    }
}
