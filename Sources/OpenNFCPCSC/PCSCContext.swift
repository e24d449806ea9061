internal import Foundation

/// A connection to the PC/SC service: reader discovery, card arrival and removal, connections.
///
/// One context per thread of use (pcsc-lite serialises calls on a context); ``cancel()`` is the only method that may
/// be called from another thread, to end a pending ``waitForChange(_:timeoutMilliseconds:)``.
package final class PCSCContext: @unchecked Sendable {
    package let binding: any PCSCBinding
    package let id: PCSCContextID

    /// Establishes a context with the system's PC/SC service (or `binding`, e.g. the in-process fake).
    ///
    /// Throws ``PCSCError/Code/serviceUnavailable`` when pcscd is not running, with advice on starting it.
    package init(binding: (any PCSCBinding)? = nil) throws(PCSCError) {
        let b: any PCSCBinding
        if let binding { b = binding } else { b = try PCSC.systemBinding() }
        self.binding = b
        self.id = try b.establishContext()
    }

    deinit { binding.releaseContext(id) }

    /// The readers the service knows, in its order; empty when there are none.
    package func readers() throws(PCSCError) -> [String] { try binding.listReaders(id) }

    /// The readers, or an error that says why there are none (and names the pn533 kernel driver when it holds an
    /// ACR122U, since pcscd then lists nothing).
    package func requireReaders() throws(PCSCError) -> [String] {
        let list = try readers()
        if !list.isEmpty { return list }
        if let held = KernelNFCDriverCheck.heldReaderMessage() {
            throw PCSCError(.readerHeldByKernelDriver, function: "SCardListReaders", detail: held)
        }
        throw PCSCError(
            .noReaders, function: "SCardListReaders",
            detail:
                "pcscd runs but sees no reader; plug a reader in (and check `lsusb`), or start the virtual reader "
                + "(vsmartcard vpcd) and `opennfc emulate`")
    }

    /// The current state of each reader, without waiting.
    package func states(of readers: [String]) throws(PCSCError) -> [PCSCReaderState] {
        var states = readers.map { PCSCReaderState(reader: $0) }
        try statusChange(&states, timeoutMilliseconds: 0)
        return states
    }

    /// Waits until a reader's state differs from what `states` says the caller knows (a card arrives or leaves, a
    /// reader goes away), at most `timeoutMilliseconds`. Returns true and updates `states` on a change, false on
    /// timeout. Never waits forever: pass a finite timeout, or call ``cancel()`` from another thread.
    package func waitForChange(_ states: inout [PCSCReaderState], timeoutMilliseconds: UInt32) throws(PCSCError) -> Bool
    {
        do {
            try statusChange(&states, timeoutMilliseconds: timeoutMilliseconds)
            return true
        } catch  where error.code == .timeout {
            return false
        }
    }

    /// `SCardGetStatusChange`, the one call every reader-state query and wait of this context goes through.
    ///
    /// pcscd going away under a call can surface as an unrelated status: pcsc-lite 1.9.9 was seen returning
    /// `SCARD_W_SECURITY_VIOLATION` (0x8010006A) both from a pending wait and from the no-wait query that follows it
    /// (docs/RELIABILITY.md, "PC/SC under load and faults"). On any status without a meaning of its own the service
    /// is asked whether it is still there, and when it is not the error says so.
    private func statusChange(_ states: inout [PCSCReaderState], timeoutMilliseconds: UInt32) throws(PCSCError) {
        do {
            try binding.getStatusChange(id, timeoutMilliseconds: timeoutMilliseconds, states: &states)
        } catch  where error.code == .failure {
            let original = error
            do {
                binding.releaseContext(try binding.establishContext())
            } catch  where error.code == .serviceUnavailable {
                throw PCSCError(
                    .serviceUnavailable, function: "SCardGetStatusChange", status: original.status,
                    detail: "the PC/SC service (pcscd) stopped; start it again (`scripts/pcscd up` in this repository) "
                        + "and retry")
            } catch {}
            throw original
        }
    }

    /// Waits until a card sits on `reader` (at most `timeoutMilliseconds`) and returns its ATR, or nil on timeout.
    package func waitForCard(on reader: String, timeoutMilliseconds: UInt32) throws(PCSCError) -> [UInt8]? {
        var states = try states(of: [reader])
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        while true {
            if states[0].eventState.contains(.unknown) {
                throw PCSCError(status: PCSCStatus.unknownReader, function: "SCardGetStatusChange", reader: reader)
            }
            if states[0].hasCard && !states[0].eventState.contains(.mute) { return states[0].atr }
            states[0].acknowledge()
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            let left = UInt32(min(UInt64(UInt32.max - 1), (deadline - now + 999_999) / 1_000_000))
            if try !waitForChange(&states, timeoutMilliseconds: left) { return nil }
        }
    }

    /// Waits until `reader` is empty (at most `timeoutMilliseconds`); returns false on timeout.
    package func waitForRemoval(on reader: String, timeoutMilliseconds: UInt32) throws(PCSCError) -> Bool {
        var states = try states(of: [reader])
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        while true {
            if !states[0].hasCard { return true }
            states[0].acknowledge()
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return false }
            let left = UInt32(min(UInt64(UInt32.max - 1), (deadline - now + 999_999) / 1_000_000))
            if try !waitForChange(&states, timeoutMilliseconds: left) { return false }
        }
    }

    /// Ends a pending wait on this context (`SCardCancel`); safe from any thread.
    package func cancel() { binding.cancel(id) }

    /// Connects to the card on `reader`. `.exclusive` keeps every other application off the card until
    /// ``PCSCCard/disconnect(_:)``: what a reader session wants.
    package func connect(
        reader: String, share: PCSCShareMode = .exclusive, protocols: PCSCProtocols = .any
    ) throws(PCSCError) -> PCSCCard {
        let (card, active) = try binding.connect(id, reader: reader, share: share, protocols: protocols)
        let atr: [UInt8]
        do {
            atr = try binding.status(card).atr
        } catch {
            try? binding.disconnect(card, disposition: .leave)
            throw error
        }
        return PCSCCard(context: self, id: card, reader: reader, activeProtocol: active, atr: atr)
    }
}
