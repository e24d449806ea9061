internal import Foundation
internal import OpenNFCPCSC
package import OpenNFCSimulation
package import OpenNFCVPCD

/// The end-to-end set-up: the real pcscd with the vsmartcard vpcd driver (started by `scripts/test`, which exports
/// `OPENNFC_E2E_PCSCD=1`), and our card server in process on the two virtual slots.
package enum EndToEnd {
    /// True when scripts/test (or `scripts/pcscd up`) started pcscd for these tests.
    package static let enabled = ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1"
    /// Why the end-to-end suites are skipped when ``enabled`` is false.
    package static let skipReason =
        "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running (scripts/test starts it; or run "
        + "`scripts/pcscd up` and export OPENNFC_E2E_PCSCD=1)"

    package static let readers = ["Virtual PCD 00 00", "Virtual PCD 00 01"]
    package static let ports: [UInt16] = [35963, 35964]
}

/// A virtual tag served on one vpcd slot by an in-process ``VPCDServer`` on its own thread.
package final class EmulatedSlot: @unchecked Sendable {
    package let slot: Int
    package let server: VPCDServer
    package let tag: any VirtualTag
    private let finished = DispatchSemaphore(value: 0)
    package private(set) var failure: VPCDError?

    package var reader: String { EndToEnd.readers[slot] }

    /// Connects the card and waits (at most 5 s) until pcscd reports it present.
    package init(
        _ tag: any VirtualTag, slot: Int = 0, forms: VPCDCard.ReaderForms = .acs,
        faults: (@Sendable ([UInt8]) -> VPCDFault)? = nil
    ) throws {
        self.slot = slot
        self.tag = tag
        server = VPCDServer(card: VPCDCard(tag: tag, forms: forms), port: EndToEnd.ports[slot], faults: faults)
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
    package func hasLeft(timeoutSeconds: Double = 5) -> Bool {
        finished.wait(timeout: .now() + timeoutSeconds) == .success
    }

    /// Takes the card off the reader and waits until pcscd has seen it go.
    package func remove() throws {
        server.stop()
        _ = hasLeft()
        _ = try PCSCContext().waitForRemoval(on: reader, timeoutMilliseconds: 5000)
    }

    deinit { server.stop() }
}

/// A virtual tag served to a vpcd port of any pcscd (``PrivatePCSCD`` too) by an in-process ``VPCDServer`` on its own
/// thread. Unlike ``EmulatedSlot`` it does not ask pcscd whether the card arrived: the test watches for that itself.
package final class ServedCard: @unchecked Sendable {
    package let server: VPCDServer
    private let finished = DispatchSemaphore(value: 0)

    package init(_ tag: any VirtualTag, port: UInt16, forms: VPCDCard.ReaderForms = .acs) throws {
        server = VPCDServer(card: VPCDCard(tag: tag, forms: forms), port: port)
        try server.connect()
        let thread = Thread { [server, finished] in
            try? server.run()
            finished.signal()
        }
        thread.name = "vpcd card :\(port)"
        thread.start()
    }

    /// Takes the card off the reader (closes its connection) and waits (at most 5 s) for the server to return.
    package func remove() {
        server.stop()
        _ = finished.wait(timeout: .now() + 5)
    }

    deinit { server.stop() }
}
