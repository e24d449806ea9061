internal import Foundation

/// A plain lock for the small shared state of sockets and connections.
final class SocketLock: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
