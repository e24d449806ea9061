import Foundation
import OpenNFCBytes
import OpenNFCFieldServer
import OpenNFCHTTP
import Testing

/// End to end with separate processes: the `opencorenfc-example` program and the `opennfc` CLI as apps of a field,
/// and `opennfc field serve` itself.
@Suite(.serialized) struct FieldProcessTests {
    func example(_ address: LoopbackAddress) throws -> FieldFixture.Child {
        try FieldFixture.child(
            "opencorenfc-example", [],
            environment: ["OPENCORENFC_DEVICE": "remote:\(address)", "OPENCORENFC_PROFILE": "desktop"])
    }

    /// The app starts, its sheet appears in the field; a person puts a tag on the phone; the app reads it (204).
    @Test func theExampleReadsATagPutOnThePhone() throws {
        let dir = try FieldFixture.directory()
        let s = try FieldServer(port: 0, shelf: [try FieldFixture.tagFile(in: dir)])
        s.start()
        defer { s.stop() }
        let app = try example(s.address)
        defer { app.stop() }
        let shown = try FieldFixture.waitForState(s.address) { $0["sheet"]?["presented"] == .bool(true) }
        #expect(shown["app"]?["name"]?.stringValue == "opencorenfc-example")
        #expect(shown["sheet"]?["message"]?.stringValue == "Hold your iPhone near the tag.")
        #expect(shown["sheet"]?["title"]?.stringValue == "Ready to Scan")
        #expect(try FieldFixture.api(s.address, "POST", "/api/put", .object([("tag", .int(1))])).0 == 200)
        let r = app.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "URI https://example.com\n")
        let after = try FieldFixture.waitForState(s.address) { $0["app"] == .null }
        #expect(after["sheet"]?["presented"] == .bool(false))
    }

    /// Cancel in the field is the user's Cancel in the app: 200, "Session invalidated by user".
    @Test func cancelInTheFieldEndsTheAppsSessionWith200() throws {
        let s = try FieldServer(port: 0, shelf: [])
        s.start()
        defer { s.stop() }
        let app = try example(s.address)
        defer { app.stop() }
        try FieldFixture.waitForState(s.address) { $0["sheet"]?["presented"] == .bool(true) }
        #expect(try FieldFixture.api(s.address, "POST", "/api/cancel").0 == 200)
        let r = app.finish()
        #expect(r.status == 1)
        #expect(r.stderr.contains("Session ended: Session invalidated by user"))
    }

    /// The transcript shows what the app received, in Core NFC's words, between the frames: the session becoming
    /// active, the tag detected after the frames that read it, the invalidation with its `NFCReaderError` code.
    @Test func theTranscriptShowsWhatTheAppReceived() throws {
        let dir = try FieldFixture.directory()
        let s = try FieldServer(port: 0, shelf: [try FieldFixture.tagFile(in: dir)])
        s.start()
        defer { s.stop() }
        let app = try example(s.address)
        defer { app.stop() }
        try FieldFixture.waitForState(s.address) { $0["sheet"]?["presented"] == .bool(true) }
        #expect(try FieldFixture.api(s.address, "POST", "/api/put", .object([("tag", .int(1))])).0 == 200)
        #expect(app.finish().status == 0)
        try FieldFixture.waitForState(s.address) { $0["app"] == .null }
        let (_, transcript) = try FieldFixture.api(s.address, "GET", "/api/transcript?since=0")
        let lines = transcript["lines"]?.arrayValue ?? []
        let received = lines.filter { $0["kind"]?.stringValue == "app" }.compactMap { $0["text"]?.stringValue }
        #expect(received.contains("readerSessionDidBecomeActive"), "\(received)")
        #expect(received.contains("didDetectNDEFs: a 16-byte message from 04A1B2C3D4E5F6"), "\(received)")
        #expect(
            received.contains("didInvalidateWithError: 204 readerSessionInvalidationErrorFirstNDEFTagRead"),
            "\(received)")
        // Between the frames: the message arrives after the card's last answer, before the app leaves.
        let texts = lines.compactMap { $0["text"]?.stringValue }
        let detected = try #require(texts.firstIndex { $0.hasPrefix("didDetectNDEFs") })
        let lastAnswer = try #require(texts.lastIndex { $0.hasPrefix("< ") })
        #expect(lastAnswer < detected, "\(texts)")
    }

    /// A command polling through the field has no sheet: the state says it polls ("Ready to Scan" on the page)
    /// until it activates the tag put on the phone; the invalidation of a Core NFC app's session ends it too.
    @Test func theStateSaysWhileAnAppPolls() throws {
        let dir = try FieldFixture.directory()
        let s = try FieldServer(port: 0, shelf: [try FieldFixture.tagFile(in: dir)])
        s.start()
        defer { s.stop() }
        #expect(try FieldFixture.api(s.address, "GET", "/api/state").1["polling"] == .bool(false))
        let reader = try FieldFixture.child("opennfc", ["read", "--device", "remote:\(s.address)", "--timeout", "20"])
        defer { reader.stop() }
        let polling = try FieldFixture.waitForState(s.address) { $0["polling"] == .bool(true) }
        #expect(polling["sheet"]?["presented"] == .bool(false))
        #expect(try FieldFixture.api(s.address, "POST", "/api/put", .object([("tag", .int(1))])).0 == 200)
        let r = reader.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("https://example.com"))
        try FieldFixture.waitForState(s.address) { $0["polling"] == .bool(false) && $0["app"] == .null }
        // Cancel ends a Core NFC app's session: it polls no more.
        #expect(try FieldFixture.api(s.address, "POST", "/api/remove", .object([("all", .bool(true))])).0 == 200)
        let app = try example(s.address)
        defer { app.stop() }
        try FieldFixture.waitForState(s.address) { $0["polling"] == .bool(true) }
        #expect(try FieldFixture.api(s.address, "POST", "/api/cancel").0 == 200)
        try FieldFixture.waitForState(s.address) { $0["polling"] == .bool(false) }
        #expect(app.finish().status == 1)
    }

    /// One app at a time: a second program gets the reason and behaves as on a device without NFC.
    @Test func aSecondExampleIsRefusedWhileTheFirstIsConnected() throws {
        let s = try FieldServer(port: 0, shelf: [])
        s.start()
        defer { s.stop() }
        let first = try example(s.address)
        defer { first.stop() }
        try FieldFixture.waitForState(s.address) { $0["app"] != .null }
        let second = try example(s.address).finish()
        #expect(second.status == 1)
        #expect(second.stderr.contains("another app is connected to this field: opencorenfc-example (pid"))
        #expect(second.stderr.contains("NFC reading is not available on this device."))
    }

    /// `opennfc field serve` as a process, driven by `opennfc field put|state|cancel`, with `opennfc write` as the
    /// app: the write changes the tag's memory map in the field; `field save` writes it to its file.
    @Test func theCLIServesAndDrivesTheFieldAndWritesThroughIt() throws {
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        let serve = try FieldFixture.child("opennfc", ["field", "serve", "--port", "0", "--put", file])
        defer { serve.stop() }
        let url = serve.firstLine()
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let port = String(url.dropFirst("http://127.0.0.1:".count).dropLast())
        let address = try LoopbackAddress(host: "127.0.0.1", port: UInt16(port)!)
        let state = try FieldFixture.run("opennfc", ["field", "state", "--port", port])
        #expect(state.status == 0)
        let parsed = try JSONValue(parsing: state.stdout)
        #expect(parsed["tags"]?.arrayValue?.first?["onPhone"] == .bool(true))
        let before = try FieldFixture.api(address, "GET", "/api/tag?tag=1").1
        let w = try FieldFixture.run(
            "opennfc", ["write", "--device", "remote:\(port)", "--uri", "https://example.org/field", "--timeout", "10"])
        #expect(w.status == 0, "\(w.stderr)")
        let after = try FieldFixture.api(address, "GET", "/api/tag?tag=1").1
        #expect(before["ndef"]?["records"] != after["ndef"]?["records"])
        let records = after["ndef"]?["records"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(records.contains { $0.contains("https://example.org/field") })
        #expect(after["tag"]?["unsaved"] == .bool(true))
        let cancel = try FieldFixture.run("opennfc", ["field", "cancel", "--port", port])
        #expect(cancel.status == 1)
        #expect(cancel.stderr.contains("the field refused: no app is connected"))
        #expect(try FieldFixture.run("opennfc", ["field", "save", "1", "--port", port]).status == 0)
        let read = try FieldFixture.run("opennfc", ["tag", "show", file])
        #expect(read.stdout.contains("https://example.org/field"))
        let refused = try FieldFixture.run("opennfc", ["field", "serve", "--host", "0.0.0.0"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("loopback only"))
    }
}
