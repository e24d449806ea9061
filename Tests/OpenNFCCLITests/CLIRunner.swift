import Foundation
import OpenNFCTestSupport

/// Runs the built `opennfc` binary as a user would, capturing stdout, stderr and the exit status.
///
/// The binary is the one `swift build` left next to this test bundle (`.build/<config>/opennfc`), or `$OPENNFC_BIN`.
enum CLIRunner {
    typealias Result = ProcessOutput

    static var binary: URL { TestProcess.executable("opennfc", override: "OPENNFC_BIN") }

    /// Runs the first command against a card `opennfc emulate` has just put into a vpcd slot. Right after the previous
    /// test's card left that slot, pcscd can still report it for a moment, so a first attempt can see that card leave
    /// ("left the field", "took the place"); a user swapping tags would simply try again, and so does this, once.
    static func firstAgainstEmulated(_ attempt: () throws -> Result) rethrows -> Result {
        let first = try attempt()
        guard first.status != 0, first.stderr.contains("left the field") || first.stderr.contains("took the place")
        else { return first }
        return try attempt()
    }

    /// Starts `opennfc <arguments>` in the background (`emulate`), with its stderr in the returned pipe.
    static func start(_ arguments: [String]) throws -> (process: Process, stderr: Pipe) {
        try TestProcess.start(binary, arguments)
    }

    /// `opennfc <arguments>` running, its output collected as it comes (``WatchedProcess``).
    static func watch(_ arguments: [String], environment: [String: String] = [:]) throws -> WatchedProcess {
        try WatchedProcess(binary, arguments, environment: environment)
    }

    /// Runs `opennfc <arguments>` with `stdin` as standard input and an environment without OPENCORENFC_* unless
    /// given in `environment` (``TestProcess/run(_:_:stdin:environment:currentDirectory:timeout:)``).
    /// With `timeout`, a process still running after that many seconds is terminated (its status then tells).
    /// With `launcher` (`["/usr/bin/setpriv", "--reuid=65534", …]`), the binary runs through that program: the
    /// launcher's arguments, then the binary's path, then `arguments`.
    static func run(
        _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Double? = nil, launcher: [String] = []
    ) throws -> Result {
        guard let program = launcher.first else {
            return try TestProcess.run(
                binary, arguments, stdin: stdin, environment: environment, currentDirectory: currentDirectory,
                timeout: timeout)
        }
        return try TestProcess.run(
            URL(fileURLWithPath: program), launcher.dropFirst() + [binary.path] + arguments, stdin: stdin,
            environment: environment, currentDirectory: currentDirectory, timeout: timeout)
    }

    /// A fresh temporary directory for one test, removed by the caller with `cleanup`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opennfc-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
