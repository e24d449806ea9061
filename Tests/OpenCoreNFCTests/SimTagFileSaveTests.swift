import Foundation
import OpenNFCSimulation
import Testing

/// `OPENCORENFC_DEVICE=sim:<file>`: an app's writes and locks are saved back to its tag file atomically, so the next
/// run sees them; `OPENCORENFC_SIM_SAVE=0` leaves the file untouched. Each run is the `opencorenfc-example` program
/// as a separate process.
@Suite struct SimTagFileSaveTests {
    let example = ExampleProgramTests()

    /// A factory NTAG213 tag file (JSON) holding `message`, in a fresh directory.
    func tagFile(holding message: [UInt8]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("simsave-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("tag.json").path
        let tag = try Type2Tag.factory(.ntag213, uid: [0x04, 0x5A, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F], holding: message)
        try TagFile.write(tag, path: path)
        return path
    }

    func environment(_ path: String, _ extra: [String: String] = [:]) -> [String: String] {
        ["OPENCORENFC_DEVICE": "sim:\(path)", "OPENCORENFC_PROFILE": "desktop"].merging(extra) { $1 }
    }

    static let poster: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8)

    @Test func writesAndLocksAreSavedForTheNextRun() throws {
        let path = try tagFile(holding: Self.poster)
        let write = try example.run(environment(path), arguments: ["write", "https://written.example/a"])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout.hasPrefix("Wrote "))
        let read = try example.run(environment(path))
        #expect(read.status == 0)
        #expect(read.stdout == "URI https://written.example/a\n")
        // The file is still a valid tag file, written atomically (no temporary file left beside it).
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["tag.json"])
        let lock = try example.run(environment(path), arguments: ["lock"])
        #expect(lock.status == 0, "\(lock.stderr)")
        #expect(lock.stdout == "Locked\n")
        let tag = try TagFile.read(path: path)
        #expect((tag as? Type2Tag)?.isNDEFReadOnly == true)
        // The next run sees a read-only tag: writing is refused, reading still works.
        let refused = try example.run(environment(path), arguments: ["write", "https://again.example"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Failed: NDEF tag is read only"))
        #expect(try example.run(environment(path)).stdout == "URI https://written.example/a\n")
    }

    @Test func aRunThatChangesNothingLeavesTheFileByteForByte() throws {
        let path = try tagFile(holding: Self.poster)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let read = try example.run(environment(path))
        #expect(read.stdout == "URI https://example.com\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
    }

    @Test func simSave0LeavesTheFileUntouched() throws {
        let path = try tagFile(holding: Self.poster)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let write = try example.run(
            environment(path, ["OPENCORENFC_SIM_SAVE": "0"]), arguments: ["write", "https://lost.example"])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try example.run(environment(path)).stdout == "URI https://example.com\n")
        let bad = try example.run(environment(path, ["OPENCORENFC_SIM_SAVE": "no"]))
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("OPENCORENFC_SIM_SAVE must be 0 or 1, not \"no\""))
    }
}
