package import Foundation
internal import OpenNFCBytes

#if canImport(Glibc)
    internal import Glibc
#endif

/// A pcscd of one test's own, beside the shared one (`scripts/pcscd`) and without disturbing it: its own reader.conf
/// directory of vsmartcard vpcd readers on free ports, and its own `/run/pcscd` — pcscd's socket and pid file paths
/// are compiled in, so the daemon runs in a private mount namespace (`unshare -m`, root only) where a directory of
/// the test is bound over `/run/pcscd`. Clients reach it with `PCSCLITE_CSOCK_NAME=<dir>/run/pcscd.comm` (read by
/// libpcsclite at its first call).
///
/// Debian 12's pcscd 1.9.9 reads reader.conf only at start (its `--hotplug`/SIGUSR1 rescans USB; with the libudev
/// back-end it does nothing for configured readers), so ``restart(readers:)`` is how a test changes the reader set.
package final class PrivatePCSCD: @unchecked Sendable {
    /// One reader.conf entry for the vpcd driver: two readers, `<name> 00 00` on `port` and `<name> 00 01` on
    /// `port + 1`, where cards (``OpenNFCVPCD/VPCDServer``) connect.
    package struct Reader: Sendable {
        package var name: String
        package var port: UInt16
        package init(name: String, port: UInt16) {
            self.name = name
            self.port = port
        }
        /// The PC/SC names of the entry's two slots.
        package var slots: [String] { ["\(name) 00 00", "\(name) 00 01"] }
    }

    static let pcscd = "/usr/sbin/pcscd"
    static let unshare = "/usr/bin/unshare"
    static let driver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

    /// Root, `unshare`, pcscd and the vpcd driver are all there.
    package static var available: Bool {
        geteuid() == 0 && [pcscd, unshare].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
            && FileManager.default.fileExists(atPath: driver)
    }
    package static let skipReason =
        "a private pcscd needs root, unshare(1), pcscd and vsmartcard-vpcd (scripts/test installs the last two)"

    package let dir: URL
    private var process: LineProcess?
    /// What the last pcscd printed (its log, --foreground).
    private var lastLog: [String] = []

    /// The socket clients use (the value of `PCSCLITE_CSOCK_NAME`).
    package var socket: String { dir.appendingPathComponent("run/pcscd.comm").path }

    package init() throws {
        dir = Broker.scratch.appendingPathComponent("opennfc-pcscd-\(UUID().uuidString)")
        for sub in ["run", "conf"] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dir)
    }

    /// Starts pcscd with `readers` and waits (at most 10 s) until its socket exists and every vpcd port listens.
    package func start(readers: [Reader]) throws {
        let conf = dir.appendingPathComponent("conf")
        for old in (try? FileManager.default.contentsOfDirectory(atPath: conf.path)) ?? [] {
            try FileManager.default.removeItem(at: conf.appendingPathComponent(old))
        }
        for (i, r) in readers.enumerated() {
            let port = "0x" + String(r.port, radix: 16, uppercase: true)
            let entry = """
                FRIENDLYNAME "\(r.name)"
                DEVICENAME   /dev/null:\(port)
                LIBPATH      \(Self.driver)
                CHANNELID    \(port)

                """
            try FileAccess.write(Array(entry.utf8), to: conf.appendingPathComponent("reader\(i)").path)
        }
        let run = dir.appendingPathComponent("run")
        try? FileManager.default.removeItem(atPath: socket)
        // A private mount namespace (util-linux makes its mounts private): /run/pcscd is this test's directory there.
        let p = try LineProcess(
            Self.unshare,
            [
                "-m", "/bin/sh", "-c",
                "mkdir -p /run/pcscd && mount --bind \"$0\" /run/pcscd && exec \"$1\" --foreground --config \"$2\"",
                run.path, Self.pcscd, conf.path,
            ])
        process = p
        let pid = p.process.processIdentifier
        let deadline = Date(timeIntervalSinceNow: 10)
        while !(FileManager.default.fileExists(atPath: socket) && readers.allSatisfy({ Self.listens(port: $0.port) })) {
            guard Broker.alive(pid) else { throw TestFailure("private pcscd exited: \(self.log)") }
            guard Date() < deadline else { throw TestFailure("private pcscd not ready after 10 s: \(self.log)") }
            _ = Tool.pause(milliseconds: 10)
        }
    }

    /// Stops pcscd (SIGTERM, then SIGKILL after 5 s) and waits for its exit.
    package func stop() {
        guard let p = process else { return }
        process = nil
        p.signal(SIGTERM)
        _ = p.waitForExit(seconds: 5)
        lastLog = p.stdoutLines + p.stderrLines
    }

    /// Stops pcscd and starts it again with another reader set (the only way pcscd 1.9.9 re-reads reader.conf).
    package func restart(readers: [Reader]) throws {
        stop()
        try start(readers: readers)
    }

    package var log: String {
        ((process.map { $0.stdoutLines + $0.stderrLines }) ?? lastLog).joined(separator: "\n")
    }

    /// True when something listens on TCP `port` on any address (/proc/net/tcp, state 0A). Never probed by
    /// connecting: the vpcd driver would take the connection for a card.
    static func listens(port: UInt16) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
        let hex = String(port, radix: 16, uppercase: true)
        let local = ":" + String(repeating: "0", count: 4 - hex.count) + hex
        return table.split(separator: "\n").contains { line in
            let f = line.split(separator: " ")
            return f.count > 3 && f[1].hasSuffix(local) && f[3] == "0A"
        }
    }

    /// Two consecutive TCP ports free on every address (vpcd binds `INADDR_ANY`), for one reader.conf entry.
    package static func freePortPair() throws -> UInt16 {
        func bindable(_ port: UInt16) -> Bool {
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(port.bigEndian)
            addr.sin_addr.s_addr = INADDR_ANY
            return withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }
        for _ in 0..<200 {
            let port = UInt16.random(in: 40_000...59_998)
            if bindable(port) && bindable(port + 1) { return port }
        }
        throw TestFailure("no two consecutive free TCP ports found")
    }
}
