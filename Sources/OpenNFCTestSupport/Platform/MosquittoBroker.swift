package import Foundation
internal import OpenNFCBytes

#if canImport(Glibc)
    internal import Glibc
#endif

/// A private mosquitto broker for one test or benchmark: its own directory, config, loopback port and persistence, started and
/// stopped by pid. Missing mosquitto skips the test loudly (scripts/test installs Debian's `mosquitto`).
package final class Broker: @unchecked Sendable {
    package static let binary = "/usr/sbin/mosquitto"
    package static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }
    package static let skipNote =
        "SKIPPED: mosquitto is not installed (scripts/test installs Debian's mosquitto and "
        + "mosquitto-clients)"

    package let dir: URL
    /// The plain listener (subscribers use it).
    package let port: Int
    /// The TLS listener, when the broker has one.
    package let tlsPort: Int?
    private var process: Process?
    package private(set) var users: [String: String] = [:]

    /// A TLS listener: the broker's certificate and key, the CA its clients' certificates must chain to, and whether
    /// a client certificate is required (`require_certificate`, mosquitto.conf(5)), and the one TLS version it speaks
    /// (`tls_version`; nil: OpenSSL's default, TLS 1.3). Under TLS 1.2 a missing client certificate fails the handshake
    /// itself; under TLS 1.3 the broker refuses it after the client's side of the handshake is done.
    package struct TLSListener {
        package var certificate: String
        package var key: String
        package var clientCA: String
        package var requireCertificate: Bool
        package var version: String?
        package init(
            certificate: String, key: String, clientCA: String, requireCertificate: Bool, version: String? = nil
        ) {
            self.certificate = certificate
            self.key = key
            self.clientCA = clientCA
            self.requireCertificate = requireCertificate
            self.version = version
        }
    }

    /// `users` non-empty: anonymous clients are refused and only these may connect (mosquitto_passwd file). `tls`: a
    /// second listener, with TLS, beside the plain one.
    package init(users: [String: String] = [:], tls: TLSListener? = nil, tlsPort: Int? = nil) throws {
        dir = Self.scratch.appendingPathComponent("opennfc-broker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("data"), withIntermediateDirectories: true)
        port = try Self.freePort()
        self.tlsPort = try tls == nil ? nil : (tlsPort ?? Self.freePort())
        self.users = users
        var conf = """
            persistence true
            persistence_location \(dir.appendingPathComponent("data").path)/
            log_dest file \(dir.appendingPathComponent("mosquitto.log").path)
            log_type all
            max_queued_messages 0
            listener \(port) 127.0.0.1

            """
        if let tls, let tlsPort = self.tlsPort {
            conf += """
                listener \(tlsPort) 127.0.0.1
                certfile \(tls.certificate)
                keyfile \(tls.key)
                cafile \(tls.clientCA)
                require_certificate \(tls.requireCertificate)
                \(tls.version.map { "tls_version \($0)" } ?? "")

                """
        }
        if geteuid() == 0 { conf += "user root\n" }
        if users.isEmpty {
            conf += "allow_anonymous true\n"
        } else {
            let pw = dir.appendingPathComponent("passwords").path
            for (n, (u, p)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                // -c creates the file with the first user.
                let r = try Tool.run("/usr/bin/mosquitto_passwd", (n == 0 ? ["-c"] : []) + ["-b", pw, u, p])
                guard r.status == 0 else { throw TestFailure("mosquitto_passwd failed: \(r.stderr)") }
            }
            conf += "allow_anonymous false\npassword_file \(pw)\n"
        }
        try FileAccess.write(Array(conf.utf8), to: dir.appendingPathComponent("mosquitto.conf").path)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dir)
    }

    /// Where brokers and stations under test keep their files: memory (`/dev/shm`) when there is one. On a disk
    /// shared with busy builds one `fsync` can take seconds (it flushes what others wrote), which would time the
    /// machine, not the code; the calls are the same either way. `opennfc-bench watch` measures on the real disk.
    package static var scratch: URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: "/dev/shm")
        {
            return URL(fileURLWithPath: "/dev/shm")
        }
        return FileManager.default.temporaryDirectory
    }

    package var url: String { "mqtt://127.0.0.1:\(port)" }
    /// The TLS listener's URL, by the host name its certificate names.
    package var tlsURL: String { "mqtts://localhost:\(tlsPort ?? 0)" }

    /// Starts the broker and waits (at most 10 s) until it accepts connections.
    package func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = ["-c", dir.appendingPathComponent("mosquitto.conf").path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Tool.spawn(p)
        process = p
        let deadline = Date(timeIntervalSinceNow: 10)
        while !Self.accepts(port: port) || !(tlsPort.map { Self.accepts(port: $0) } ?? true) {
            guard p.isRunning else { throw TestFailure("mosquitto exited: \(log)") }
            guard Date() < deadline else { throw TestFailure("mosquitto not accepting on \(port) after 10 s") }
            _ = Tool.pause(milliseconds: 10)
        }
    }

    /// SIGTERM (the broker saves its persistence and publishes connected clients' Wills), waiting for the exit.
    package func stop() {
        guard let p = process else { return }
        process = nil
        kill(p.processIdentifier, SIGTERM)
        // Exited = a zombie or gone (/proc); Foundation may reap it (and call its handler) much later.
        let deadline = Date(timeIntervalSinceNow: 10)
        while Self.alive(p.processIdentifier) && Date() < deadline { _ = Tool.pause(milliseconds: 10) }
        if Self.alive(p.processIdentifier) { kill(p.processIdentifier, SIGKILL) }
    }

    package var log: String {
        (try? String(contentsOf: dir.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
    }

    /// True while `pid` runs (not yet a zombie).
    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    package static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return r == 0
    }

    /// A loopback port nobody listens on now (bound to port 0, then released).
    package static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard ok else { throw TestFailure("cannot find a free loopback port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

package struct TestFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ d: String) { description = d }
}

/// A process whose stdout (and stderr) lines are collected as they come, with bounded waits on what they say.
package final class LineProcess: @unchecked Sendable {
    package let process = Process()
    private let condition = NSCondition()
    private var out: [String] = []
    private var err: [String] = []
    private var exited = false
    private var closedPipes = 0

    package init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let o = Pipe()
        let e = Pipe()
        process.standardOutput = o
        process.standardError = e
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            self.condition.lock()
            self.exited = true
            self.condition.broadcast()
            self.condition.unlock()
        }
        try Tool.spawn(process)
        collect(o.fileHandleForReading, stdout: true)
        collect(e.fileHandleForReading, stdout: false)
    }

    private func collect(_ h: FileHandle, stdout: Bool) {
        let t = Thread { [self] in
            var pending = Data()
            while true {
                let d = h.availableData
                if d.isEmpty { break }
                pending.append(d)
                var lines: [String] = []
                while let nl = pending.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: pending[pending.startIndex..<nl], as: UTF8.self))
                    pending = Data(pending[(nl + 1)...])
                }
                condition.lock()
                if stdout { out += lines } else { err += lines }
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            closedPipes += 1
            condition.broadcast()
            condition.unlock()
        }
        t.start()
    }

    /// Waits until both pipes reached their end (the process and its children closed them), at most `seconds`.
    package func waitForOutputEnd(seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while closedPipes < 2 {
            if !condition.wait(until: deadline) { return }
        }
    }

    package var stdoutLines: [String] { condition.withLock { out } }
    package var stderrLines: [String] { condition.withLock { err } }

    /// Waits until `predicate(stdout, stderr)` holds or the process exited, at most `seconds`.
    @discardableResult
    package func wait(seconds: Double, until predicate: ([String], [String]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(out, err) {
            if exited || !condition.wait(until: deadline) { return predicate(out, err) }
        }
        return true
    }

    package func signal(_ s: Int32) { if process.isRunning { kill(process.processIdentifier, s) } }

    /// Waits for the exit, at most `seconds`; its status, or nil when it still runs (then it is killed).
    package func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        while !exited {
            if !condition.wait(until: deadline) { break }
        }
        let done = exited
        condition.unlock()
        guard done else {
            signal(SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { signal(SIGKILL) }
}

/// A `mosquitto_sub` subscriber with a persistent session (QoS 1), collecting `topic payload` lines. The session is
/// created first by a `mosquitto_sub -E` that exits once the broker acknowledged the subscription, so nothing
/// published after ``init(broker:topic:id:)`` returns can be missed (the broker queues it for the session).
package final class Subscriber {
    package let lines: LineProcess
    package static let binary = "/usr/bin/mosquitto_sub"

    package init(broker: Broker, topic: String, id: String = "sub-\(UUID().uuidString.prefix(8))") throws {
        let base = ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-c", "-i", id, "-t", topic]
        let subscribed = try Tool.run(Self.binary, base + ["-E"])
        guard subscribed.status == 0 else {
            throw TestFailure("mosquitto_sub could not subscribe: \(subscribed.stderr)")
        }
        lines = try LineProcess(Self.binary, base + ["-v"])
    }

    /// The messages (`topic`, `payload`) received so far, debug lines left out.
    package var messages: [(topic: String, payload: String)] {
        lines.stdoutLines.compactMap { line in
            guard let sp = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<sp]), String(line[line.index(after: sp)...]))
        }
    }

    package func waitFor(seconds: Double, _ predicate: @escaping ([(topic: String, payload: String)]) -> Bool) -> Bool {
        lines.wait(seconds: seconds) { out, _ in
            predicate(
                out.compactMap { line in
                    guard let sp = line.firstIndex(of: " ") else { return nil }
                    return (String(line[..<sp]), String(line[line.index(after: sp)...]))
                })
        }
    }

    deinit { lines.signal(SIGTERM) }
}

package enum Tool {
    /// Starts `process` with no signal blocked (``ChildSignals/run(_:)``), so `mosquitto` hears SIGTERM (a clean
    /// shutdown that saves its persistence).
    package static func spawn(_ process: Process) throws { try ChildSignals.run(process) }

    package struct Result {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        package init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    package static func run(_ path: String, _ arguments: [String]) throws -> Result {
        let p = try LineProcess(path, arguments)
        let status = p.waitForExit(seconds: 60) ?? -1
        p.waitForOutputEnd(seconds: 5)
        return Result(
            status: status, stdout: p.stdoutLines.joined(separator: "\n"), stderr: p.stderrLines.joined(separator: "\n")
        )
    }

    /// A bounded pause used only while polling an observable condition (a port accepting connections).
    package static func pause(milliseconds: Int) -> Bool {
        let c = NSCondition()
        c.lock()
        defer { c.unlock() }
        return c.wait(until: Date(timeIntervalSinceNow: Double(milliseconds) / 1000))
    }
}
