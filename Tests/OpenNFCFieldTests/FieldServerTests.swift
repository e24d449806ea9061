import Foundation
import OpenNFCBytes
import OpenNFCDevices
import OpenNFCFieldServer
import OpenNFCHTTP
import OpenNFCRF
import OpenNFCRemote
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// The field server in process, with the app side (RemoteFieldFrontend) over real loopback sockets.
@Suite struct FieldServerTests {
    func server(_ files: [String] = [], onPhone: [String] = []) throws -> FieldServer {
        let s = try FieldServer(port: 0, shelf: files, onPhone: onPhone)
        s.start()
        return s
    }

    @Test func anAppPollsActivatesAndReadsATagOnThePhone() throws {
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        let s = try server(onPhone: [file])
        defer { s.stop() }
        let app = try RemoteFieldFrontend(address: s.address, appName: "test")
        #expect(app.capabilities == .simulatedIPhone)
        let targets = try app.poll([.nfcA])
        #expect(targets.count == 1)
        #expect(targets[0].identifier == [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
        let t = try app.activate(targets[0], isoDEP: false)
        #expect(t.sensRes == 0x0044)
        // READ page 3 (NFC Forum T2T §5.1): the CC of a factory NTAG215 is E1 10 3E 00.
        guard case .frame(let page3) = try app.exchange([0x30, 0x03]) else {
            Issue.record("no frame")
            return
        }
        #expect(Array(page3.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
        app.deactivate()
        #expect(throws: RFError.self) { try app.exchange([0x30, 0x03]) }
        let (_, state) = try FieldFixture.api(s.address, "GET", "/api/state")
        #expect(state["app"]?["name"]?.stringValue == "test")
        let (_, transcript) = try FieldFixture.api(s.address, "GET", "/api/transcript?since=0")
        let texts = transcript["lines"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(texts.contains("> 3003"))
        #expect(texts.contains { $0.hasPrefix("< E1103E00") })
    }

    @Test func aSecondAppIsRefusedClearly() throws {
        let s = try server()
        defer { s.stop() }
        let first = try RemoteFieldFrontend(address: s.address, appName: "kiosk")
        do {
            _ = try RemoteFieldFrontend(address: s.address, appName: "second")
            Issue.record("a second app was accepted")
        } catch {
            #expect(error.message.contains("refused this app: another app is connected to this field: kiosk (pid"))
            #expect(error.message.contains("only one app at a time"))
        }
        first.close()
        _ = try FieldFixture.waitForState(s.address) { $0["app"] == .null }
        let third = try RemoteFieldFrontend(address: s.address, appName: "third")
        #expect(try third.poll([.nfcA]).isEmpty)
    }

    @Test func noFieldSaysHowToStartOne() throws {
        let s = try server()
        let address = s.address
        s.stop()
        do {
            _ = try RemoteFieldFrontend(address: address, appName: "test")
            Issue.record("connected to nothing")
        } catch {
            #expect(error.message.contains("no field at \(address)"))
            #expect(error.message.contains("opennfc field serve --port \(address.port)"))
        }
    }

    /// Putting and taking tags away reaches the app as events; Cancel too.
    @Test func fieldEventsAndCancelReachTheApp() throws {
        let dir = try FieldFixture.directory()
        let file = try FieldFixture.tagFile(in: dir)
        let s = try server([file])
        defer { s.stop() }
        let app = try RemoteFieldFrontend(address: s.address, appName: "test")
        let got = Events()
        app.onEvent = { got.append($0) }
        let before = app.changeCount
        let (status, put) = try FieldFixture.api(
            s.address, "POST", "/api/put", .object([("tag", .string("poster.json"))]))
        #expect(status == 200)
        #expect(put["tag"]?["onPhone"] == .bool(true))
        #expect(app.waitForChange(after: before, timeoutMilliseconds: 10_000))
        #expect(try app.poll([.nfcA]).count == 1)
        // Cancel needs a sheet.
        let (refused, why) = try FieldFixture.api(s.address, "POST", "/api/cancel")
        #expect(refused == 409)
        #expect(why["error"]?.stringValue == "test shows no sheet to cancel")
        app.send(sheet: FieldProtocol.Sheet(presented: true, message: "Hold it near"))
        let shown = try FieldFixture.waitForState(s.address) { $0["sheet"]?["presented"] == .bool(true) }
        #expect(shown["sheet"]?["message"]?.stringValue == "Hold it near")
        #expect(try FieldFixture.api(s.address, "POST", "/api/cancel").0 == 200)
        #expect(got.wait { $0.contains(.cancel) })
        let (removed, _) = try FieldFixture.api(s.address, "POST", "/api/remove", .object([("tag", .int(1))]))
        #expect(removed == 200)
        #expect(try app.poll([.nfcA]).isEmpty)
    }

    /// The field going away mid-session: the exchange in flight behaves as a tag leaving, then there is no reader.
    @Test func losingTheFieldIsATagLeavingThenNoReader() throws {
        let dir = try FieldFixture.directory()
        let s = try server(onPhone: [try FieldFixture.tagFile(in: dir)])
        let app = try RemoteFieldFrontend(address: s.address, appName: "test")
        let got = Events()
        app.onEvent = { got.append($0) }
        let t = try app.activate(try app.poll([.nfcA])[0], isoDEP: false)
        #expect(t.handle > 0)
        s.stop()
        #expect(got.wait { $0.contains { if case .lost = $0 { return true } else { return false } } })
        do {
            _ = try app.exchange([0x30, 0x04])
            Issue.record("exchange went through")
        } catch {
            #expect(error.code == .frontendFailure || error.code == .linkLost)
        }
        do {
            _ = try app.poll([.nfcA])
            Issue.record("poll went through")
        } catch {
            #expect(error.code == .frontendFailure)
            #expect(error.detail.contains("this device has no reader now"))
        }
        #expect(app.capabilities.technologies.isEmpty)
    }

    /// Through the device registry (`remote:`), the system has a reader while the field is there and none after.
    @Test func theRemoteDeviceHasNoReaderOnceTheFieldIsGone() throws {
        let s = try server()
        let opened = try DeviceRegistry.open("remote:\(s.address)")
        let system = NFCSystem.make(opened, configuration: .empty(.desktop), idleJumps: false)
        #expect(system.hasReader)
        let remote = try #require((opened.frontend as? InstrumentedFrontend)?.base as? RemoteFieldFrontend)
        let seen = remote.changeCount
        s.stop()
        #expect(remote.waitForChange(after: seen, timeoutMilliseconds: 10_000))
        #expect(remote.lost != nil)
        #expect(!system.hasReader)
        #expect(throws: DeviceError.self) { try DeviceRegistry.open("remote:\(s.address)") }
    }

    /// Hostile or malformed app messages close the connection with a reason; the field keeps serving.
    @Test func malformedAppMessagesCloseWithAReason() throws {
        let s = try server()
        defer { s.stop() }
        func firstClose(_ messages: [String]) throws -> WebSocketClose? {
            // The previous connection's slot is freed when its thread ends.
            try FieldFixture.waitForState(s.address) { $0["app"] == .null }
            let ws = try HTTPClient.webSocket(to: s.address, path: "/app")
            for m in messages { try ws.send(text: m) }
            do {
                while try ws.receive() != nil {}
                return nil
            } catch {
                return error
            }
        }
        let notHello = try firstClose(["{\"type\":\"poll\",\"id\":1,\"request\":{\"nfcA\":{\"wakeUp\":true}}}"])
        #expect(notHello == WebSocketClose(1008, "the first message must be a hello"))
        let garbage = try firstClose(["{nope"])
        #expect(garbage?.code == 1007)
        #expect(garbage?.reason.hasPrefix("message 1: not JSON") == true)
        let version = try firstClose(["{\"type\":\"hello\",\"version\":9,\"app\":\"x\",\"pid\":1}"])
        #expect(version == WebSocketClose(1008, "protocol version 9 is not supported; this field speaks 2"))
        let versionOne = try firstClose(["{\"type\":\"hello\",\"version\":1,\"app\":\"x\",\"pid\":1}"])
        #expect(versionOne == WebSocketClose(1008, "protocol version 1 is not supported; this field speaks 2"))
        let hello = "{\"type\":\"hello\",\"version\":2,\"app\":\"x\",\"pid\":1}"
        let badFrame = try firstClose([hello, "{\"type\":\"exchange\",\"id\":2,\"frame\":\"3G\"}"])
        #expect(badFrame?.code == 1007)
        #expect(badFrame?.reason.hasPrefix("message 2: frame:") == true)
        let unknown = try firstClose([hello, "{\"type\":\"format-everything\",\"id\":2}"])
        #expect(unknown == WebSocketClose(1007, "message 2: type: unknown message type \"format-everything\""))
        #expect(try FieldFixture.api(s.address, "GET", "/api/state").0 == 200)
    }

    /// A page on another origin, or a request for another host name (DNS rebinding), cannot drive the field.
    @Test func otherOriginsAndHostsAreRefused() throws {
        let s = try server()
        defer { s.stop() }
        let evil = try HTTPClient.request(
            "POST", "/api/remove", to: s.address, headers: [("Origin", "http://evil.example")],
            body: Array("{\"all\":true}".utf8))
        #expect(evil.status == 403)
        let ok = try HTTPClient.request(
            "POST", "/api/remove", to: s.address, headers: [("Origin", "http://\(s.address)")],
            body: Array("{\"all\":true}".utf8))
        #expect(ok.status == 200)
        let sock = try TCPSocket.connect(to: s.address)
        defer { sock.close() }
        try sock.write(Array("GET /api/state HTTP/1.1\r\nHost: attacker.example:80\r\nConnection: close\r\n\r\n".utf8))
        let answer = String(decoding: try sock.read(max: 4096), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 403 Forbidden"))
    }

    @Test func apiErrorsNameWhatIsWrong() throws {
        let dir = try FieldFixture.directory()
        let s = try server([try FieldFixture.tagFile(in: dir)])
        defer { s.stop() }
        let (nf, e1) = try FieldFixture.api(s.address, "POST", "/api/put", .object([("tag", .string("nope"))]))
        #expect(nf == 404)
        #expect(e1["error"]?.stringValue == "no tag \"nope\" on the shelf (1 poster.json) and no such file")
        let (bad, e2) = try FieldFixture.api(
            s.address, "POST", "/api/move", .object([("tag", .int(1)), ("position", .int(5))]))
        #expect(bad == 409)
        #expect(e2["error"]?.stringValue == "poster.json is not on the phone; put it there first")
        let r = try HTTPClient.request("GET", "/api/put", to: s.address)
        #expect(r.status == 405)
        #expect(r.headers["Allow"] == "POST")
        let junk = try HTTPClient.request("POST", "/api/put", to: s.address, body: Array("[1,".utf8))
        #expect(junk.status == 400)
        #expect(String(decoding: junk.body, as: UTF8.self).contains("the body is not JSON"))
        let (chip, e3) = try FieldFixture.api(s.address, "POST", "/api/new", .object([("chip", .string("ntag999"))]))
        #expect(chip == 400)
        #expect(e3["error"]?.stringValue?.hasPrefix("unknown chip \"ntag999\" (known: ntag213") == true)
    }

    /// New tags, save (atomic, only on request), and the memory view.
    @Test func newTagsMemoryAndSave() throws {
        let dir = try FieldFixture.directory()
        let s = try FieldServer(port: 0, shelf: [], newTagDirectory: dir.path)
        s.start()
        defer { s.stop() }
        let (status, made) = try FieldFixture.api(
            s.address, "POST", "/api/new",
            .object([
                ("chip", .string("ntag213")), ("uid", .string("04010203040506")), ("name", .string("door")),
                ("uri", .string("https://example.org/door")), ("put", .bool(true)),
            ]))
        #expect(status == 200)
        #expect(made["tag"]?["name"]?.stringValue == "door.json")
        #expect(made["tag"]?["unsaved"] == .bool(true))
        #expect(made["tag"]?["onPhone"] == .bool(true))
        let (_, memory) = try FieldFixture.api(s.address, "GET", "/api/tag?tag=door.json")
        let report = memory["report"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(report.contains { $0.contains("NTAG213") })
        let records = memory["ndef"]?["records"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(records.contains { $0.contains("https://example.org/door") })
        let path = dir.appendingPathComponent("door.json").path
        #expect(!FileManager.default.fileExists(atPath: path))
        let (saved, after) = try FieldFixture.api(
            s.address, "POST", "/api/save", .object([("tag", .string("door.json"))]))
        #expect(saved == 200)
        #expect(after["tag"]?["unsaved"] == .bool(false))
        let back = try OpenNFCSimulation.TagFile.read(path: path)
        #expect(back.activation.uid == [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
    }
}

/// Events collected from another queue, with a bounded wait.
final class Events: @unchecked Sendable {
    private let c = NSCondition()
    private var list: [RemoteFieldFrontend.Event] = []
    func append(_ e: RemoteFieldFrontend.Event) {
        c.lock()
        list.append(e)
        c.broadcast()
        c.unlock()
    }
    func wait(seconds: Double = 10, _ done: ([RemoteFieldFrontend.Event]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        c.lock()
        defer { c.unlock() }
        while !done(list) {
            if !c.wait(until: deadline) { return done(list) }
        }
        return true
    }
}
