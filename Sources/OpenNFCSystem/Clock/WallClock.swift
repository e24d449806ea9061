internal import Dispatch
public import OpenNFCRF
internal import Synchronization

/// Real time, for hardware readers: `now` is the monotonic uptime and timers fire on a private serial queue.
public final class WallClock: SystemClock {
    public final class Token: Sendable {
        fileprivate let cancelled = Atomic<Bool>(false)
    }

    private let queue = DispatchQueue(label: "OpenCoreNFC.WallClock")
    private let origin = DispatchTime.now().uptimeNanoseconds

    public init() {}

    public var now: NFCInstant { NFCInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds &- origin) }

    public func schedule(after delay: NFCDuration, _ action: @escaping @Sendable () -> Void) -> Token {
        let token = Token()
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(min(delay.nanoseconds, UInt64(Int.max))))) {
            if !token.cancelled.load(ordering: .acquiring) { action() }
        }
        return token
    }

    public func cancel(_ token: Token) { token.cancelled.store(true, ordering: .releasing) }
}
