internal import Dispatch
package import OpenNFCRF
internal import Synchronization

/// Real time, for hardware readers: `now` is the monotonic uptime and timers fire on a private serial queue.
package final class WallClock: SystemClock {
    package final class Token: Sendable {
        fileprivate let cancelled = Atomic<Bool>(false)
    }

    private let queue = DispatchQueue(label: "OpenCoreNFC.WallClock")
    private let origin = DispatchTime.now().uptimeNanoseconds

    package init() {}

    package var now: NFCInstant { NFCInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds &- origin) }

    package func schedule(after delay: NFCDuration, _ action: @escaping @Sendable () -> Void) -> Token {
        let token = Token()
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(min(delay.nanoseconds, UInt64(Int.max))))) {
            if !token.cancelled.load(ordering: .acquiring) { action() }
        }
        return token
    }

    package func cancel(_ token: Token) { token.cancelled.store(true, ordering: .releasing) }
}
