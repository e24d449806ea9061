internal import Foundation
package import OpenNFCMQTT
package import OpenNFCRF

/// What `opennfc watch` was asked to do (its options, checked).
package struct StationConfiguration: Sendable {
    package enum Format: String, Sendable { case json, text }

    /// The station's name in events, ids, topics and the MQTT client id.
    package var stationID: String
    /// Device strings; `pcsc` (without a reader name) means every PC/SC reader, as readers come and go.
    package var devices: [String]
    package var uidOnly = false
    package var debounce = NFCDuration.zero
    /// How many times a device that runs out of tags (`sim:`, `replay:`) is opened again.
    package var repeats = 1
    package var format = Format.json
    /// `--exec`: a shell command run per event with the fields in environment variables.
    package var exec: String?
    package var mqtt: MQTTConfiguration?
    package var journalPath: String?
    package var journalCapacity = 64 << 20
    /// `--health N`: a health line every N seconds.
    package var healthInterval: Double?
    /// How long SIGTERM waits for the broker to acknowledge what is journaled.
    package var drainTimeout = 10.0

    package init(stationID: String, devices: [String]) {
        self.stationID = stationID
        self.devices = devices
    }
}

/// A reader station: watches its devices, numbers and records every event (journal first, then stdout, `--exec`
/// and MQTT), and drains to the broker on stop (docs/STATIONS.md).
///
/// | Order for each event | Why |
/// |---|---|
/// | 1. sequence number and id assigned | under one lock, so seq order = journal order = stdout order |
/// | 2. appended to the journal and synced | before anything can publish it (nothing lost on SIGKILL) |
/// | 3. printed on stdout | a line on stdout means the event is on disk |
/// | 4. `--exec` queued, publisher woken | neither can delay the readers |
package final class Station: @unchecked Sendable {
    package let configuration: StationConfiguration
    let log: StationLog
    private let output: @Sendable (String) -> Void
    private let lock = NSLock()
    private var journal: Journal?
    private var ids: EventIDGenerator
    private var counter: UInt64 = 0
    private var seen = 0
    private var dropped = 0
    private var publisher: Publisher?
    private var supervisors: [DeviceSupervisor] = []
    private var directory: PCSCReaderDirectory?
    private let exec = DispatchQueue(label: "opennfc.watch.exec")
    private let health = StopSignal()
    private let topics: TopicScheme

    package init(
        _ configuration: StationConfiguration, log: StationLog,
        output: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) }
    ) {
        self.configuration = configuration
        self.log = log
        self.output = output
        ids = EventIDGenerator(station: configuration.stationID)
        topics = TopicScheme(prefix: configuration.mqtt?.topicPrefix ?? "opennfc", station: configuration.stationID)
    }

    /// Opens the journal and the broker connection (errors here stop the station before it watches anything).
    /// For `check`, the journal is left alone (a running station holds it) and the connection uses the client id
    /// `<id>-check`, without Will or status, so a running station with the same id is not disturbed.
    package func prepare(check: Bool = false) throws {
        if let path = configuration.journalPath, !check {
            let j = try Journal(path: path, capacity: configuration.journalCapacity)
            for w in j.warnings { log.warning(w) }
            if !j.pending.isEmpty {
                log.info(
                    "journal: \(j.pending.count) events from before the restart wait for the broker "
                        + "(seq \(j.pending[0].sequence)…\(j.nextSequence - 1)) path=\(path)")
            }
            journal = j
        }
        if let mqtt = configuration.mqtt {
            let access = Publisher.JournalAccess(
                pending: { [weak self] after, limit in self?.pending(after: after, limit: limit) ?? [] },
                acknowledge: { [weak self] through in self?.acknowledge(through: through) },
                isEmpty: { [weak self] in self?.journalIsEmpty ?? true })
            var m = mqtt
            if check { m.clientID += "-check" }
            publisher = try Publisher(configuration: m, topics: topics, journal: access, log: log, announce: !check)
        }
    }

    /// Connects to the broker (when asked) and waits for its answer, for `--check`.
    package func checkBroker(seconds: Double) throws {
        guard let publisher else { return }
        try publisher.start()
        try publisher.awaitConnection(seconds: seconds)
    }

    /// Starts publishing and watching every device.
    package func start() throws {
        try publisher?.start()
        let sink: @Sendable (StationEvent) -> Void = { [weak self] e in self?.record(e) }
        for device in configuration.devices {
            if device == "pcsc" {
                let d = PCSCReaderDirectory(
                    uidOnly: configuration.uidOnly, debounce: configuration.debounce, log: log, sink: sink)
                directory = d
                d.start()
            } else {
                let s = DeviceSupervisor(
                    device: device, uidOnly: configuration.uidOnly, debounce: configuration.debounce,
                    repeats: configuration.repeats, log: log, sink: sink)
                supervisors.append(s)
                s.start()
            }
        }
        if let every = configuration.healthInterval {
            let t = Thread { [self] in
                while !health.wait(seconds: every) { log.info(healthLine) }
            }
            t.name = "opennfc watch health"
            t.start()
        }
    }

    /// Numbers and records one event (any thread).
    package func record(_ event: StationEvent) {
        var e = event
        lock.lock()
        defer { lock.unlock() }
        let sequence = journal?.nextSequence ?? counter + 1
        counter = sequence
        e.sequence = sequence
        e.station = configuration.stationID
        e.id = ids.next(sequence: sequence, milliseconds: UInt64(max(0, e.time.timeIntervalSince1970 * 1000)))
        let json = e.json.compact
        seen += 1
        if let journal {
            do {
                try journal.append(
                    sequence: sequence, topic: topics.events(reader: e.reader), payload: Array(json.utf8))
            } catch {
                dropped += 1
                counter = sequence - 1
                log.error("journal: \(error.message) id=\(e.id)")
            }
        }
        output((configuration.format == .json ? json : e.text) + "\n")
        if let command = configuration.exec { runExec(command, e) }
        publisher?.wakeUp()
    }

    private func runExec(_ command: String, _ e: StationEvent) {
        let env = ProcessInfo.processInfo.environment.merging(e.environment) { $1 }
        let log = self.log
        let id = e.id
        exec.async {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", command]
            p.environment = env
            do {
                try p.run()
                p.waitUntilExit()
                if p.terminationStatus != 0 {
                    log.warning("exec: the command exited with status \(p.terminationStatus) id=\(id)")
                }
            } catch {
                log.error("exec: cannot run /bin/sh -c for id=\(id): \(error)")
            }
        }
    }

    private func pending(after: UInt64, limit: Int) -> [Journal.Record] {
        lock.lock()
        defer { lock.unlock() }
        guard let journal else { return [] }
        var out: [Journal.Record] = []
        for r in journal.pending where r.sequence > after {
            out.append(r)
            if out.count == limit { break }
        }
        return out
    }

    private func acknowledge(through: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        do {
            try journal?.acknowledge(through: through)
        } catch {
            log.error("journal: \(error.message)")
        }
    }

    private var journalIsEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return journal?.pending.isEmpty ?? true
    }

    /// `seen=… published=… queued=… dropped=… broker=… journal_bytes=…`, for `--health` and the last log line.
    package var healthLine: String {
        lock.lock()
        let (s, d, q, size) = (seen, dropped, journal?.pending.count ?? 0, journal?.size ?? 0)
        lock.unlock()
        var line = "health: seen=\(s) published=\(publisher?.acknowledged ?? 0) queued=\(q) dropped=\(d)"
        line += " broker=\(publisher.map { $0.brokerState.rawValue } ?? "none") journal_bytes=\(size)"
        return line
    }

    /// Stops watching, waits (bounded) until the broker acknowledged everything journaled, marks the station
    /// offline and disconnects. Returns the number of events still journaled (published by the next start).
    @discardableResult
    package func stop() -> Int {
        for s in supervisors { s.stop.raise() }
        directory?.stop.raise()
        for s in supervisors { _ = s.join(seconds: 5) }
        _ = directory?.join(seconds: 5)
        health.raise()
        exec.sync {}
        var left = 0
        if let publisher {
            if !publisher.drain(seconds: configuration.drainTimeout) {
                lock.lock()
                left = journal?.pending.count ?? 0
                lock.unlock()
                log.warning(
                    "drain: \(left) events not acknowledged within \(Int(configuration.drainTimeout)) s stay in the "
                        + "journal for the next start")
            }
            publisher.stop()
        }
        lock.lock()
        do { try journal?.close() } catch { log.error("journal: \(error.message)") }
        lock.unlock()
        log.info(healthLine)
        return left
    }
}
