#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A socket-level failure, saying which call failed and why (`errno` text).
package struct SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// The peer sent nothing within the read timeout (or did not take our bytes within the write timeout).
        case timeout
        /// The peer closed the connection.
        case closed
        /// The address is not a loopback address.
        case notLoopback
        /// Any other failure of a socket call.
        case system
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }

    static func system(_ call: String) -> SocketError {
        let code = errno
        let text = String(cString: strerror(code))
        if code == EAGAIN || code == EWOULDBLOCK { return SocketError(.timeout, "\(call): timed out") }
        if code == EPIPE || code == ECONNRESET { return SocketError(.closed, "\(call): connection closed by the peer") }
        return SocketError(.system, "\(call): \(text) (errno \(code))")
    }
}

/// An IPv4 loopback address and port: the only kind of address this module binds or connects to.
///
/// Accepted hosts are `127.0.0.1` (any address of 127.0.0.0/8, RFC 1122 §3.2.1.3) and `localhost`; anything else —
/// `0.0.0.0`, a LAN address, a host name — is refused with an error that says so, because the virtual field and its
/// API have no authentication and must never be reachable from another machine.
package struct LoopbackAddress: Sendable, Hashable, CustomStringConvertible {
    package var octets: (UInt8, UInt8, UInt8, UInt8) { (127, b, c, d) }
    private var b: UInt8
    private var c: UInt8
    private var d: UInt8
    package var port: UInt16

    package init(host: String, port: UInt16) throws(SocketError) {
        self.port = port
        if host == "localhost" {
            (b, c, d) = (0, 0, 1)
            return
        }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        let values = parts.map { p -> UInt8? in
            guard !p.isEmpty, p.count <= 3, p.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return UInt8(p)
        }
        guard values.count == 4, values.allSatisfy({ $0 != nil }) else {
            throw SocketError(
                .notLoopback, "\"\(host)\" is not an IPv4 address; only 127.0.0.1 (or localhost) is accepted")
        }
        guard values[0] == 127 else {
            throw SocketError(
                .notLoopback,
                "refusing \(host): the virtual field is served on loopback only (127.0.0.1), never on another address")
        }
        (b, c, d) = (values[1]!, values[2]!, values[3]!)
    }

    package var host: String { "127.\(b).\(c).\(d)" }
    package var description: String { "\(host):\(port)" }

    package static func == (x: Self, y: Self) -> Bool { x.description == y.description }
    package func hash(into h: inout Hasher) { h.combine(description) }

    func sockaddr() -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        let raw = UInt32(127) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)
        a.sin_addr = in_addr(s_addr: raw.bigEndian)
        #if canImport(Darwin)
            a.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        return a
    }
}

#if canImport(Darwin)
    private let streamType = SOCK_STREAM
    private let sendFlags: Int32 = 0
#else
    private let streamType = Int32(SOCK_STREAM.rawValue)
    private let sendFlags = Int32(MSG_NOSIGNAL)
#endif

/// One connected TCP stream socket (blocking, with read and write timeouts).
///
/// `close()` may be called from any thread, also while another thread is blocked reading: it shuts the socket down
/// first, which wakes the reader with end-of-file.
package final class TCPSocket: @unchecked Sendable {
    private let descriptor: SharedDescriptor
    private var fd: Int32 { descriptor.fd }

    init(fd: Int32) {
        descriptor = SharedDescriptor(fd)
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    /// Connects to a loopback address, waiting at most `timeoutMilliseconds` for the connection.
    package static func connect(to address: LoopbackAddress, timeoutMilliseconds: Int = 5_000) throws(SocketError)
        -> TCPSocket
    {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw SocketError.system("socket") }
        let s = TCPSocket(fd: fd)
        s.setTimeouts(readMilliseconds: timeoutMilliseconds, writeMilliseconds: timeoutMilliseconds)
        var a = address.sockaddr()
        let r = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glue.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard r == 0 else {
            let e = SocketError.system("connect")
            if errno == ECONNREFUSED {
                throw SocketError(.system, "nothing listens on \(address) (connection refused)")
            }
            throw SocketError(e.kind, "connect to \(address): \(e.message)")
        }
        return s
    }

    /// Sets the read and write timeouts (0: wait forever).
    package func setTimeouts(readMilliseconds: Int, writeMilliseconds: Int) {
        func set(_ option: Int32, _ ms: Int) {
            var tv = timeval()
            tv.tv_sec = .init(ms / 1000)
            tv.tv_usec = .init((ms % 1000) * 1000)
            setsockopt(fd, SOL_SOCKET, option, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        set(SO_RCVTIMEO, readMilliseconds)
        set(SO_SNDTIMEO, writeMilliseconds)
    }

    /// Reads at most `max` bytes; an empty result means the peer closed its side.
    package func read(max: Int) throws(SocketError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, max, 0) }
            if n >= 0 { return Array(buffer.prefix(n)) }
            if errno == EINTR { continue }
            if descriptor.isClosed { return [] }
            throw SocketError.system("recv")
        }
    }

    /// Writes every byte (or throws).
    package func write(_ bytes: [UInt8]) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, sendFlags) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SocketError.system("send")
            }
            offset += n
        }
    }

    /// Shuts both directions down and releases the descriptor (idempotent).
    package func close() { descriptor.close() }

    /// Shuts both directions down without releasing the descriptor: a thread blocked in `read` returns at once.
    package func shutdownBoth() { descriptor.shutdownBoth() }
}

/// A listening TCP socket bound to a loopback address.
package final class TCPListener: @unchecked Sendable {
    private let descriptor: SharedDescriptor
    private var fd: Int32 { descriptor.fd }
    /// The address it listens on (with the port the system chose when asked for port 0).
    package let address: LoopbackAddress

    /// Binds and listens; port 0 lets the system choose (read it back from ``address``).
    package init(_ requested: LoopbackAddress, backlog: Int32 = 16) throws(SocketError) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw SocketError.system("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var a = requested.sockaddr()
        let r = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard r == 0 else {
            let inUse = errno == EADDRINUSE
            let e = SocketError.system("bind")
            _ = Glue.close(fd)
            if inUse {
                throw SocketError(.system, "port \(requested.port) on \(requested.host) is already in use")
            }
            throw SocketError(.system, "bind \(requested): \(e.message)")
        }
        guard listen(fd, backlog) == 0 else {
            let e = SocketError.system("listen")
            _ = Glue.close(fd)
            throw e
        }
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = SharedDescriptor(fd)
        var chosen = requested
        chosen.port = UInt16(bigEndian: bound.sin_port)
        self.address = chosen
    }

    deinit { close() }

    /// Waits for the next connection; nil once the listener is closed.
    package func accept() -> TCPSocket? {
        while true {
            let c = Glue.accept(fd, nil, nil)
            if c >= 0 { return TCPSocket(fd: c) }
            if descriptor.isClosed { return nil }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    /// Stops listening; a thread blocked in ``accept()`` returns nil.
    package func close() { descriptor.close() }
}

/// A socket descriptor that any thread may shut down or close while another is blocked on it: closed once, and
/// never shut down after it was released (the number may already belong to another file).
private final class SharedDescriptor: @unchecked Sendable {
    let fd: Int32
    private let state = SocketLock()
    private var closed = false

    init(_ fd: Int32) { self.fd = fd }

    var isClosed: Bool { state.withLock { closed } }

    func close() {
        // The flag is read and set inside the lock: an `inout` argument would begin its access before the lock is
        // taken (ThreadSanitizer: a race with `shutdownBoth`, docs/RELIABILITY.md "Sanitizers").
        let first = state.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        _ = shutdown(fd, Int32(SHUT_RDWR))
        _ = Glue.close(fd)
    }

    func shutdownBoth() {
        let open = state.withLock { !closed }
        if open { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }
}

/// The C calls whose names clash with methods here.
private enum Glue {
    static func connect(_ fd: Int32, _ a: UnsafePointer<sockaddr>, _ l: socklen_t) -> Int32 {
        #if canImport(Darwin)
            Darwin.connect(fd, a, l)
        #elseif canImport(Musl)
            Musl.connect(fd, a, l)
        #else
            Glibc.connect(fd, a, l)
        #endif
    }
    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.close(fd)
        #elseif canImport(Musl)
            Musl.close(fd)
        #else
            Glibc.close(fd)
        #endif
    }
    static func accept(
        _ fd: Int32, _ a: UnsafeMutablePointer<sockaddr>?, _ l: UnsafeMutablePointer<socklen_t>?
    ) -> Int32 {
        #if canImport(Darwin)
            Darwin.accept(fd, a, l)
        #elseif canImport(Musl)
            Musl.accept(fd, a, l)
        #else
            Glibc.accept(fd, a, l)
        #endif
    }
}
