import Foundation
import OpenNFCBytes
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one file writer (``FileAccess/write(_:to:durable:)``) on every kind of path: a new file, a file replaced with
/// its mode kept, symbolic links (to a file, dangling, relative, in a loop), character devices, FIFOs with and
/// without a reader, a socket, a block device, a directory, a missing directory, an immutable directory and a full
/// device. The suite runs as whoever runs the tests; as root (as here), the immutable directory stands for "a
/// folder I cannot write to", which permissions alone do not give root.
@Suite(.serialized) struct FileAccessTests {
    final class Dir {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("fileaccess-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func at(_ name: String) -> String { path + "/" + name }
        /// The names in the directory, temporary files included.
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    static func kind(_ path: String) -> mode_t {
        var st = stat()
        guard lstat(path, &st) == 0 else { return 0 }
        return st.st_mode & S_IFMT
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        _ = stat(path, &st)
        return st.st_mode & 0o7777
    }

    static func contents(_ path: String) -> [UInt8] { (try? FileAccess.contents(of: path)) ?? [] }

    @Test func aNewFileIsCreatedWithTheUmasksMode() throws {
        let d = try Dir()
        let old = umask(0o022)
        defer { umask(old) }
        #expect(try FileAccess.write([1, 2, 3], to: d.at("new.bin")) == .file(path: d.at("new.bin")))
        #expect(Self.contents(d.at("new.bin")) == [1, 2, 3])
        #expect(Self.mode(d.at("new.bin")) == 0o644)
        #expect(d.names == ["new.bin"])
    }

    @Test func aRegularFileIsReplacedKeepingItsMode() throws {
        let d = try Dir()
        try FileAccess.write([0xAA], to: d.at("f"))
        chmod(d.at("f"), 0o600)
        var before = stat()
        stat(d.at("f"), &before)
        try FileAccess.write([0xBB, 0xCC], to: d.at("f"))
        var after = stat()
        stat(d.at("f"), &after)
        #expect(Self.contents(d.at("f")) == [0xBB, 0xCC])
        #expect(Self.mode(d.at("f")) == 0o600)
        // Replaced, not rewritten in place: a reader holding the old file still sees the old bytes.
        #expect(before.st_ino != after.st_ino)
        #expect(d.names == ["f"])
    }

    @Test func aSymbolicLinkIsFollowedAndItsTargetWritten() throws {
        let d = try Dir()
        try FileManager.default.createDirectory(atPath: d.at("real"), withIntermediateDirectories: true)
        try FileAccess.write([1], to: d.at("real/tag.json"))
        chmod(d.at("real/tag.json"), 0o640)
        symlink("real/tag.json", d.at("link.json"))
        #expect(try FileAccess.write([2], to: d.at("link.json")) == .file(path: d.at("real/tag.json")))
        #expect(Self.kind(d.at("link.json")) == S_IFLNK)
        #expect(Self.contents(d.at("real/tag.json")) == [2])
        #expect(Self.mode(d.at("real/tag.json")) == 0o640)
        // A link to a link, absolute this time.
        symlink(d.at("link.json"), d.at("link2"))
        try FileAccess.write([3], to: d.at("link2"))
        #expect(Self.kind(d.at("link2")) == S_IFLNK && Self.kind(d.at("link.json")) == S_IFLNK)
        #expect(Self.contents(d.at("real/tag.json")) == [3])
        #expect(d.names == ["link.json", "link2", "real"])
    }

    @Test func aDanglingLinkCreatesItsTarget() throws {
        let d = try Dir()
        symlink("later.bin", d.at("dangling"))
        try FileAccess.write([7], to: d.at("dangling"))
        #expect(Self.kind(d.at("dangling")) == S_IFLNK)
        #expect(Self.contents(d.at("later.bin")) == [7])
    }

    @Test func aLinkLoopIsRefused() throws {
        let d = try Dir()
        symlink("b", d.at("a"))
        symlink("a", d.at("b"))
        #expect(throws: FileAccess.Failure(reason: "too many levels of symbolic links")) {
            try FileAccess.write([1], to: d.at("a"))
        }
    }

    @Test func characterDevicesAreWrittenInPlaceNeverReplaced() throws {
        #expect(try FileAccess.write([1, 2, 3], to: "/dev/null") == .stream)
        #expect(Self.kind("/dev/null") == S_IFCHR)
        // A full device: the error says so and the node stays a device.
        #expect(throws: FileAccess.Failure(reason: "no space left on the device")) {
            try FileAccess.write([1, 2, 3], to: "/dev/full")
        }
        #expect(Self.kind("/dev/full") == S_IFCHR)
        // Through a link too.
        let d = try Dir()
        symlink("/dev/null", d.at("null"))
        #expect(try FileAccess.write([9], to: d.at("null")) == .stream)
        #expect(Self.kind(d.at("null")) == S_IFLNK)
    }

    @Test func aFIFOIsWrittenAsAStreamToItsReader() throws {
        let d = try Dir()
        #expect(mkfifo(d.at("pipe"), 0o600) == 0)
        let path = d.at("pipe")
        // The reading end opened first (without waiting for a writer), as `cat pipe` would be.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        #expect(try FileAccess.write([0x68, 0x69], to: path) == .stream)
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(reader, &buffer, 16)
        #expect(Array(buffer[0..<max(n, 0)]) == [0x68, 0x69])
        #expect(Self.kind(path) == S_IFIFO)
    }

    @Test func aFIFOThatNobodyReadsIsRefusedWithoutWaiting() throws {
        let d = try Dir()
        #expect(mkfifo(d.at("pipe"), 0o600) == 0)
        #expect(throws: FileAccess.Failure(reason: "is a named pipe nobody is reading")) {
            try FileAccess.write([1], to: d.at("pipe"))
        }
        #expect(Self.kind(d.at("pipe")) == S_IFIFO)
    }

    @Test func aSocketABlockDeviceAndADirectoryAreRefused() throws {
        let d = try Dir()
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(s) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array(d.at("sock").utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, c) in name.enumerated() where i < raw.count { raw[i] = UInt8(bitPattern: c) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        #expect(throws: FileAccess.Failure(reason: "is a socket, not a file; it was left as it is")) {
            try FileAccess.write([1], to: d.at("sock"))
        }
        #expect(Self.kind(d.at("sock")) == S_IFSOCK)
        #expect(throws: FileAccess.Failure(reason: "is a directory, not a file")) {
            try FileAccess.write([1], to: d.path)
        }
        // A block device node (only root may make one): refused, not replaced.
        if geteuid() == 0, mknod(d.at("blk"), S_IFBLK | 0o600, dev_t((7 << 8) | 200)) == 0 {
            #expect(throws: FileAccess.Failure(reason: "is a block device, not a file; it was left as it is")) {
                try FileAccess.write([1], to: d.at("blk"))
            }
            #expect(Self.kind(d.at("blk")) == S_IFBLK)
        }
    }

    @Test func aMissingDirectoryIsNamed() throws {
        let d = try Dir()
        #expect(throws: FileAccess.Failure(reason: "the directory '\(d.at("nope"))' does not exist")) {
            try FileAccess.write([1], to: d.at("nope/f"))
        }
    }

    /// A directory nobody may write to, root included (`chattr +i`): the old file stays as it was, and the error
    /// says so. Where the file system has no immutable flag the test says it could not run.
    @Test func anUnwritableDirectoryLeavesTheOldFileIntact() throws {
        let d = try Dir()
        try FileManager.default.createDirectory(atPath: d.at("locked"), withIntermediateDirectories: true)
        try FileAccess.write([1, 2], to: d.at("locked/f"))
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = ["+i", d.at("locked")]
        guard (try? chattr.run()) != nil else {
            Issue.record("chattr is not installed: the immutable-directory case did not run")
            return
        }
        chattr.waitUntilExit()
        defer {
            let undo = Process()
            undo.executableURL = chattr.executableURL
            undo.arguments = ["-i", d.at("locked")]
            try? undo.run()
            undo.waitUntilExit()
        }
        guard chattr.terminationStatus == 0 else {
            Issue.record("chattr +i failed (not root, or no immutable flag here): the case did not run")
            return
        }
        #expect(
            throws: FileAccess.Failure(
                reason: "cannot create a file in '\(d.at("locked"))' (permission denied); the old file is untouched")
        ) {
            try FileAccess.write([3], to: d.at("locked/f"))
        }
        #expect(Self.contents(d.at("locked/f")) == [1, 2])
    }

    @Test func standardOutputByName() throws {
        // `/dev/fd/N` is written through the descriptor itself, so its offset and O_APPEND hold.
        let d = try Dir()
        try FileAccess.write([0x61], to: d.at("log"))
        let fd = open(d.at("log"), O_WRONLY | O_APPEND)
        defer { close(fd) }
        #expect(try FileAccess.write([0x62], to: "/dev/fd/\(fd)") == .stream)
        #expect(Self.contents(d.at("log")) == [0x61, 0x62])
    }
}
