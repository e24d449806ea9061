internal import Foundation

/// A plain lock for the small shared state of sockets and connections.
final class SocketLock: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Sets `flag` and returns true the first time; false once it is set (a close that must run once).
    func firstTime(_ flag: inout Bool) -> Bool {
        withLock { () -> Bool in
            if flag { return false }
            flag = true
            return true
        }
    }
}
