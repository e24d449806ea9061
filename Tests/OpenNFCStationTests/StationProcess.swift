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

    /// Starts `opennfc watch <arguments>` without OPENCORENFC_* from the test's environment.
    static func start(_ arguments: [String]) throws -> LineProcess {
        let env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OPENCORENFC_") }
        return try LineProcess(binary, ["watch"] + arguments, environment: env)
    }

    /// Runs `opennfc <arguments>` to its end.
    static func run(_ arguments: [String]) throws -> Tool.Result { try Tool.run(binary, arguments) }

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
