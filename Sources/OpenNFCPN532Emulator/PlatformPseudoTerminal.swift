#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Every system call of the virtual PN532 (a pseudo-terminal, a wake-up pipe, poll, the `--link` symlink), in one
/// place: POSIX.1-2017 `posix_openpt`, `grantpt`, `unlockpt`, `ptsname` (on Linux their devpts equivalents: `/dev/ptmx`
/// with `TIOCSPTLCK` and `TIOCGPTN`), termios `cfmakeraw`.
enum PlatformPseudoTerminal {
    struct Opened {
        var master: Int32
        /// Kept open by the server so the pseudo-terminal survives clients opening and closing it.
        var slave: Int32
        var path: String
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    static func open() throws(PN532EmulatorError) -> Opened {
        #if os(Linux)
            // Linux devpts (Documentation/filesystems/devpts): /dev/ptmx, TIOCSPTLCK to unlock, TIOCGPTN for N.
            let master = Glibc_open("/dev/ptmx", O_RDWR | O_NOCTTY)
            guard master >= 0 else { throw PN532EmulatorError("cannot open /dev/ptmx: \(errorText())") }
            var unlock: CInt = 0
            var number: CUnsignedInt = 0
            let unlocked = withUnsafeMutablePointer(to: &unlock) { ioctl(master, 0x4004_5431, $0) }
            let numbered = withUnsafeMutablePointer(to: &number) { ioctl(master, 0x8004_5430, $0) }
            guard unlocked == 0, numbered == 0 else {
                let why = errorText()
                _ = close(master)
                throw PN532EmulatorError("cannot unlock the pseudo-terminal: \(why)")
            }
            let name = "/dev/pts/\(number)"
        #else
            let master = posix_openpt(O_RDWR | O_NOCTTY)
            guard master >= 0 else { throw PN532EmulatorError("posix_openpt failed: \(errorText())") }
            guard grantpt(master) == 0, unlockpt(master) == 0, let cName = ptsname(master) else {
                let why = errorText()
                _ = close(master)
                throw PN532EmulatorError("cannot unlock the pseudo-terminal: \(why)")
            }
            let name = String(cString: cName)
        #endif
        let path = name
        let slave = Glibc_open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            let why = errorText()
            _ = close(master)
            throw PN532EmulatorError("cannot open \(path): \(why)")
        }
        // Raw bytes both ways (no echo, no line discipline), as a UART is.
        var t = termios()
        if tcgetattr(slave, &t) == 0 {
            cfmakeraw(&t)
            _ = tcsetattr(slave, TCSANOW, &t)
        }
        return Opened(master: master, slave: slave, path: path)
    }

    static func pipe() throws(PN532EmulatorError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc_pipe(&fds) == 0 else { throw PN532EmulatorError("pipe failed: \(errorText())") }
        return (fds[0], fds[1])
    }

    enum Readiness {
        case data
        case stop
        case hangUp
    }

    /// Waits for bytes on `fd` or a byte on `stop` (no timeout: the server waits for its host).
    static func wait(_ fd: Int32, stop: Int32) -> Readiness {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let r = poll(&fds, 2, -1)
            if r < 0 && errno == EINTR { continue }
            if r < 0 { return .hangUp }
            if fds[1].revents != 0 { return .stop }
            if fds[0].revents & Int16(POLLIN) != 0 { return .data }
            if fds[0].revents != 0 { return .hangUp }
        }
    }

    static func read(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc_read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            return Array(buffer[0..<n])
        }
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc_write(fd, $0.baseAddress! + sent, bytes.count - sent) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            sent += n
        }
    }

    static func close(_ fd: Int32) -> Int32 { Glibc_close(fd) }

    /// Points `link` at `target`, replacing an older symlink there (never a regular file).
    static func symlink(_ target: String, at link: String) throws(PN532EmulatorError) {
        var st = stat()
        if lstat(link, &st) == 0 {
            guard st.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK) else {
                throw PN532EmulatorError("--link \(link) exists and is not a symlink; not replacing it")
            }
            _ = unlink(link)
        }
        guard Glibc_symlink(target, link) == 0 else {
            throw PN532EmulatorError("cannot create the symlink \(link): \(errorText())")
        }
    }

    static func removeLink(_ link: String) { _ = unlink(link) }
}

#if canImport(Glibc)
    @inline(__always) private func Glibc_open(_ p: String, _ f: Int32) -> Int32 { Glibc.open(p, f) }
    @inline(__always) private func Glibc_pipe(_ fds: inout [Int32]) -> Int32 { Glibc.pipe(&fds) }
    @inline(__always) private func Glibc_read(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
        Glibc.read(fd, p, n)
    }
    @inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
        Glibc.write(fd, p, n)
    }
    @inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    @inline(__always) private func Glibc_symlink(_ t: String, _ l: String) -> Int32 { Glibc.symlink(t, l) }
#else
    @inline(__always) private func Glibc_open(_ p: String, _ f: Int32) -> Int32 { Darwin.open(p, f) }
    @inline(__always) private func Glibc_pipe(_ fds: inout [Int32]) -> Int32 { Darwin.pipe(&fds) }
    @inline(__always) private func Glibc_read(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
        Darwin.read(fd, p, n)
    }
    @inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
        Darwin.write(fd, p, n)
    }
    @inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { Darwin.close(fd) }
    @inline(__always) private func Glibc_symlink(_ t: String, _ l: String) -> Int32 { Darwin.symlink(t, l) }
#endif
