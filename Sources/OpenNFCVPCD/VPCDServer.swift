internal import Foundation
internal import OpenNFCBytes
internal import Synchronization

/// What a test wants to happen to one command (the emulator's fault plan).
package enum VPCDFault: Sendable, Hashable {
    /// Execute and answer normally.
    case none
    /// Leave the reader before executing the command: no answer, the connection closes.
    case leave
    /// Leave the reader while executing the command: memory writes commit at most this many bytes (a Type 2 page is
    /// whole or nothing), no answer, the connection closes.
    case tear(afterBytes: Int)
}

/// Serves a ``VPCDCard`` to the vsmartcard virtual reader (vpcd) inside pcscd, over its socket protocol
/// (vsmartcard `virtualsmartcard/src/vpcd/vpcd.c`).
///
/// | Wire message (2-byte big-endian length + body) | Meaning | Reply |
/// |---|---|---|
/// | length 1, `00` / `01` / `02` | power off / power on / reset | none |
/// | length 1, `04` | send the ATR | one frame: the ATR |
/// | length ≥ 2 | a command APDU | one frame: the response APDU |
///
/// In vpcd's default mode the driver listens (slot 0 on 35963, slot 1 on 35964) and the card connects; one card per
/// slot. Closing the connection is how a card leaves: pcscd then reports it removed, and an APDU in flight returns
/// empty. Each reply goes out in a single `send` and `TCP_QUICKACK` is re-armed after every `recv`: vpcd 0.8 writes
/// length and body separately, and without these the delayed ACK and Nagle's algorithm stall every APDU for ~40 ms.
package final class VPCDServer: @unchecked Sendable {
    package let host: String
    package let port: UInt16
    private let cardValue: VPCDCard
    private let lock = NSLock()
    private let fd = Atomic<Int32>(-1)
    private let stopped = Atomic<Bool>(false)
    private let greeted = Atomic<Bool>(false)
    /// Decides a fault for each command APDU (tests: torn writes, removal mid-APDU). Called on the serving thread.
    package let faults: (@Sendable ([UInt8]) -> VPCDFault)?
    /// Called with each APDU and its response (nil: none was sent), on the serving thread.
    package let trace: (@Sendable (_ command: [UInt8], _ response: [UInt8]?) -> Void)?

    package init(
        card: VPCDCard, host: String = "127.0.0.1", port: UInt16 = 35963,
        faults: (@Sendable ([UInt8]) -> VPCDFault)? = nil,
        trace: (@Sendable (_ command: [UInt8], _ response: [UInt8]?) -> Void)? = nil
    ) {
        self.cardValue = card
        self.host = host
        self.port = port
        self.faults = faults
        self.trace = trace
    }

    /// Runs `body` with exclusive access to the card (e.g. to save the tag while the server runs).
    package func withCard<T>(_ body: (VPCDCard) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(cardValue)
    }

    /// Parses `host:port` (`127.0.0.1:35963`, `localhost:35964`, `[::1]:35963`).
    package static func parseAddress(_ text: String) -> (host: String, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]), port != 0 else { return nil }
        return (host, port)
    }

    /// Connects to the vpcd slot. Throws ``VPCDErrorCode/connectionRefused`` with advice when pcscd is not there.
    package func connect() throws(VPCDError) {
        switch VPCDSocket.connect(host: host, port: port) {
        case .success(let socket):
            fd.store(socket.descriptor, ordering: .sequentiallyConsistent)
        case .failure(.unresolved(let why)):
            throw VPCDError(.badAddress, "cannot resolve '\(host)': \(why)")
        case .failure(.failed(let failure)) where failure.isRefused:
            throw VPCDError(
                .connectionRefused,
                "nothing listens on \(host):\(port): start pcscd with the vsmartcard vpcd driver "
                    + "(`scripts/pcscd up`, or install vsmartcard-vpcd and restart pcscd)")
        case .failure(.failed(let failure)):
            throw VPCDError(.socket, "cannot connect to vpcd at \(host):\(port): \(failure.text)")
        }
    }

    /// Serves the card until the driver closes the connection (pcscd stopped), ``stop()`` is called, or a fault
    /// makes the card leave. Returns normally in those cases; throws on protocol violations.
    package func run() throws(VPCDError) {
        let s = fd.load(ordering: .sequentiallyConsistent)
        guard s >= 0 else { throw VPCDError(.socket, "not connected; call connect() first") }
        defer { closeSocket() }
        var header = [UInt8](repeating: 0, count: 2)
        while !stopped.load(ordering: .sequentiallyConsistent) {
            guard try receive(s, into: &header, count: 2) else { return }
            let n = Int(header[0]) << 8 | Int(header[1])
            var body = [UInt8](repeating: 0, count: n)
            if n > 0 { guard try receive(s, into: &body, count: n) else { return } }
            if n == 1 {
                switch body[0] {
                case 0x00: withCard { $0.powerOff() }
                case 0x01: withCard { $0.powerOn() }
                case 0x02: withCard { $0.reset() }
                case 0x04:
                    greeted.store(true, ordering: .sequentiallyConsistent)
                    try send(s, withCard { $0.atr })
                default: break  // unknown control codes get no answer (vpcd.c)
                }
                continue
            }
            guard n >= 2 else { continue }
            let fault = faults?(body) ?? .none
            let response: [UInt8]?
            switch fault {
            case .none: response = withCard { $0.respond(to: body) }
            case .leave: response = nil
            case .tear(let k): response = withCard { $0.respond(to: body, tearAfter: k) }
            }
            trace?(body, response)
            guard let response else { return }  // the card left: closing the socket is the removal
            try send(s, response)
        }
    }

    /// True once the driver has asked for the ATR: the slot took the card. vpcd accepts a connection to a slot that
    /// already holds a card but never talks to it, so a card still waiting after a second or two is queued behind
    /// another one.
    package var isInserted: Bool { greeted.load(ordering: .sequentiallyConsistent) }

    /// Makes ``run()`` return: the connection closes and pcscd sees the card leave. Safe from any thread and from a
    /// signal-handling queue.
    package func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        let s = fd.load(ordering: .sequentiallyConsistent)
        if s >= 0 { VPCDSocket.shutdown(s) }
    }

    private func closeSocket() {
        let s = fd.exchange(-1, ordering: .sequentiallyConsistent)
        if s >= 0 { VPCDSocket.close(s) }
    }

    /// Reads exactly `count` bytes; false when the peer closed the connection (or ``stop()`` shut it down).
    private func receive(_ s: Int32, into buffer: inout [UInt8], count: Int) throws(VPCDError) -> Bool {
        var got = 0
        while got < count {
            switch VPCDSocket(descriptor: s).receive(into: &buffer, at: got, count: count - got) {
            case .success(0): return false
            case .success(let r): got += r
            case .failure(let failure):
                if stopped.load(ordering: .sequentiallyConsistent) || failure.isReset { return false }
                throw VPCDError(.connectionLost, "vpcd connection failed: \(failure.text)")
            }
        }
        return true
    }

    /// One frame, one `send`.
    private func send(_ s: Int32, _ payload: [UInt8]) throws(VPCDError) {
        guard payload.count <= 0xFFFF else {
            throw VPCDError(.protocolViolation, "a \(payload.count)-byte answer does not fit a vpcd frame")
        }
        let frame = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        var sent = 0
        while sent < frame.count {
            switch VPCDSocket(descriptor: s).send(frame, from: sent) {
            case .success(let r): sent += r
            case .failure(let failure):
                if stopped.load(ordering: .sequentiallyConsistent) { return }
                throw VPCDError(.connectionLost, "vpcd connection failed: \(failure.text)")
            }
        }
    }
}
