import Foundation
import OpenNFCBytes
import OpenNFCTestSupport
import Testing

/// `opennfc watch` as a process over simulated devices: the JSON lines, ids and sequence numbers, `--uid-only`,
/// `--format text`, `--exec`, several devices at once, SIGTERM.
@Suite(.serialized) struct WatchTests {
    @Test func simTagsGiveReaderAddedArrivedLeftAndReaderRemoved() throws {
        let dir = try Watch.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Watch.tagFile(in: dir, name: "a.json", uid: "04A1B2C3D4E5F6", uri: "https://example.org/a")
        let b = try Watch.tagFile(in: dir, name: "b.json", uid: "04010203040506", uri: "https://example.org/b")
        let w = try Watch.start(["--device", "sim:\(a)+\(b)", "--station-id", "t1"])
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "reader-removed") == 1 })
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
        let events = Watch.events(w.stdoutLines)
        #expect(
            events.map { $0["type"]?.stringValue ?? "" } == [
                "reader-added", "arrived", "left", "arrived", "left", "reader-removed",
            ])
        #expect(events.map { $0["seq"]?.intValue ?? 0 } == [1, 2, 3, 4, 5, 6])
        let ids = events.compactMap { $0["id"]?.stringValue }
        #expect(ids.count == 6 && Set(ids).count == 6)
        #expect(ids == ids.sorted(), "ids sort in event order")
        #expect(ids.allSatisfy { $0.count == 26 })
        let first = events[1]
        #expect(first["station"]?.stringValue == "t1")
        #expect(first["uid"]?.stringValue == "04A1B2C3D4E5F6")
        #expect(first["chip"]?.stringValue == "ntag215")
        #expect(first["technology"]?.stringValue == "nfc-a")
        #expect(first["reader"]?.stringValue?.hasPrefix("sim:") == true)
        #expect(first["ndef"]?["status"]?.stringValue == "read-write")
        let record = first["ndef"]?["message"]?["records"]?.arrayValue?.first
        #expect(record?["uri"]?.stringValue == "https://example.org/a")
        #expect(
            events[3]["ndef"]?["message"]?["records"]?.arrayValue?.first?["uri"]?.stringValue == "https://example.org/b"
        )
        #expect(events[2]["uid"]?.stringValue == "04A1B2C3D4E5F6")
        #expect(w.stderrLines.contains { $0.contains(" INFO signal: SIGTERM, stopping") })
    }

    @Test func uidOnlyTextFormatAndExec() throws {
        let dir = try Watch.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Watch.tagFile(in: dir, name: "a.json", uid: "04A1B2C3D4E5F6", uri: "https://example.org/a")
        let log = dir.appendingPathComponent("exec.log").path
        let w = try Watch.start([
            "--device", "sim:\(a)", "--uid-only", "--format", "text", "--station-id", "t2",
            "--exec", "echo \"$OPENNFC_EVENT_SEQ $OPENNFC_EVENT_TYPE $OPENNFC_UID $OPENNFC_CHIP\" >> '\(log)'",
        ])
        #expect(w.wait(seconds: 30) { out, _ in out.contains { $0.contains("reader-removed") } })
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
        let out = w.stdoutLines
        #expect(out.count == 4)
        #expect(out[1].contains("#2 arrived sim:"))
        #expect(out[1].contains("ntag215 UID 04A1B2C3D4E5F6"))
        #expect(!out[1].contains("NDEF"), "--uid-only reads no NDEF")
        // Stopping waits for the --exec queue: every event's command ran, in order.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "1 reader-added  ", "2 arrived 04A1B2C3D4E5F6 ntag215", "3 left 04A1B2C3D4E5F6 ", "4 reader-removed  ",
            ])
    }

    @Test func severalDevicesAtOnceEachInOrder() throws {
        let dir = try Watch.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Watch.tagFile(in: dir, name: "a.json", uid: "04A1B2C3D4E5F6", uri: "https://example.org/a")
        let b = try Watch.tagFile(in: dir, name: "b.json", uid: "04010203040506", uri: "https://example.org/b")
        let w = try Watch.start(["--device", "sim:\(a)", "--device", "sim:\(b)", "--repeat", "20", "--uid-only"])
        #expect(w.wait(seconds: 60) { out, _ in Watch.count(out, type: "reader-removed") == 2 })
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
        let events = Watch.events(w.stdoutLines)
        #expect(events.count == 2 * (2 + 40))
        #expect(events.map { $0["seq"]?.intValue ?? 0 } == Array(1...84), "one monotonic sequence across devices")
        for uid in ["04A1B2C3D4E5F6", "04010203040506"] {
            let mine = events.filter { $0["uid"]?.stringValue == uid }.map { $0["type"]?.stringValue ?? "" }
            #expect(mine == Array(repeating: ["arrived", "left"], count: 20).flatMap { $0 })
        }
    }

    @Test func badOptionsAreUsageErrors() throws {
        let r1 = try Watch.run(["watch", "--format", "yaml", "--device", "sim:empty"])
        #expect(r1.status == 64)
        #expect(r1.stderr.contains("--format takes json or text, not 'yaml'"))
        let r2 = try Watch.run(["watch", "--mqtt", "http://broker/nfc", "--device", "sim:empty"])
        #expect(r2.status == 64)
        #expect(r2.stderr.contains("the scheme must be mqtt:// or mqtts://"))
        let r3 = try Watch.run(["watch", "--station-id", "a/b", "--device", "sim:empty"])
        #expect(r3.status == 64)
        #expect(r3.stderr.contains("--station-id 'a/b' must be"))
        let r4 = try Watch.run(["watch", "--mqtt", "mqtt://h/nfc/#", "--device", "sim:empty"])
        #expect(r4.stderr.contains("contains a wildcard"))
        let r5 = try Watch.run(["watch", "--mqtt", "mqtts://h/nfc", "--ca-file", "/nonexistent.pem"])
        #expect(r5.stderr.contains("--ca-file '/nonexistent.pem': no such readable file"))
    }
}
