import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every command saves through the one writer (docs/CLI.md, "Conventions"): special files are written in place or
/// refused, never replaced; a link's target gets the write; a failed save leaves the old file and says so.
@Suite struct SafeWriteCLITests {
    static func kind(_ path: String) -> mode_t {
        var st = stat()
        guard lstat(path, &st) == 0 else { return 0 }
        return st.st_mode & S_IFMT
    }

    static let message = ["ndef", "encode", "--uri", "https://example.com"]
    static let bytes: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8)

    @Test func aFullDeviceIsAnErrorAndStaysADevice() throws {
        let r = try CLIRunner.run(Self.message + ["-o", "/dev/full"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: cannot write '/dev/full': no space left on the device\n")
        #expect(Self.kind("/dev/full") == S_IFCHR)
    }

    @Test func dashAndDevStdoutAreTheBytesOnStandardOutput() throws {
        for target in ["-", "/dev/stdout"] {
            let r = try CLIRunner.run(Self.message + ["-o", target])
            #expect(r.status == 0, "\(target): \(r.stderr)")
            #expect(Array(r.stdoutBytes) == Self.bytes, "\(target)")
        }
    }

    @Test func aNamedPipeIsNeverReplaced() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(mkfifo(ws.path("p"), 0o600) == 0)
        let r = try ws.run(Self.message + ["-o", "p"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: cannot write 'p': is a named pipe nobody is reading\n")
        #expect(Self.kind(ws.path("p")) == S_IFIFO)
    }

    /// A tag file reached through a link: the command's write lands in the real file; the link stays a link.
    @Test func aTagFileBehindALinkGetsTheWrite() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try FileManager.default.createDirectory(
            at: ws.dir.appendingPathComponent("tags"), withIntermediateDirectories: true)
        try ws.tag("tags/poster.json", TagFixture.ntag213)
        chmod(ws.path("tags/poster.json"), 0o600)
        #expect(symlink("tags/poster.json", ws.path("poster.json")) == 0)
        let w = try ws.run(["write", "--uri", "https://example.com", "--device", "sim:poster.json"])
        #expect(w.status == 0, "\(w.stderr)")
        #expect(Self.kind(ws.path("poster.json")) == S_IFLNK)
        let read = try ws.run(["read", "--raw", "--device", "sim:tags/poster.json"])
        #expect(read.stdout == BatchTests.hex(Self.bytes) + "\n")
        var st = stat()
        stat(ws.path("tags/poster.json"), &st)
        #expect(st.st_mode & 0o777 == 0o600)
        // A new tag file through a dangling link lands at the link's target.
        #expect(symlink("tags/new.json", ws.path("new.json")) == 0)
        #expect(try ws.run(["tag", "new", "--chip", "ntag215", "-o", "new.json"]).status == 0)
        #expect(Self.kind(ws.path("new.json")) == S_IFLNK && Self.kind(ws.path("tags/new.json")) == S_IFREG)
    }

    /// A disk that fills up while the new file is written (here: a file-size limit of 0, with SIGXFSZ ignored so the
    /// write fails as on a full disk): the old file stays whole, no temporary file is left, and the error says so.
    @Test func aSaveThatCannotCompleteLeavesTheOldFile() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try Data([1, 2, 3]).write(to: ws.dir.appendingPathComponent("m.ndef"))
        let r = try ws.run(
            Self.message + ["-o", "m.ndef"],
            launcher: ["/bin/sh", "-c", "trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\""])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "Error: cannot write 'm.ndef': the file is larger than this process may write (file size limit); "
                + "the old file is untouched\n")
        #expect(try Data(contentsOf: ws.dir.appendingPathComponent("m.ndef")) == Data([1, 2, 3]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: ws.dir.path) == ["m.ndef"])
    }

    /// A folder the user may not write to: as an unprivileged user (setpriv), and as root on an immutable folder.
    @Test func anUnwritableFolderLeavesTheOldFile() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try FileManager.default.createDirectory(
            at: ws.dir.appendingPathComponent("ro"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: ws.dir.appendingPathComponent("ro/m.ndef"))
        chmod(ws.dir.path, 0o755)
        chmod(ws.path("ro"), 0o755)
        chmod(ws.path("ro/m.ndef"), 0o666)
        let expected =
            "Error: cannot write 'ro/m.ndef': cannot create a file in 'ro' (permission denied); the old file is untouched\n"
        if geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            let r = try ws.run(
                Self.message + ["-o", "ro/m.ndef"],
                launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
            #expect(r.status == 1)
            #expect(r.stderr == expected)
            #expect(try Data(contentsOf: ws.dir.appendingPathComponent("ro/m.ndef")) == Data([1, 2, 3]))
        }
        // Root: the immutable flag is the one thing that stops it.
        guard geteuid() == 0 else { return }
        let chattr = try CLIRunnerShell.run("/usr/bin/chattr", ["+i", ws.path("ro")])
        guard chattr == 0 else {
            Issue.record("chattr +i failed here: the root case did not run")
            return
        }
        defer { _ = try? CLIRunnerShell.run("/usr/bin/chattr", ["-i", ws.path("ro")]) }
        let r = try ws.run(Self.message + ["-o", "ro/m.ndef"])
        #expect(r.status == 1)
        #expect(r.stderr == expected)
        #expect(try Data(contentsOf: ws.dir.appendingPathComponent("ro/m.ndef")) == Data([1, 2, 3]))
    }
}

/// A plain program run to its end (chattr and the like), its status returned.
enum CLIRunnerShell {
    static func run(_ program: String, _ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}

/// No code but ``FileAccess`` creates or replaces a file: the file-writing calls of Foundation and POSIX appear
/// nowhere else in Sources/. The exceptions: the test support's slot lock opens a lock file it never writes; a
/// station's journal appends records with an fsync each and compacts under its lock (docs/STATIONS.md, "The journal").
@Suite struct OneWriterTests {
    @Test func noOtherFileWriterRemains() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let patterns = [
            "O_CREAT", "O_TRUNC", ".write(to:", "write(toFile:", "createFile(atPath:", "FileHandle(forWriting",
            "fopen(", "rename(", "copyItem(", "moveItem(", "atomically:",
        ]
        let allowed: Set<String> = [
            "OpenNFCBytes/FileAccess.swift", "OpenNFCTestSupport/SlotLock.swift",
            "OpenNFCStation/Journal/JournalFile.swift",
        ]
        var found: [String] = []
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !allowed.contains(file) {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for p in patterns {
                    // A call, not a longer name that ends the same way (`removeItem(` is no `moveItem(`).
                    var rest = code[...]
                    while let r = rest.range(of: p) {
                        let before = rest[..<r.lowerBound].last
                        if !(before?.isLetter ?? false) {
                            found.append("\(file):\(n + 1): \(p)")
                            break
                        }
                        rest = rest[r.upperBound...]
                    }
                }
            }
        }
        #expect(found.isEmpty, "file writes outside FileAccess:\n\(found.joined(separator: "\n"))")
    }
}
