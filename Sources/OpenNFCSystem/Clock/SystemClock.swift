package import OpenNFCRF

/// A clock the system can set timers on: the session deadline and anything else that waits.
///
/// ``VirtualClock`` is one (timers fire when a test or the idle detector advances it); ``WallClock`` is the other
/// (timers fire on a private dispatch queue in real time), for PC/SC readers.
package protocol SystemClock: NFCClock {
    associatedtype Token: Sendable
    /// Runs `action` once `delay` has passed on this clock.
    func schedule(after delay: NFCDuration, _ action: @escaping @Sendable () -> Void) -> Token
    func cancel(_ token: Token)
}

extension VirtualClock: SystemClock {}

/// A type-erased timer handle, so the driver can keep tokens of any clock.
struct TimerHandle: Sendable {
    let cancel: @Sendable () -> Void
}

extension SystemClock {
    func timer(after delay: NFCDuration, _ action: @escaping @Sendable () -> Void) -> TimerHandle {
        let token = schedule(after: delay, action)
        return TimerHandle(cancel: { [self] in self.cancel(token) })
    }
}
