import Foundation

/// Runs the built `opennfc` binary as a user would, capturing stdout, stderr and the exit status.
///
/// The binary is the one `swift build` left next to this test bundle (`.build/<config>/opennfc`), or `$OPENNFC_BIN`.
enum CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutBytes: Data
    }

    static var binary: URL {
        if let p = ProcessInfo.processInfo.environment["OPENNFC_BIN"] { return URL(fileURLWithPath: p) }
        // The test bundle lives in .build/<triple>/debug; the executable sits beside it.
        let bundleDir = Bundle.main.bundleURL
        for dir in [bundleDir, bundleDir.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("opennfc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/opennfc")
    }

    /// Starts `opennfc <arguments>` in the background (`emulate`), with its stderr in the returned pipe.
    /// Runs the first command against a card `opennfc emulate` has just put into a vpcd slot. Right after the previous
    /// test's card left that slot, pcscd can still report it for a moment, so a first attempt can see that card leave
    /// ("left the field", "took the place"); a user swapping tags would simply try again, and so does this, once.
    static func firstAgainstEmulated(_ attempt: () throws -> Result) rethrows -> Result {
        let first = try attempt()
        guard first.status != 0, first.stderr.contains("left the field") || first.stderr.contains("took the place")
        else { return first }
        return try attempt()
    }

    static func start(_ arguments: [String]) throws -> (process: Process, stderr: Pipe) {
        let p = Process()
        p.executableURL = binary
        p.arguments = arguments
        let err = Pipe()
        p.standardError = err
        try p.run()
        return (p, err)
    }

    /// Runs `opennfc <arguments>` with `stdin` as standard input and an environment without OPENCORENFC_* unless
    /// given in `environment`.
    /// With `timeout`, a process still running after that many seconds is terminated (its status then tells).
    /// With `launcher` (`["/usr/bin/setpriv", "--reuid=65534", …]`), the binary runs through that program: the
    /// launcher's arguments, then the binary's path, then `arguments`.
    static func run(
        _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Double? = nil, launcher: [String] = []
    ) throws -> Result {
        let p = Process()
        if let program = launcher.first {
            p.executableURL = URL(fileURLWithPath: program)
            p.arguments = launcher.dropFirst() + [binary.path] + arguments
        } else {
            p.executableURL = binary
            p.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OPENCORENFC_") }
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = errPipe
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try p.run()
        // Read both pipes concurrently so a large output cannot block the child.
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
        return Result(
            status: p.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out)
    }

    /// A fresh temporary directory for one test, removed by the caller with `cleanup`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opennfc-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
