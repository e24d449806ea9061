package import Foundation

/// The one way the test suites run a program (the built `opennfc`, `opencorenfc-example`, a private pcscd, the
/// browser driver): find the executable, give it a clean environment, start it with no signal blocked
/// (``ChildSignals``), collect what it prints without ever blocking it, and end it by its own pid.
package enum TestProcess {
    /// An executable of this package as `swift build` left it beside the test bundle (`.build/<triple>/<config>/`),
    /// or `$<variable>` when that names one (`OPENNFC_BIN` for the CLI tests).
    package static func executable(_ name: String, override variable: String? = nil) -> URL {
        if let variable, let p = ProcessInfo.processInfo.environment[variable] { return URL(fileURLWithPath: p) }
        let bundleDir = Bundle.main.bundleURL
        for dir in [bundleDir, bundleDir.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// The checkout this file belongs to (for scripts and `.build` when the bundle's directory has no executable).
    package static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// A program on PATH (an interop tool nobody here wrote: libnfc's, mfoc, python3 for nfcpy), or nil when it is
    /// not installed (the test is then skipped, naming the package).
    package static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// A fresh directory under the system's temporary directory for one test's files; the test removes it.
    package static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A child's environment: this process's without the variables that choose a device or configure the phone
    /// (`OPENCORENFC_*`, `OPENNFC_DEVICE`), so a developer's shell cannot change a test, plus `extra`.
    package static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("OPENCORENFC_") && $0.key != "OPENNFC_DEVICE"
        }
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Starts `executable` in the background (`opennfc emulate`), with its stderr in the returned pipe; the caller
    /// ends it.
    package static func start(_ executable: URL, _ arguments: [String]) throws -> (process: Process, stderr: Pipe) {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        let err = Pipe()
        p.standardError = err
        try ChildSignals.run(p)
        return (p, err)
    }

    /// Runs `executable` to its end with `stdin` as its input, reading stdout and stderr at once (a large output
    /// cannot block the child). With `timeout`, a process still running after that many seconds is killed (its
    /// status then tells).
    package static func run(
        _ executable: URL, _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Double? = nil
    ) throws -> ProcessOutput {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.environment = Self.environment(environment)
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = errPipe
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try ChildSignals.run(p)
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data()
        nonisolated(unsafe) var err = Data()
        group.enter()
        DispatchQueue.global().async {
            out = outPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            err = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        inPipe.fileHandleForWriting.write(stdin)
        try inPipe.fileHandleForWriting.close()
        if let timeout, exited.wait(timeout: .now() + timeout) == .timedOut { p.terminate() }
        p.waitUntilExit()
        group.wait()
        return ProcessOutput(
            status: p.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out)
    }
}

/// What a finished program printed, and how it ended.
package struct ProcessOutput: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    package var stdoutBytes: Data
    /// False when the process had to be killed because it did not end in time (``WatchedProcess/finish(within:)``).
    package var finished = true
    /// The `Error: …` lines of stderr.
    package var errorLines: [Substring] { stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") } }

    package init(status: Int32, stdout: String, stderr: String, stdoutBytes: Data, finished: Bool = true) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutBytes = stdoutBytes
        self.finished = finished
    }
}

/// A running program (a command that waits, `opennfc emulate`, `opennfc field serve`, a daemon) whose stdout and
/// stderr are collected as they come, so that a test can wait, bounded and without sleeping, for a line to appear
/// and for the process to end. Killed by its own pid at the latest when it is released.
package final class WatchedProcess: @unchecked Sendable {
    package let process = Process()
    private let condition = NSCondition()
    private var out = Data()
    private var err = Data()
    private var open = 2
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `executable` (an absolute path) with a clean environment (``TestProcess/environment(_:)``).
    package init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = TestProcess.environment(environment)
        if let directory { process.currentDirectoryURL = directory }
        let o = Pipe()
        let e = Pipe()
        process.standardOutput = o
        process.standardError = e
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        try ChildSignals.run(process)
        collect(o.fileHandleForReading, isErr: false)
        collect(e.fileHandleForReading, isErr: true)
    }

    deinit { stop() }

    private func collect(_ handle: FileHandle, isErr: Bool) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty {
                    open -= 1
                } else if isErr {
                    err.append(chunk)
                } else {
                    out.append(chunk)
                }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
        thread.start()
    }

    package var stderrText: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: err, as: UTF8.self)
    }

    /// Waits at most `seconds` until stderr or stdout (daemons log to either) contains `text`.
    package func waitForStderr(_ text: String, seconds: Double) -> Bool {
        waitUntil(seconds: seconds) { out, err in
            String(decoding: err, as: UTF8.self).contains(text) || String(decoding: out, as: UTF8.self).contains(text)
        }
    }

    /// The first line of stdout (`field serve` prints its URL there), waiting at most `seconds` for it; what was
    /// printed when the output closed or the time ran out otherwise.
    package func firstLine(seconds: Double = 60) -> String {
        _ = waitUntil(seconds: seconds) { out, _ in out.contains(0x0A) }
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: out.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    private func waitUntil(seconds: Double, _ seen: (Data, Data) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !seen(out, err) {
            if open == 0 || !condition.wait(until: deadline) { return seen(out, err) }
        }
        return true
    }

    /// Waits at most `seconds` for the process to end (killing it past that) and for its output to close.
    package func finish(within seconds: Double = 600) -> ProcessOutput {
        let finished = exited.wait(timeout: .now() + seconds) == .success
        if !finished {
            ChildSignals.kill(process)
            exited.wait()
        }
        exited.signal()  // the end stays observable: finish and stop may be called again
        condition.lock()
        while open > 0 { condition.wait() }
        let result = ProcessOutput(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out, finished: finished)
        condition.unlock()
        return result
    }

    /// Ends the process now (SIGKILL, for a test that is done with it: nothing of it is checked) and waits for it.
    package func stop() {
        guard process.processIdentifier > 0 else { return }
        if process.isRunning { ChildSignals.kill(process) }
        exited.wait()
        exited.signal()
    }
}
