#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The journal's file I/O, kept apart on purpose: the project's safe writer replaces whole files, while a journal
/// appends one record at a time and must have each on disk (`fsync`) before the event is published. This file does
/// only that: open with an exclusive lock, read everything, append + fsync, truncate a torn tail, and replace the
/// whole file atomically for compaction (temporary file, fsync, rename, fsync of the directory).
final class JournalFile {
    let path: String
    private var fd: Int32

    /// Opens (creating) `path` and takes an exclusive `flock`: two stations cannot share one journal.
    init(path: String) throws(JournalError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw JournalError(.io, "cannot open the journal '\(path)': \(Self.errnoText())") }
        guard Self.lock(fd) else {
            close(fd)
            throw JournalError(
                .locked,
                "the journal '\(path)' is in use by another process (another `opennfc watch` with the same "
                    + "--journal); give each station its own journal")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Takes the exclusive lock, waiting up to half a second while it is held. A `flock` belongs to the open file
    /// description, which a child forked by this very process shares until it calls exec (`--exec`, or any
    /// `Process` in the same program): a journal closed and reopened at that moment looks locked for a few
    /// milliseconds. Another station holds it for good, and is refused after the wait.
    private static func lock(_ fd: Int32) -> Bool {
        for attempt in 0..<50 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK, attempt < 49 else { return false }
            _ = poll(nil, 0, 10)
        }
        return false
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// The whole file.
    func readAll() throws(JournalError) -> [UInt8] {
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw io("seek") }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw io("read")
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    /// Appends `bytes` at the end and, when `sync`, waits until they are on disk.
    func append(_ bytes: [UInt8], sync: Bool) throws(JournalError) {
        guard lseek(fd, 0, SEEK_END) >= 0 else { throw io("seek") }
        try writeAll(fd, bytes)
        if sync, fsync(fd) != 0 { throw io("fsync") }
    }

    func sync() throws(JournalError) {
        if fsync(fd) != 0 { throw io("fsync") }
    }

    /// Cuts the file to `length` bytes (a torn tail) and syncs.
    func truncate(to length: Int) throws(JournalError) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw io("truncate") }
        if fsync(fd) != 0 { throw io("fsync") }
    }

    /// Replaces the whole file with `bytes` atomically: a crash leaves either the old file or the new one.
    func replace(with bytes: [UInt8]) throws(JournalError) {
        let temporary = path + ".compacting"
        let t = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard t >= 0 else { throw io("create \(temporary)") }
        do throws(JournalError) {
            try writeAll(t, bytes)
            guard fsync(t) == 0 else { throw io("fsync \(temporary)") }
        } catch {
            close(t)
            unlink(temporary)
            throw error
        }
        close(t)
        guard rename(temporary, path) == 0 else { throw io("rename \(temporary)") }
        // The new file takes the lock over: reopen and lock it before anyone else can.
        let n = open(path, O_RDWR | O_CLOEXEC)
        guard n >= 0 else { throw io("reopen") }
        _ = flock(n, LOCK_EX | LOCK_NB)
        close(fd)
        fd = n
        syncDirectory()
    }

    private func syncDirectory() {
        var dir = path
        if let slash = dir.lastIndex(of: "/") {
            dir = String(dir[..<slash])
            if dir.isEmpty { dir = "/" }
        } else {
            dir = "."
        }
        let d = open(dir, O_RDONLY | O_CLOEXEC)
        if d >= 0 {
            _ = fsync(d)
            close(d)
        }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(JournalError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw io("write")
            }
            offset += n
        }
    }

    private func io(_ what: String) -> JournalError {
        let code: JournalErrorCode = errno == ENOSPC ? .full : .io
        return JournalError(code, "the journal '\(path)': \(what) failed: \(Self.errnoText())")
    }
}
