import Foundation
import OpenNFCBytes
import OpenNFCHTTP
import OpenNFCSimulation

/// Helpers of the field tests: tag files, API calls, the built executables.
enum FieldFixture {
    /// A fresh directory for one test.
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("field-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The URI record of https://example.com (NFC Forum URI RTD: prefix 04 = "https://").
    static let exampleURI: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8)

    /// An NTAG215 tag file holding `message`, written as JSON.
    static func tagFile(in dir: URL, name: String = "poster.json", message: [UInt8] = exampleURI) throws -> String {
        let tag = try TagFile.factory(
            chip: "ntag215", uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], holding: message)
        let path = dir.appendingPathComponent(name).path
        try TagFile.write(tag, path: path)
        return path
    }

    static func api(_ address: LoopbackAddress, _ method: String, _ path: String, _ body: JSONValue? = nil) throws
        -> (Int, JSONValue)
    {
        let r = try HTTPClient.request(
            method, path, to: address, body: body.map { Array($0.compact.utf8) } ?? [])
        return (r.status, try JSONValue(parsing: String(decoding: r.body, as: UTF8.self)))
    }

    /// Waits (long polls, no sleeping) until `condition` holds for the field's state, at most `seconds`.
    @discardableResult
    static func waitForState(_ address: LoopbackAddress, seconds: Double = 20, _ condition: (JSONValue) -> Bool) throws
        -> JSONValue
    {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var (_, state) = try api(address, "GET", "/api/state")
        while !condition(state) {
            guard Date() < deadline else { return state }
            let rev = state["revision"]?.intValue ?? 0
            (_, state) = try api(address, "GET", "/api/state?after=\(rev)&wait=2000")
        }
        return state
    }

    static func executable(_ name: String) -> URL {
        let bundleDir = Bundle.main.bundleURL
        for dir in [bundleDir, bundleDir.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/\(name)")
    }

    /// A child process with its output collected.
    final class Child: @unchecked Sendable {
        let process = Process()
        private let out = Pipe()
        private let err = Pipe()

        init(_ name: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws {
            process.executableURL = FieldFixture.executable(name)
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment.filter {
                !$0.key.hasPrefix("OPENCORENFC_") && $0.key != "OPENNFC_DEVICE"
            }
            for (k, v) in environment { env[k] = v }
            process.environment = env
            if let directory { process.currentDirectoryURL = directory }
            process.standardOutput = out
            process.standardError = err
            try process.run()
        }

        /// The first line of stdout (`field serve` prints its URL there).
        func firstLine() -> String {
            var bytes: [UInt8] = []
            while true {
                let d = out.fileHandleForReading.readData(ofLength: 1)
                if d.isEmpty || d.first == 0x0A { break }
                bytes += d
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Waits for the end and returns status, stdout, stderr.
        func finish() -> (status: Int32, stdout: String, stderr: String) {
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
        }

        /// Ends the process (SIGKILL: test runners may start children with SIGTERM blocked).
        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// Runs a program to its end.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try Child(name, arguments, environment: environment).finish()
    }
}
