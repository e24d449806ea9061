internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The TCP connection from a virtual card to a vpcd slot: every socket call of ``VPCDServer`` (docs/APPLE-PLATFORMS.md:
/// a module's C calls live in its `Platform/` folder). `TCP_NODELAY` is set once; on Linux `TCP_QUICKACK` is re-armed
/// after every `recv` and `send` never raises `SIGPIPE` (`MSG_NOSIGNAL`; Darwin has neither option, and `SIGPIPE` is
/// ignored by the commands that serve cards).
struct VPCDSocket: Sendable {
    let descriptor: Int32

    /// Why a call failed: `errno` and its text.
    struct Failure: Error {
        let code: Int32
        var text: String { String(cString: strerror(code)) }
        var isRefused: Bool { code == ECONNREFUSED }
        var isReset: Bool { code == ECONNRESET }
    }

    /// Connects to `host:port`, trying each address `getaddrinfo` gives. A name that does not resolve is
    /// `.unresolved` with the resolver's words.
    enum ConnectError: Error {
        case unresolved(String)
        case failed(Failure)
    }

    static func connect(host: String, port: UInt16) -> Result<VPCDSocket, ConnectError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else { return .failure(.unresolved(String(cString: gai_strerror(rc)))) }
        defer { freeaddrinfo(list) }
        var lastErrno: Int32 = 0
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            let s = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            if s >= 0 {
                if systemConnect(s, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return .success(VPCDSocket(descriptor: s))
                }
                lastErrno = errno
                close(s)
            } else {
                lastErrno = errno
            }
            ai = a.pointee.ai_next
        }
        return .failure(.failed(Failure(code: lastErrno)))
    }

    /// Reads up to `count` bytes into `buffer` at `offset`: the number read, 0 when the peer closed, or the failure
    /// (`EINTR` is retried here).
    func receive(into buffer: inout [UInt8], at offset: Int, count: Int) -> Result<Int, Failure> {
        while true {
            let r = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + offset, count, 0) }
            #if os(Linux)
                var one: Int32 = 1
                setsockopt(
                    descriptor, Int32(IPPROTO_TCP), Int32(TCP_QUICKACK), &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if r >= 0 { return .success(r) }
            if errno == EINTR { continue }
            return .failure(Failure(code: errno))
        }
    }

    /// Writes the bytes of `frame` from `offset`: the number written, or the failure (`EINTR` is retried here).
    func send(_ frame: [UInt8], from offset: Int) -> Result<Int, Failure> {
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        while true {
            let r = frame.withUnsafeBytes {
                systemSend(descriptor, $0.baseAddress! + offset, frame.count - offset, flags)
            }
            if r >= 0 { return .success(r) }
            if errno == EINTR { continue }
            return .failure(Failure(code: errno))
        }
    }

    /// Ends both directions (a blocked `recv` in another thread returns 0).
    static func shutdown(_ descriptor: Int32) { _ = systemShutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Closes the descriptor.
    static func close(_ descriptor: Int32) { _ = systemClose(descriptor) }
}

// The struct's own `connect`/`send`/`shutdown`/`close` shadow the C functions inside it.
#if canImport(Glibc)
    private func systemConnect(_ s: Int32, _ addr: UnsafeMutablePointer<sockaddr>!, _ len: socklen_t) -> Int32 {
        Glibc.connect(s, addr, len)
    }
    private func systemSend(_ s: Int32, _ p: UnsafeRawPointer, _ n: Int, _ f: Int32) -> Int { Glibc.send(s, p, n, f) }
    private func systemShutdown(_ s: Int32, _ how: Int32) -> Int32 { Glibc.shutdown(s, how) }
    private func systemClose(_ s: Int32) -> Int32 { Glibc.close(s) }
#elseif canImport(Darwin)
    private func systemConnect(_ s: Int32, _ addr: UnsafeMutablePointer<sockaddr>!, _ len: socklen_t) -> Int32 {
        Darwin.connect(s, addr, len)
    }
    private func systemSend(_ s: Int32, _ p: UnsafeRawPointer, _ n: Int, _ f: Int32) -> Int { Darwin.send(s, p, n, f) }
    private func systemShutdown(_ s: Int32, _ how: Int32) -> Int32 { Darwin.shutdown(s, how) }
    private func systemClose(_ s: Int32) -> Int32 { Darwin.close(s) }
#endif
