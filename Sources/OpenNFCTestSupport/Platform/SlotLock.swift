internal import OpenNFCPCSC

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
        // Leave the slots empty for the next holder: after an emulator exits, pcscd notices the card's removal only on
        // its next poll of the vpcd driver, and a card put in meanwhile would be taken for the old one (its ATR).
        Self.waitUntilVPCDSlotsAreEmpty()
        if fd >= 0 {
            _ = flock(fd, LOCK_UN)
            close(fd)
        }
    }

    /// Blocks (in `SCardGetStatusChange`, at most about 3 s) until no vpcd reader reports a card; returns at once when
    /// pcscd is not running or has no vpcd reader.
    package static func waitUntilVPCDSlotsAreEmpty() {
        guard let context = try? PCSCContext(),
            let readers = try? context.readers().filter({ $0.contains("Virtual PCD") }), !readers.isEmpty,
            var states = try? context.states(of: readers)
        else { return }
        for _ in 0..<30 {
            if !states.contains(where: { $0.hasCard }) { return }
            for i in states.indices { states[i].acknowledge() }
            guard (try? context.waitForChange(&states, timeoutMilliseconds: 100)) != nil else { return }
        }
    }
}
