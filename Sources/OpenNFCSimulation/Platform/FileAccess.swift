internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Reading and writing the files people hand the tools (tag files, `.ndef` messages, plists, lists), with a reason in
/// words when it fails ("no such file", "is a directory", "the directory 'x' does not exist"), never a Foundation
/// error code. Writes are atomic (docs/TAG-FILES.md, "Files are written atomically"): a temporary file in the same
/// directory, flushed with `fsync(2)`, then `rename(2)` over the target; on any failure the temporary file is removed
/// and the target is untouched.
package enum FileAccess {
    /// Why a file could not be read or written, in words.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
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

    /// Writes `bytes` to `path` atomically: a temporary file beside it, `fsync`, `rename`. A missing directory, a
    /// directory in the file's place or a full disk is a ``Failure`` and leaves neither a partial file nor the
    /// temporary file behind.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var st = stat()
        if stat(dir, &st) != 0 {
            throw Failure(reason: errno == ENOENT ? "the directory '\(dir)' does not exist" : reason(errno))
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw Failure(reason: "'\(dir)' is not a directory") }
        if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
            throw Failure(reason: "is a directory, not a file")
        }
        let temp = (dir as NSString).appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(reason: reason(errno)) }
        var failure: Failure? = nil
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = Failure(reason: reason(errno))
                break
            }
            offset += n
        }
        if failure == nil, fsync(fd) != 0 { failure = Failure(reason: reason(errno)) }
        if close(fd) != 0, failure == nil { failure = Failure(reason: reason(errno)) }
        if failure == nil, rename(temp, path) != 0 { failure = Failure(reason: reason(errno)) }
        if let failure {
            unlink(temp)
            throw failure
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
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
