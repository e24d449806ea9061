internal import Foundation
internal import OpenNFCBytes
package import OpenNFCMQTT
internal import Synchronization

/// Moves journaled events to the broker, in journal order, and tells the journal what the broker acknowledged.
///
/// | Step | Rule |
/// |---|---|
/// | publish | QoS 1, oldest unacknowledged first, at most ``window`` outstanding; a publish while disconnected is queued by libmosquitto (and resent on reconnect), never repeated by us |
/// | acknowledge | a PUBACK (`on_publish(mid)`) marks its event; the journal is told the longest acknowledged prefix, so an event is removed only after it and every earlier one were acknowledged |
/// | reconnect | the MQTT client reconnects after 1 s, doubling to 15 s, after any failure (TLS ones too), and libmosquitto resends what was in flight |
/// | restart | a new process publishes every event the journal still holds (consumers drop duplicates by id) |
///
/// One thread owns the in-flight table; the MQTT callbacks only queue acknowledgements and wake it.
package final class Publisher: @unchecked Sendable {
    package enum BrokerState: String, Sendable {
        case connecting, connected, disconnected, refused
        /// TLS failed (OpenSSL's reason is logged once per distinct reason); the MQTT client keeps trying.
        case failed
    }

    /// Where the publisher reads events and reports acknowledgements (the station, under its lock).
    package struct JournalAccess: Sendable {
        package var pending: @Sendable (_ after: UInt64, _ limit: Int) -> [Journal.Record]
        package var acknowledge: @Sendable (_ through: UInt64) -> Void
        package var isEmpty: @Sendable () -> Bool

        package init(
            pending: @escaping @Sendable (UInt64, Int) -> [Journal.Record],
            acknowledge: @escaping @Sendable (UInt64) -> Void, isEmpty: @escaping @Sendable () -> Bool
        ) {
            self.pending = pending
            self.acknowledge = acknowledge
            self.isEmpty = isEmpty
        }
    }

    package let topics: TopicScheme
    let announce: Bool
    let journal: JournalAccess
    let log: StationLog
    /// Events published and not yet acknowledged, at most.
    package var window = 1000
    private let client: MQTTClient
    private let condition = NSCondition()
    // Under `condition`:
    private var acks: [Int32] = []
    private var wake = false
    private var stopping = false
    private var state = BrokerState.connecting
    private var refusal: String?
    private var connectionEvents = 0
    private let acknowledgedCount = Atomic<Int>(0)
    private let done = StopSignal()

    /// With `announce` false (`--check`) there is no Will and no status message.
    package init(
        configuration: MQTTConfiguration, topics: TopicScheme, journal: JournalAccess, log: StationLog,
        announce: Bool = true
    ) throws(MQTTError) {
        self.announce = announce
        self.topics = topics
        self.journal = journal
        self.log = log
        let will = Self.status("offline", station: topics.station)
        var handlers = MQTTClient.Handlers()
        // The handlers reach this object only once it exists; until `client` is set nothing connects.
        let box = WeakBox()
        handlers.connected = { code in box.publisher?.connected(code) }
        handlers.disconnected = { status, reason in box.publisher?.disconnected(status, reason) }
        handlers.failed = { reason in box.publisher?.failed(reason) }
        handlers.acknowledged = { mid in box.publisher?.acknowledged(mid) }
        client = try MQTTClient(configuration, will: announce ? (topics.status, will) : nil, handlers: handlers)
        box.publisher = self
    }

    private final class WeakBox: @unchecked Sendable {
        weak var publisher: Publisher?
    }

    static func status(_ status: String, station: String) -> [UInt8] {
        Array(
            JSONValue.object([
                ("station", .string(station)), ("status", .string(status)),
                ("time", .string(StationEvent.timestamp(Date()))),
            ]).compact.utf8)
    }

    /// The broker connection as the health line reports it.
    package var brokerState: BrokerState { condition.withLock { state } }
    /// Events the broker acknowledged since the start.
    package var acknowledged: Int { acknowledgedCount.load(ordering: .relaxed) }

    // MARK: MQTT callbacks (libmosquitto's thread)

    private func connected(_ code: Int32) {
        if code == 0 {
            log.info("mqtt: connected to \(client.configuration.redacted) client_id=\(client.configuration.clientID)")
            if announce {
                _ = try? client.publish(
                    topic: topics.status, payload: Self.status("online", station: topics.station), retain: true)
            }
            condition.withLock {
                state = .connected
                refusal = nil
                connectionEvents += 1
                wake = true
                condition.broadcast()
            }
        } else {
            let why = MQTTClient.connackText(code)
            let first = condition.withLock { () -> Bool in
                defer {
                    state = .refused
                    refusal = why
                    connectionEvents += 1
                    condition.broadcast()
                }
                return refusal != why
            }
            if first { log.error("mqtt: the broker \(client.configuration.redacted) refused the connection: \(why)") }
        }
    }

    private func failed(_ reason: String) {
        let why = Self.failureText(reason, client.configuration)
        let first = condition.withLock { () -> Bool in
            defer {
                state = .failed
                refusal = why
                connectionEvents += 1
                condition.broadcast()
            }
            return refusal != why
        }
        if first { log.error("mqtt: \(why); retrying") }
    }

    private func disconnected(_ status: Int32, _ reason: String) {
        let log = condition.withLock { () -> Bool in
            defer {
                if state != .refused && state != .failed { state = .disconnected }
                connectionEvents += 1
                condition.broadcast()
            }
            return state == .connected || state == .connecting
        }
        if log, status != 0 {
            self.log.warning("mqtt: not connected to \(client.configuration.redacted): \(reason); retrying")
        }
    }

    private func acknowledged(_ mid: Int32) {
        condition.withLock {
            acks.append(mid)
            condition.broadcast()
        }
    }

    /// The sentence for a TLS failure, saying what to check.
    static func failureText(_ reason: String, _ c: MQTTConfiguration) -> String {
        guard c.tls else { return "the connection to \(c.redacted) failed: \(reason)" }
        return "the TLS connection to \(c.redacted) failed: \(reason): check that the broker's certificate chains to "
            + (c.caFile.map { "--ca-file '\($0)'" } ?? "the system's trust store (or give --ca-file)")
            + " and names the host '\(c.host)'"
            + (c.certFile == nil ? ", and give --cert and --key if the broker requires a client certificate" : "")
    }

    // MARK: The publishing thread

    /// Tells the publisher new events are in the journal.
    package func wakeUp() {
        condition.withLock {
            wake = true
            condition.broadcast()
        }
    }

    /// Connects and starts publishing on a thread of its own.
    package func start() throws(MQTTError) {
        try client.start()
        let t = Thread { [self] in
            loop()
            done.raise()
        }
        t.name = "opennfc watch mqtt"
        t.start()
    }

    /// Waits until the broker accepted or refused the connection, at most `seconds`; the refusal's sentence, or
    /// nil when connected. Throws when neither happened in time.
    package func awaitConnection(seconds: Double) throws(MQTTError) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        let outcome = condition.withLock { () -> (BrokerState, String?) in
            while state != .connected && state != .refused && state != .failed {
                if !condition.wait(until: deadline) { break }
            }
            return (state, refusal)
        }
        switch outcome.0 {
        case .connected: return
        case .refused: throw MQTTError(.refused, "the broker refused the connection: \(outcome.1 ?? "")")
        case .failed: throw MQTTError(.tls, outcome.1 ?? "the connection failed")
        case .connecting, .disconnected:
            throw MQTTError(
                .unreachable,
                "no connection to \(client.configuration.redacted) within \(Int(seconds)) s: is the "
                    + "broker running and reachable on that host and port?")
        }
    }

    private func loop() {
        var inflight: [Int32: UInt64] = [:]
        var outstanding: [UInt64] = []
        var head = 0
        var ackedOutOfOrder: Set<UInt64> = []
        var publishedThrough: UInt64 = 0
        var lastError: String?
        while true {
            let (mids, stop) = condition.withLock { () -> ([Int32], Bool) in
                while !wake && acks.isEmpty && !stopping {
                    if !condition.wait(until: Date(timeIntervalSinceNow: 1)) { break }
                }
                wake = false
                defer { acks.removeAll(keepingCapacity: true) }
                return (acks, stopping)
            }
            if stop { return }
            for mid in mids {
                // Acknowledgements of the status messages match no event and are ignored.
                if let seq = inflight.removeValue(forKey: mid) { ackedOutOfOrder.insert(seq) }
            }
            var through: UInt64?
            var advanced = 0
            while head < outstanding.count, ackedOutOfOrder.remove(outstanding[head]) != nil {
                through = outstanding[head]
                head += 1
                advanced += 1
            }
            if let through {
                acknowledgedCount.add(advanced, ordering: .relaxed)
                journal.acknowledge(through)
            }
            if head > 4096 {
                outstanding.removeFirst(head)
                head = 0
            }
            let room = window - (outstanding.count - head)
            guard room > 0 else { continue }
            for record in journal.pending(publishedThrough, room) {
                do {
                    let mid = try client.publish(topic: record.topic, payload: record.payload)
                    inflight[mid] = record.sequence
                    outstanding.append(record.sequence)
                    publishedThrough = record.sequence
                    lastError = nil
                } catch {
                    if error.message != lastError { log.error("mqtt: \(error.message); retrying in 1 s") }
                    lastError = error.message
                    break
                }
            }
        }
    }

    /// Waits until the journal is empty (everything acknowledged), at most `seconds`; true when it is.
    package func drain(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !journal.isEmpty() {
            if Date() >= deadline { return false }
            condition.withLock { _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.2))) }
        }
        return true
    }

    /// Marks the station offline (retained, as the Will would), disconnects cleanly and stops the thread.
    package func stop() {
        if announce, brokerState == .connected {
            _ = try? client.publish(
                topic: topics.status, payload: Self.status("offline", station: topics.station), retain: true)
        }
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
        _ = done.wait(seconds: 5)
        client.stop()
    }
}
