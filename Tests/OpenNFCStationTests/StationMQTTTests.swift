import Foundation
import OpenNFCBytes
import OpenNFCTestSupport
import Testing

/// `opennfc watch --mqtt` against a real, private mosquitto broker (Debian's `mosquitto`, installed by scripts/test;
/// skipped loudly without it), with `mosquitto_sub` as the subscriber: QoS 1 delivery, the retained status and the
/// Will, the broker stopped and restarted mid-stream, the station SIGKILLed and restarted, 10,000 events, wrong
/// credentials. Every wait is on an observable condition with a bound; there are no sleeps.
@Suite(.serialized) struct StationMQTTTests {
    /// Events received, as (topic, JSON) pairs, without status messages.
    static func events(_ s: Subscriber) -> [(topic: String, json: JSONValue)] {
        s.messages.compactMap { m in
            guard m.topic.contains("/events/"), let j = try? JSONValue(parsing: m.payload) else { return nil }
            return (m.topic, j)
        }
    }

    static func ids(_ lines: [String]) -> [String] {
        Watch.events(lines).compactMap { $0["id"]?.stringValue }
    }

    /// Every id printed by the station reached the subscriber, and per topic the sequence numbers (duplicates
    /// dropped by id) only grow.
    static func checkDelivered(_ printed: [String], _ received: [(topic: String, json: JSONValue)]) {
        let got = Set(received.compactMap { $0.json["id"]?.stringValue })
        let missing = printed.filter { !got.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(printed.count) events never reached the subscriber")
        var seen: Set<String> = []
        var last: [String: Int] = [:]
        for (topic, j) in received {
            guard let id = j["id"]?.stringValue, seen.insert(id).inserted, let seq = j["seq"]?.intValue else {
                continue
            }
            #expect(seq > last[topic, default: 0], "out of order on \(topic): \(seq) after \(last[topic] ?? 0)")
            last[topic] = seq
        }
    }

    func setUp() throws -> (URL, String)? {
        guard Broker.available, FileManager.default.isExecutableFile(atPath: Subscriber.binary) else {
            print(Broker.skipNote)
            return nil
        }
        let dir = try Watch.temporaryDirectory()
        let tag = try Watch.tagFile(in: dir, name: "a.json", uid: "04A1B2C3D4E5F6", uri: "https://example.org/a")
        return (dir, tag)
    }

    @Test func eventsStatusAndWillReachASubscriber() throws {
        guard let (dir, tag) = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let broker = try Broker()
        try broker.start()
        let sub = try Subscriber(broker: broker, topic: "nfc/#")
        let journal = dir.appendingPathComponent("s1.journal").path
        let w = try Watch.start([
            "--device", "sim:\(tag)", "--repeat", "3", "--station-id", "s1", "--mqtt", "\(broker.url)/nfc",
            "--journal", journal,
        ])
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "reader-removed") == 1 })
        let printed = w.stdoutLines
        #expect(sub.waitFor(seconds: 30) { m in m.filter { $0.topic.contains("/events/") }.count == printed.count })
        let received = Self.events(sub)
        #expect(received.map { $0.json.compact } == printed, "the payload is the JSON line, byte for byte")
        #expect(received.allSatisfy { $0.topic.hasPrefix("nfc/s1/events/sim_") })
        #expect(sub.messages.contains { $0.topic == "nfc/s1/status" && $0.payload.contains("\"status\":\"online\"") })
        // SIGTERM drains, then marks the station offline (retained).
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
        #expect(
            sub.waitFor(seconds: 10) { m in m.contains { $0.topic == "nfc/s1/status" && $0.payload.contains("offline") }
            })
        #expect(w.stderrLines.contains { $0.contains("INFO mqtt: connected to mqtt://127.0.0.1:\(broker.port)/nfc") })
        #expect(w.stderrLines.contains { $0.contains("health: seen=8 published=8 queued=0") })
        // The retained status is what a newcomer sees first.
        let late = try Tool.run(
            Subscriber.binary,
            ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "nfc/s1/status", "-C", "1", "-W", "10"])
        #expect(late.stdout.contains("\"status\":\"offline\""))
        // Everything was acknowledged: the journal was compacted down to its header.
        let size = try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int
        #expect(size == 25)
    }

    @Test func brokerStoppedAndRestartedMidStreamLosesNothing() throws {
        guard let (dir, tag) = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let broker = try Broker()
        try broker.start()
        let sub = try Subscriber(broker: broker, topic: "nfc/#")
        let w = try Watch.start([
            "--device", "sim:\(tag)", "--repeat", "1500", "--uid-only", "--station-id", "s2",
            "--mqtt", "\(broker.url)/nfc", "--journal", dir.appendingPathComponent("s2.journal").path,
        ])
        #expect(sub.waitFor(seconds: 30) { $0.count >= 20 })
        broker.stop()
        let atStop = w.stdoutLines.count
        // The station keeps watching and journaling while the broker is away.
        #expect(w.wait(seconds: 120) { out, _ in Watch.count(out, type: "reader-removed") == 1 })
        #expect(w.wait(seconds: 30) { _, err in err.contains { $0.contains("WARN mqtt: not connected") } })
        let printed = Self.ids(w.stdoutLines)
        #expect(printed.count == 3002)
        #expect(atStop < printed.count, "the broker went away mid-stream (\(atStop) of \(printed.count) printed)")
        let restart = Date()
        try broker.start()
        #expect(
            sub.waitFor(seconds: 90) { m in
                Set(m.filter { $0.topic.contains("/events/") }.map(\.payload)).count >= printed.count
            })
        #expect(Date().timeIntervalSince(restart) < 90, "delivered within 90 s of the broker's return")
        Self.checkDelivered(printed, Self.events(sub))
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
    }

    @Test func stationKilledMidStreamPublishesItsJournalOnRestart() throws {
        guard let (dir, tag) = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let broker = try Broker()
        try broker.start()
        let sub = try Subscriber(broker: broker, topic: "nfc/#")
        let journal = dir.appendingPathComponent("s3.journal").path
        let args = ["--station-id", "s3", "--mqtt", "\(broker.url)/nfc", "--journal", journal, "--uid-only"]
        let first = try Watch.start(["--device", "sim:\(tag)", "--repeat", "3000"] + args)
        #expect(sub.waitFor(seconds: 30) { $0.count >= 50 })
        first.signal(SIGKILL)
        _ = first.waitForExit(seconds: 10)
        first.waitForOutputEnd(seconds: 10)
        // Every line printed was journaled (synced) before it was printed.
        let printed = Self.ids(first.stdoutLines)
        #expect(!printed.isEmpty)
        let second = try Watch.start(["--device", "sim:empty"] + args)
        let wanted = Set(printed)
        #expect(
            sub.waitFor(seconds: 90) { m in
                wanted.isSubset(
                    of: Set(m.compactMap { try? JSONValue(parsing: $0.payload) }.compactMap { $0["id"]?.stringValue }))
            })
        Self.checkDelivered(printed, Self.events(sub))
        // The restarted station's own events continue the sequence.
        #expect(second.wait(seconds: 30) { out, _ in Watch.count(out, type: "reader-removed") == 1 })
        let next = Watch.events(second.stdoutLines).first?["seq"]?.intValue ?? 0
        let lastBefore = Watch.events(first.stdoutLines).last?["seq"]?.intValue ?? 0
        #expect(next > lastBefore)
        second.signal(SIGTERM)
        #expect(second.waitForExit(seconds: 30) == 0)
    }

    @Test func tenThousandEventsThroughOneBrokerNoneLostOrderKeptPerReader() throws {
        guard let (dir, tag) = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = try Watch.tagFile(in: dir, name: "b.json", uid: "04010203040506", uri: "https://example.org/b")
        let broker = try Broker()
        try broker.start()
        let sub = try Subscriber(broker: broker, topic: "nfc/#")
        let w = try Watch.start([
            "--device", "sim:\(tag)", "--device", "sim:\(other)", "--repeat", "2500", "--uid-only", "--station-id",
            "s4", "--mqtt", "\(broker.url)/nfc", "--journal", dir.appendingPathComponent("s4.journal").path,
        ])
        #expect(w.wait(seconds: 300) { out, _ in Watch.count(out, type: "reader-removed") == 2 })
        let printed = Self.ids(w.stdoutLines)
        #expect(printed.count == 10_004)
        #expect(sub.waitFor(seconds: 120) { m in m.filter { $0.topic.contains("/events/") }.count >= printed.count })
        let received = Self.events(sub)
        Self.checkDelivered(printed, received)
        #expect(Set(received.map(\.topic)).count == 2, "one topic per reader")
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
    }

    @Test func wrongCredentialsAreAClearError() throws {
        guard let (dir, tag) = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let broker = try Broker(users: ["station": "right-secret"])
        try broker.start()
        let bad = try Watch.run([
            "watch", "--check", "--device", "sim:\(tag)", "--station-id", "s5",
            "--mqtt", "mqtt://station:wrong@127.0.0.1:\(broker.port)/nfc",
        ])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("ok: device sim:"))
        #expect(bad.stdout.contains("failed: broker mqtt://station:***@127.0.0.1:\(broker.port)/nfc"))
        #expect(bad.stdout.contains("not authorised (CONNACK 5)"))
        #expect(!bad.stdout.contains("wrong") && !bad.stderr.contains("wrong"), "the password is never printed")
        let good = try Watch.run([
            "watch", "--check", "--device", "sim:\(tag)", "--station-id", "s5",
            "--mqtt", "mqtt://station:right-secret@127.0.0.1:\(broker.port)/nfc",
        ])
        #expect(good.status == 0, "\(good.stdout) \(good.stderr)")
        #expect(good.stdout.contains("ok: broker mqtt://station:***@127.0.0.1:\(broker.port)/nfc accepted"))
        // A running station says so in its log, once, and keeps its events journaled.
        let w = try Watch.start([
            "--device", "sim:\(tag)", "--station-id", "s5", "--journal",
            dir.appendingPathComponent("j").path,
            "--mqtt", "mqtt://station:wrong@127.0.0.1:\(broker.port)/nfc", "--drain-timeout", "0",
        ])
        #expect(
            w.wait(seconds: 30) { _, err in
                err.contains { $0.contains("ERROR mqtt: the broker") && $0.contains("CONNACK 5") }
            })
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "reader-removed") == 1 })
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
        #expect(w.stderrLines.contains { $0.contains("stay in the journal for the next start") })
    }

    @Test func checkWithoutABrokerSaysSo() throws {
        guard Broker.available else {
            print(Broker.skipNote)
            return
        }
        let port = try Broker.freePort()
        let r = try Watch.run([
            "watch", "--check", "--device", "sim:empty", "--mqtt", "mqtt://127.0.0.1:\(port)/nfc",
        ])
        #expect(r.status == 1)
        #expect(r.stdout.contains("failed: broker mqtt://127.0.0.1:\(port)/nfc: no connection"))
        #expect(r.stdout.contains("is the broker running"))
    }
}
