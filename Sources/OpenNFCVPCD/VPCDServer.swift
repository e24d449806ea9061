internal import Foundation
internal import OpenNFCBytes
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

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
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw VPCDError(.badAddress, "cannot resolve '\(host)': \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var lastErrno: Int32 = 0
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            let s = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            if s >= 0 {
                if Glibc_connect(s, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    fd.store(s, ordering: .sequentiallyConsistent)
                    return
                }
                lastErrno = errno
                close(s)
            } else {
                lastErrno = errno
            }
            ai = a.pointee.ai_next
        }
        if lastErrno == ECONNREFUSED {
            throw VPCDError(
                .connectionRefused,
                "nothing listens on \(host):\(port): start pcscd with the vsmartcard vpcd driver "
                    + "(`scripts/pcscd up`, or install vsmartcard-vpcd and restart pcscd)")
        }
        throw VPCDError(.socket, "cannot connect to vpcd at \(host):\(port): \(String(cString: strerror(lastErrno)))")
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
        if s >= 0 { shutdown(s, Int32(SHUT_RDWR)) }
    }

    private func closeSocket() {
        let s = fd.exchange(-1, ordering: .sequentiallyConsistent)
        if s >= 0 { close(s) }
    }

    /// Reads exactly `count` bytes; false when the peer closed the connection (or ``stop()`` shut it down).
    private func receive(_ s: Int32, into buffer: inout [UInt8], count: Int) throws(VPCDError) -> Bool {
        var got = 0
        while got < count {
            let r = buffer.withUnsafeMutableBytes { recv(s, $0.baseAddress! + got, count - got, 0) }
            #if os(Linux)
                var one: Int32 = 1
                setsockopt(s, Int32(IPPROTO_TCP), Int32(TCP_QUICKACK), &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if r == 0 { return false }
            if r < 0 {
                if errno == EINTR { continue }
                if stopped.load(ordering: .sequentiallyConsistent) || errno == ECONNRESET { return false }
                throw VPCDError(.connectionLost, "vpcd connection failed: \(String(cString: strerror(errno)))")
            }
            got += r
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
            #if os(Linux)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            let r = frame.withUnsafeBytes { Glibc_send(s, $0.baseAddress! + sent, frame.count - sent, flags) }
            if r < 0 {
                if errno == EINTR { continue }
                if stopped.load(ordering: .sequentiallyConsistent) { return }
                throw VPCDError(.connectionLost, "vpcd connection failed: \(String(cString: strerror(errno)))")
            }
            sent += r
        }
    }
}

// `connect`/`send` are shadowed by the methods above; reach the C functions under other names.
#if canImport(Glibc)
    @inline(__always) private func Glibc_connect(
        _ s: Int32, _ addr: UnsafeMutablePointer<sockaddr>!, _ len: socklen_t
    ) -> Int32 { Glibc.connect(s, addr, len) }
    @inline(__always) private func Glibc_send(_ s: Int32, _ p: UnsafeRawPointer, _ n: Int, _ f: Int32) -> Int {
        Glibc.send(s, p, n, f)
    }
#elseif canImport(Darwin)
    @inline(__always) private func Glibc_connect(
        _ s: Int32, _ addr: UnsafeMutablePointer<sockaddr>!, _ len: socklen_t
    ) -> Int32 { Darwin.connect(s, addr, len) }
    @inline(__always) private func Glibc_send(_ s: Int32, _ p: UnsafeRawPointer, _ n: Int, _ f: Int32) -> Int {
        Darwin.send(s, p, n, f)
    }
#endif
