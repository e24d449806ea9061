import Foundation
import OpenNFCPCSC
import OpenNFCSimulation
import OpenNFCVPCD

/// Shared set-up of the end-to-end tests: the real pcscd with the vsmartcard vpcd driver (started by `scripts/test`,
/// which exports `OPENNFC_E2E_PCSCD=1`), and our card server in process on the two virtual slots.
enum EndToEnd {
    /// True when scripts/test (or `scripts/pcscd up`) started pcscd for these tests.
    static let enabled = ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1"

    static let readers = ["Virtual PCD 00 00", "Virtual PCD 00 01"]
    static let ports: [UInt16] = [35963, 35964]
}

/// A cross-process lock on the two vpcd slots, so that these tests and the CLI's `opennfc emulate` tests never put
/// two cards in one slot (vpcd takes one card per slot). Blocks until the other holder is done.
final class SlotLock {
    private let fd: Int32

    init() {
        fd = open("/tmp/opennfc-vpcd-slots.lock", O_CREAT | O_RDWR, 0o666)
        if fd >= 0 { _ = flock(fd, LOCK_EX) }
    }

    deinit {
        if fd >= 0 {
            _ = flock(fd, LOCK_UN)
            close(fd)
        }
    }
}

/// A virtual tag served on one vpcd slot by an in-process ``VPCDServer`` on its own thread.
final class EmulatedSlot: @unchecked Sendable {
    let slot: Int
    let server: VPCDServer
    let tag: any VirtualTag
    private let finished = DispatchSemaphore(value: 0)
    private(set) var failure: VPCDError?

    var reader: String { EndToEnd.readers[slot] }

    /// Connects the card and waits (at most 5 s) until pcscd reports it present.
    init(
        _ tag: any VirtualTag, slot: Int = 0, faults: (@Sendable ([UInt8]) -> VPCDFault)? = nil
    ) throws {
        self.slot = slot
        self.tag = tag
        server = VPCDServer(card: VPCDCard(tag: tag), port: EndToEnd.ports[slot], faults: faults)
        try server.connect()
        let thread = Thread { [self] in
            do { try server.run() } catch { failure = error as? VPCDError }
            finished.signal()
        }
        thread.name = "vpcd slot \(slot)"
        thread.start()
        let context = try PCSCContext()
        guard try context.waitForCard(on: reader, timeoutMilliseconds: 5000) != nil else {
            server.stop()
            throw PCSCError(.timeout, function: "test", detail: "pcscd did not see the card on '\(reader)' in 5 s")
        }
    }

    /// True once the server returned (the card left).
    func hasLeft(timeoutSeconds: Double = 5) -> Bool {
        finished.wait(timeout: .now() + timeoutSeconds) == .success
    }

    /// Takes the card off the reader and waits until pcscd has seen it go.
    func remove() throws {
        server.stop()
        _ = hasLeft()
        _ = try PCSCContext().waitForRemoval(on: reader, timeoutMilliseconds: 5000)
    }

    deinit { server.stop() }
}
