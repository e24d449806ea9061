import Foundation
import OpenNFCBytes
import OpenNFCHTTP
import OpenNFCSimulation
import OpenNFCTestSupport

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

    static func executable(_ name: String) -> URL { TestProcess.executable(name) }

    /// A child process with its output collected (``WatchedProcess``).
    typealias Child = WatchedProcess

    /// Starts one of this package's programs, its output collected as it comes.
    static func child(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil
    ) throws -> Child {
        try WatchedProcess(executable(name), arguments, environment: environment, directory: directory)
    }

    /// Runs a program to its end.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> ProcessOutput
    {
        try TestProcess.run(executable(name), arguments, environment: environment)
    }
}
