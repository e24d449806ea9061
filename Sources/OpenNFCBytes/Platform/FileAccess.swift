internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// `write(2)` (``FileAccess/write(_:to:durable:)`` shadows the name inside the type).
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
    #else
        Darwin.write(fd, buffer, count)
    #endif
}

/// Reading and writing the files people hand the tools (tag files, `.ndef` messages, plists, lists), with a reason in
/// words when it fails ("no such file", "is a directory", "the directory 'x' does not exist"), never a Foundation
/// error code. Writes are atomic (docs/TAG-FILES.md, "Files are written atomically"): a temporary file in the same
/// directory, flushed with `fsync(2)`, then `rename(2)` over the target; on any failure the temporary file is removed
/// and the target is untouched. ``write(_:to:)`` is the project's one file writer: no other code creates or replaces
/// a file (`OneWriterTests` keeps it so).
package enum FileAccess {
    /// Why a file could not be read or written, in words.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
        package init(reason: String) { self.reason = reason }
    }

    /// The largest file read (256 MiB): above any tag file (a 16 MiB Type 4 NDEF file is about 50 MiB of JSON).
    package static let maximumSize = 256 << 20

    /// The bytes of the regular file at `path`. A directory, a device or a FIFO is refused without being read, so
    /// `/dev/zero` or a named pipe cannot make a tool hang.
    package static func contents(of path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(reason: reason(errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure(reason: reason(errno)) }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Failure(reason: "is a directory, not a file")
        default: throw Failure(reason: "is not a regular file")
        }
        guard Int(st.st_size) <= maximumSize else {
            throw Failure(reason: "is \(st.st_size) bytes, more than the \(maximumSize >> 20) MiB a tool reads")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: reason(errno))
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
            guard bytes.count <= maximumSize else {
                throw Failure(reason: "grew past the \(maximumSize >> 20) MiB a tool reads")
            }
        }
        return bytes
    }

    /// Where ``write(_:to:)`` put the bytes.
    package enum Destination: Sendable, Equatable {
        /// A regular file, replaced atomically (a new file when none was there); `path` is the file written, the
        /// target of a symbolic link when `path` named one.
        case file(path: String)
        /// A character device or a FIFO (`/dev/stdout`, a terminal, a named pipe), written in place as a stream.
        case stream
    }

    /// Writes `bytes` to `path` — the one way every tool of the project writes a file (docs/TAG-FILES.md, "Files are
    /// written atomically"):
    ///
    /// - `-` and `/dev/stdout` are standard output (`/dev/stderr`, `/dev/fd/N` likewise their descriptor).
    /// - A regular file is replaced atomically: a temporary file in the same directory, `fsync(2)`, `rename(2)` over
    ///   the old one, `fsync(2)` of the directory; the old file's permission bits (and, for root, its owner) are
    ///   kept. A new file gets `0666` less the umask, as any file a program creates.
    /// - A symbolic link is followed (also when its target does not exist yet): the target is written, the link
    ///   stays.
    /// - A character device or a FIFO is written in place as a stream (`/dev/stdout`, `/dev/null`, a named pipe
    ///   someone reads); a FIFO nobody reads is refused rather than waited for. A socket, a block device or a
    ///   directory is refused. None is ever replaced by a regular file.
    /// - Any failure (an unwritable directory, a full disk, a file-size limit) is a ``Failure`` naming the reason;
    ///   the old file is untouched and no temporary file is left behind.
    ///
    /// `durable: false` skips the two `fsync(2)` calls (still atomic, not yet on the disk): for a file rewritten
    /// thousands of times a second, such as the fuzzer's last input.
    @discardableResult
    package static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(Failure) -> Destination {
        if let fd = standardDescriptor(path) {
            try writeAll(bytes, fd: fd)
            return .stream
        }
        let target = try resolvingLinks(path)
        var st = stat()
        if stat(target, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                try replace(target, with: bytes, keeping: st, durable: durable)
                return .file(path: target)
            case S_IFDIR: throw Failure(reason: "is a directory, not a file")
            case S_IFCHR, S_IFIFO:
                try writeInPlace(bytes, to: target, fifo: st.st_mode & S_IFMT == S_IFIFO)
                return .stream
            case S_IFSOCK: throw Failure(reason: "is a socket, not a file; it was left as it is")
            case S_IFBLK: throw Failure(reason: "is a block device, not a file; it was left as it is")
            default: throw Failure(reason: "is not a regular file; it was left as it is")
            }
        }
        guard errno == ENOENT else { throw Failure(reason: reason(errno)) }
        try replace(target, with: bytes, keeping: nil, durable: durable)
        return .file(path: target)
    }

    /// Writes `bytes` to `path` atomically (``write(_:to:)``); the name the project's callers have used.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        try write(bytes, to: path)
    }

    /// The open descriptor `path` names: `-` and `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N` and
    /// `/proc/self/fd/N`. Written through the descriptor itself, so `-o /dev/stdout >> log` appends to the log.
    static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let n = Int32(path.dropFirst(prefix.count)), fcntl(n, F_GETFD) >= 0 { return n }
            }
            return nil
        }
    }

    /// The path a write of `path` lands on: symbolic links followed one by one (relative targets against the link's
    /// directory), also a final link whose target does not exist yet. A loop is refused, as `open(2)` does (40 links).
    package static func resolvingLinks(_ path: String) throws(Failure) -> String {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0 else {
                if errno == ENOENT || errno == ENOTDIR { return current }
                throw Failure(reason: reason(errno))
            }
            guard st.st_mode & S_IFMT == S_IFLNK else { return current }
            // /proc's links (/dev/stdout → /proc/self/fd/1 → "pipe:[…]") name no path: what they reach is opened
            // through the link itself.
            var target = stat()
            if stat(current, &target) == 0, target.st_mode & S_IFMT != S_IFREG, target.st_mode & S_IFMT != S_IFDIR {
                return current
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n >= 0 else { throw Failure(reason: reason(errno)) }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : (directory(of: current) as NSString).appendingPathComponent(link)
        }
        throw Failure(reason: "too many levels of symbolic links")
    }

    static func directory(of path: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    /// A temporary file beside `path`, written, flushed, renamed over it, the directory flushed.
    private static func replace(_ path: String, with bytes: [UInt8], keeping old: stat?, durable: Bool) throws(Failure)
    {
        let dir = directory(of: path)
        var st = stat()
        if stat(dir, &st) != 0 {
            throw Failure(reason: errno == ENOENT ? "the directory '\(dir)' does not exist" : reason(errno))
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw Failure(reason: "'\(dir)' is not a directory") }
        let name = (path as NSString).lastPathComponent
        let temp = (dir as NSString).appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            let code = errno
            throw Failure(
                reason: code == EACCES || code == EPERM || code == EROFS
                    ? "cannot create a file in '\(dir)' (\(reason(code))); the old file is untouched"
                    : reason(code))
        }
        var failure: Failure? = nil
        do throws(Failure) {
            if let old {
                // The old file's permissions; its owner too where we may give it (root, or our own group).
                if fchmod(fd, old.st_mode & 0o7777) != 0 { throw Failure(reason: reason(errno)) }
                if old.st_uid != geteuid() || old.st_gid != getegid() { _ = fchown(fd, old.st_uid, old.st_gid) }
                if old.st_mode & (S_ISUID | S_ISGID) != 0 { _ = fchmod(fd, old.st_mode & 0o7777) }
            }
            try writeAll(bytes, fd: fd)
            if durable, fsync(fd) != 0 { throw Failure(reason: reason(errno)) }
        } catch {
            failure = error
        }
        if close(fd) != 0, failure == nil { failure = Failure(reason: reason(errno)) }
        if failure == nil, rename(temp, path) != 0 { failure = Failure(reason: reason(errno)) }
        if let failure {
            unlink(temp)
            throw Failure(reason: failure.reason + (old == nil ? "" : "; the old file is untouched"))
        }
        let dfd = durable ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
        if dfd >= 0 {
            // The rename itself made durable; a file system that cannot sync a directory (EINVAL) has nothing to do.
            _ = fsync(dfd)
            close(dfd)
        }
    }

    /// A device or FIFO written as a stream. A FIFO is opened without waiting: nobody reading it is an error, not a
    /// hang.
    private static func writeInPlace(_ bytes: [UInt8], to path: String, fifo: Bool) throws(Failure) {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failure(reason: fifo && errno == ENXIO ? "is a named pipe nobody is reading" : reason(errno))
        }
        defer { close(fd) }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        try writeAll(bytes, fd: fd)
    }

    private static func writeAll(_ bytes: [UInt8], fd: Int32) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: reason(errno))
            }
            offset += n
        }
    }

    /// A log appended to line by line (a batch report): opened with `O_APPEND` through the same link resolution as
    /// ``write(_:to:)``, each line one `write(2)` then `fsync(2)`, so every line in the file is whole.
    package final class AppendLog {
        package let path: String
        private let fd: Int32

        /// Opens `path` for appending, creating it (`0666` less the umask) when missing. Only a regular file.
        package init(path: String) throws(Failure) {
            let target = try FileAccess.resolvingLinks(path)
            var st = stat()
            if stat(target, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
                throw Failure(reason: "is not a regular file; it was left as it is")
            }
            let fd = open(target, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw Failure(reason: FileAccess.reason(errno)) }
            self.path = target
            self.fd = fd
        }

        deinit { close(fd) }

        /// Appends `bytes` with one `write(2)` and flushes them to the disk.
        package func append(_ bytes: [UInt8]) throws(Failure) {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            guard n == bytes.count else {
                throw Failure(reason: n < 0 ? FileAccess.reason(errno) : "only \(n) of \(bytes.count) bytes written")
            }
            guard fsync(fd) == 0 else { throw Failure(reason: FileAccess.reason(errno)) }
        }
    }

    /// `strerror(3)` in lower case for the errors people meet ("no such file", "permission denied").
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a directory, not a file"
        case ENOTDIR: return "a part of the path is not a directory"
        case ENOSPC: return "no space left on the device"
        case EROFS: return "the file system is read-only"
        case EFBIG: return "the file is larger than this process may write (file size limit)"
        case EDQUOT: return "the disk quota is exhausted"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
