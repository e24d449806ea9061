import Foundation
import OpenNFCBytes
import OpenNFCTestSupport

/// `opennfc watch` as a process, and the tag files the tests present to it.
enum Watch {
    static var binary: String {
        if let p = ProcessInfo.processInfo.environment["OPENNFC_BIN"] { return p }
        let bundleDir = Bundle.main.bundleURL
        for dir in [bundleDir, bundleDir.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("opennfc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/opennfc").path
    }

    /// The test's environment without OPENCORENFC_* and the key passphrase variable, plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("OPENCORENFC_") && $0.key != "OPENNFC_MQTT_KEY_PASSPHRASE"
        }.merging(extra) { _, new in new }
    }

    /// Starts `opennfc watch <arguments>` without OPENCORENFC_* from the test's environment, with `extra` added.
    static func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> LineProcess {
        try LineProcess(binary, ["watch"] + arguments, environment: environment(extra))
    }

    /// Runs `opennfc <arguments>` to its end, with `extra` added to the environment.
    static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Tool.Result {
        let p = try LineProcess(binary, arguments, environment: environment(extra))
        let status = p.waitForExit(seconds: 60) ?? -1
        p.waitForOutputEnd(seconds: 5)
        return Tool.Result(
            status: status, stdout: p.stdoutLines.joined(separator: "\n"), stderr: p.stderrLines.joined(separator: "\n")
        )
    }

    /// An NTAG215 tag file holding the URI `uri`, with UID `uid` (7 bytes hex), made by `opennfc tag new`.
    static func tagFile(in dir: URL, name: String, uid: String, uri: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let r = try run(["tag", "new", "--chip", "ntag215", "--uid", uid, "--uri", uri, "-o", path])
        guard r.status == 0 else { throw TestFailure("tag new failed: \(r.stderr)") }
        return path
    }

    static func temporaryDirectory() throws -> URL {
        let d = Broker.scratch.appendingPathComponent("opennfc-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }

    /// The JSON events among `lines`.
    static func events(_ lines: [String]) -> [JSONValue] {
        lines.compactMap { try? JSONValue(parsing: $0) }
    }

    static func count(_ lines: [String], type: String) -> Int {
        events(lines).filter { $0["type"]?.stringValue == type }.count
    }
}
