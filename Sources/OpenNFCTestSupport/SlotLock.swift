#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The cross-process lock on the two vsmartcard vpcd slots, so that the end-to-end tests, the CLI's
/// `opennfc emulate` tests and `opennfc-bench pcsc` never put two cards in one slot (vpcd takes one card per slot).
/// Blocks until the other holder is done; released when the value is deinitialised (or the process exits).
package final class SlotLock {
    /// The lock file every holder opens.
    package static let path = "/tmp/opennfc-vpcd-slots.lock"
    private let fd: Int32

    package init() {
        fd = open(Self.path, O_CREAT | O_RDWR, 0o666)
        if fd >= 0 { _ = flock(fd, LOCK_EX) }
    }

    deinit {
        if fd >= 0 {
            _ = flock(fd, LOCK_UN)
            close(fd)
        }
    }
}
