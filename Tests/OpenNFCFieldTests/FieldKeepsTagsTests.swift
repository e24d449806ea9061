import Foundation
import OpenNFCBytes
import OpenNFCFieldServer
import OpenNFCHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The field keeps its tags (docs/FIELD.md, "Saving"): one shelf tag per file whatever path names it; what an app
/// wrote reaches the file when the tag is taken away and when the server stops (SIGINT, SIGTERM), or is named as not
/// saved with `--no-save`; a failed save is the one non-zero exit.
@Suite(.serialized) struct FieldKeepsTagsTests {
    /// `opennfc field serve` with `file` on the phone: the child and its port.
    static func serve(_ file: String, _ extra: [String] = []) throws -> (FieldFixture.Child, String) {
        let serve = try FieldFixture.child("opennfc", ["field", "serve", "--port", "0", "--put", file] + extra)
        let url = serve.firstLine()
        return (serve, String(url.dropFirst("http://127.0.0.1:".count).dropLast()))
    }

    static func write(_ port: String, _ uri: String) throws {
        let w = try FieldFixture.run(
            "opennfc", ["write", "--device", "remote:\(port)", "--uri", uri, "--timeout", "10"])
        #expect(w.status == 0, "\(w.stderr)")
    }

    static func show(_ file: String) throws -> String { try FieldFixture.run("opennfc", ["tag", "show", file]).stdout }

    @Test func aSecondPutOfTheSameFileIsTheSameTag() throws {
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        #expect(symlink(file, dir.appendingPathComponent("link.json").path) == 0)
        let s = try FieldServer(port: 0, shelf: [file])
        s.start()
        defer { s.stop() }
        for reference in [file, dir.appendingPathComponent("link.json").path, dir.path + "/./poster.json"] {
            let (status, reply) = try FieldFixture.api(
                s.address, "POST", "/api/put", .object([("tag", .string(reference))]))
            #expect(status == 200, "\(reference): \(reply)")
            #expect(reply["tag"]?["id"] == .int(1), "\(reference)")
        }
        let state = try FieldFixture.api(s.address, "GET", "/api/state").1
        #expect(state["tags"]?.arrayValue?.count == 1)
        // Two files given at start that are one file: one tag.
        let twice = try FieldServer(port: 0, shelf: [file, dir.appendingPathComponent("link.json").path])
        #expect(twice.unsavedTags.isEmpty)
        twice.start()
        defer { twice.stop() }
        #expect(try FieldFixture.api(twice.address, "GET", "/api/state").1["tags"]?.arrayValue?.count == 1)
    }

    @Test func sigintSavesWhatAnAppWroteAndTakingATagAwaySavesIt() throws {
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        let (serve, port) = try Self.serve(file)
        defer { serve.stop() }
        try Self.write(port, "https://example.org/first")
        let state = try FieldFixture.run("opennfc", ["field", "state", "--port", port])
        #expect(try JSONValue(parsing: state.stdout)["unsaved"] == .array([.string("poster.json")]))
        #expect(try !Self.show(file).contains("example.org/first"))
        // Taken away: written back.
        #expect(try FieldFixture.run("opennfc", ["field", "remove", "1", "--port", port]).status == 0)
        #expect(try Self.show(file).contains("https://example.org/first"))
        #expect(
            try JSONValue(parsing: FieldFixture.run("opennfc", ["field", "state", "--port", port]).stdout)["unsaved"]
                == .array([]))
        // Put back, written again, then Ctrl-C: saved on the way out, exit 0.
        #expect(try FieldFixture.run("opennfc", ["field", "put", "1", "--port", port]).status == 0)
        try Self.write(port, "https://example.org/second")
        kill(serve.process.processIdentifier, SIGINT)
        let r = serve.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Saved \(file).\n"))
        #expect(try Self.show(file).contains("https://example.org/second"))
    }

    @Test func noSaveSaysWhatWasNotSaved() throws {
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let (serve, port) = try Self.serve(file, ["--no-save"])
        defer { serve.stop() }
        try Self.write(port, "https://example.org/lost")
        #expect(try FieldFixture.run("opennfc", ["field", "remove", "1", "--port", port]).status == 0)
        kill(serve.process.processIdentifier, SIGTERM)
        let r = serve.finish()
        #expect(r.status == 0)
        #expect(r.stderr.contains("Not saved (--no-save): poster.json changed since last saved.\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    /// The folder cannot take the file any more (immutable, which stops root too): the stop says so and exits 1.
    @Test func aSaveThatFailsOnStopExitsNonZero() throws {
        guard geteuid() == 0 else { return }
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        let (serve, port) = try Self.serve(file)
        defer { serve.stop() }
        try Self.write(port, "https://example.org/kept")
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = ["+i", dir.path]
        try chattr.run()
        chattr.waitUntilExit()
        defer {
            let undo = Process()
            undo.executableURL = chattr.executableURL
            undo.arguments = ["-i", dir.path]
            try? undo.run()
            undo.waitUntilExit()
        }
        guard chattr.terminationStatus == 0 else {
            Issue.record("chattr +i failed here: the failed-save case did not run")
            return
        }
        kill(serve.process.processIdentifier, SIGINT)
        let r = serve.finish()
        #expect(r.status == 1)
        #expect(r.stderr.contains("Error: could not save \(file): "))
        #expect(r.stderr.contains("the old file is untouched"))
    }

    /// `batch write` over `remote:` reports `written` and the file holds it once the field stops.
    @Test func aBatchOverRemoteEndsUpInTheFile() throws {
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        let (serve, port) = try Self.serve(file)
        defer { serve.stop() }
        try "https://example.org/batch\n".write(
            to: dir.appendingPathComponent("u.txt"), atomically: true, encoding: .utf8)
        let b = try FieldFixture.run(
            "opennfc",
            [
                "batch", "write", "--uris", dir.appendingPathComponent("u.txt").path, "--device", "remote:\(port)",
                "--timeout", "10",
            ])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(b.stderr.contains(" written"))
        kill(serve.process.processIdentifier, SIGINT)
        #expect(serve.finish().status == 0)
        #expect(try Self.show(file).contains("https://example.org/batch"))
    }
}
