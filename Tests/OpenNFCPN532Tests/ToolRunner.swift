import Foundation
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation

/// Runs tools nobody here wrote (libnfc's, mfoc, libfreefare's, nfcpy) against a virtual PN532 served on a
/// pseudo-terminal in this process. Every run is bounded: a tool still running after its timeout is killed and
/// the test fails with what it printed.
enum ToolRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
        /// Output with runs of spaces collapsed (libnfc prints bytes as `04  a1  b2`).
        var text: String {
            (stdout + stderr).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
    }

    /// The tool's path on PATH, or nil (the test is then skipped with the package to install).
    static func find(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func has(_ tools: String...) -> Bool { tools.allSatisfy { find($0) != nil } }

    /// True when nfcpy imports (PyPI `nfcpy`, installed by scripts/test).
    static let hasNfcpy: Bool = {
        guard find("python3") != nil else { return false }
        return (try? run("python3", ["-c", "import nfc"], environment: [:], timeout: 30).status) == 0
    }()

    static func run(
        _ tool: String, _ arguments: [String], environment: [String: String], stdin: String = "",
        directory: URL? = nil, timeout: Double = 60
    ) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: find(tool) ?? tool)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let directory { p.currentDirectoryURL = directory }
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = errPipe
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try p.run()
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
        inPipe.fileHandleForWriting.write(Data(stdin.utf8))
        try? inPipe.fileHandleForWriting.close()
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            p.terminate()
            if exited.wait(timeout: .now() + 5) == .timedOut { kill(p.processIdentifier, SIGKILL) }
        }
        p.waitUntilExit()
        group.wait()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), timedOut: timedOut)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opennfc-pn532-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A virtual PN532 with tags in its field, served on a pseudo-terminal by a thread of this process.
final class ServedPN532: @unchecked Sendable {
    let field = VirtualField(clock: VirtualClock(), timing: .instant)
    let chip: VirtualPN532
    let server: PN532PseudoTerminal
    private let done = DispatchSemaphore(value: 0)
    private var stopped = false

    init(_ tags: [any VirtualTag], link: String? = nil) throws {
        for (i, t) in tags.enumerated() { field.place(t, at: i) }
        chip = VirtualPN532(field: field)
        server = try PN532PseudoTerminal(chip: chip, link: link)
        let server = self.server
        let done = self.done
        Thread {
            server.run()
            done.signal()
        }.start()
    }

    var path: String { server.path }

    /// libnfc's environment: this pty as the only device (`pn532_uart:` connstring, docs/PN532.md).
    var libnfc: [String: String] {
        [
            "LIBNFC_DEVICE": "pn532_uart:\(path)", "LIBNFC_DEFAULT_DEVICE": "pn532_uart:\(path)",
            "LIBNFC_AUTO_SCAN": "false",
        ]
    }

    /// Stops the server and waits until its thread no longer touches the field.
    func stop() {
        guard !stopped else { return }
        stopped = true
        server.stop()
        done.wait()
    }
}
