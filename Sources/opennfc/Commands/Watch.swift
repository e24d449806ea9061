import Foundation
import OpenNFCDevices
import OpenNFCMQTT
import OpenNFCRF
import OpenNFCStation

extension Commands {
    static let watch = Command(
        name: "watch",
        abstract: "Run a reader station: report every tag event as a JSON line, and publish it to MQTT without loss.",
        discussion: """
            Watches any number of devices at once: every PC/SC reader (--device pcsc, the default; readers plugged \
            in and out while it runs are picked up), one named reader (pcsc:<name>), sim:, remote:, replay: or any \
            other registered device. Prints one line per event on stdout: reader-added, reader-removed, arrived \
            (technology, UID, chip, NDEF status and decoded message), left, error; each with a unique sortable id \
            and a sequence number. Logs go to stderr, one plain line each.

            With --mqtt every event is appended to a journal on disk (synced) before it is published with QoS 1, and \
            removed only when the broker acknowledges it: a broker that is down, or a station killed, loses nothing; \
            the next start publishes what is left. Consumers drop duplicates by event id. SIGTERM (or Ctrl-C) stops \
            watching, waits up to --drain-timeout for the broker, marks the station offline and exits.

            Details, payloads, topics and a systemd unit: docs/STATIONS.md.

            Examples:
              opennfc watch
              opennfc watch --device pcsc --device sim:poster.json --format text
              opennfc watch --uid-only --exec 'logger "tag $OPENNFC_UID on $OPENNFC_READER"'
              opennfc watch --mqtt mqtt://station:secret@broker.example:1883/nfc --station-id door-1 --health 60
              opennfc watch --mqtt mqtts://broker.example/nfc --ca-file ca.pem --cert door-1.pem --key door-1.key --check
            """,
        options: [
            .init(
                name: "device", value: "<device>",
                help: "A device to watch (repeatable): pcsc (every reader), pcsc:<reader>, sim:…, remote:…, replay:… "
                    + "(default: $OPENCORENFC_DEVICE, else pcsc).", repeatable: true),
            .init(name: "uid-only", help: "Report the UID and chip only; do not read NDEF (faster)."),
            .init(
                name: "debounce", value: "<ms>",
                help: "Report a tag that leaves and returns within this many milliseconds as never gone (default: 0)."),
            .init(
                name: "exec", value: "<command>",
                help: "Run this shell command per event, with the fields in OPENNFC_* environment variables."),
            .init(name: "format", value: "json|text", help: "The stdout lines: JSON (default) or text for people."),
            .init(
                name: "mqtt", value: "<url>",
                help: "Publish to mqtt://[user:pass@]host[:port]/topic/prefix or mqtts://… (QoS 1, journaled)."),
            .init(
                name: "ca-file", value: "<pem>", help: "mqtts: the CA certificates the broker's certificate chains to."),
            .init(name: "cert", value: "<pem>", help: "mqtts: this station's client certificate."),
            .init(
                name: "key", value: "<pem>",
                help: "mqtts: the private key of --cert; if encrypted, its passphrase comes from "
                    + "$OPENNFC_MQTT_KEY_PASSPHRASE or --key-passphrase-file."),
            .init(
                name: "key-passphrase-file", value: "<file>",
                help: "mqtts: a file whose first line is the passphrase of an encrypted --key."),
            .init(
                name: "station-id", value: "<id>",
                help: "This station's name in ids and topics: letters, digits, . _ - (default: the host name)."),
            .init(name: "client-id", value: "<id>", help: "The MQTT client id (default: opennfc-<station-id>)."),
            .init(
                name: "journal", value: "<file>",
                help: "The journal of unacknowledged events (default with --mqtt: "
                    + "$STATE_DIRECTORY or ~/.local/state/opennfc, file watch-<station-id>.journal)."),
            .init(name: "journal-size", value: "<MiB>", help: "The most the journal may hold (default: 64)."),
            .init(name: "health", value: "<seconds>", help: "Log a health line every this many seconds."),
            .init(
                name: "drain-timeout", value: "<seconds>",
                help: "On SIGTERM, wait this long for the broker to acknowledge what is journaled (default: 10)."),
            .init(
                name: "repeat", value: "<n>",
                help: "Present the tags of sim:/replay: devices n times (demos, tests, benchmarks; default: 1)."),
            .init(name: "check", help: "Check the configuration, open the devices, reach the broker, and exit."),
        ],
        run: runWatch
    )

    @Sendable static func runWatch(_ inv: Invocation) throws -> Int32 {
        let configuration = try WatchOptions.configuration(inv)
        let log = StationLog()
        let station = Station(configuration, log: log)
        do {
            try station.prepare(check: inv.flag("check"))
        } catch let e as JournalError {
            throw CLIError.failure(e.message)
        } catch let e as MQTTError {
            throw CLIError.failure(e.message)
        }
        if inv.flag("check") { return try WatchOptions.check(station, configuration) }
        // SIGTERM and SIGINT end the run (``StopSignals``): the station drains first.
        let stop = DispatchSemaphore(value: 0)
        let signals = StopSignals(name: "opennfc watch signals") { sig in
            log.info("signal: \(StopSignals.name(sig)), stopping")
            stop.signal()
        }
        log.info(
            "watch: station=\(configuration.stationID) devices=\(configuration.devices.joined(separator: ","))"
                + (configuration.mqtt.map { " mqtt=\($0.redacted)" } ?? "")
                + (configuration.journalPath.map { " journal=\($0)" } ?? ""))
        do {
            try station.start()
        } catch let e as MQTTError {
            throw CLIError.failure(e.message)
        }
        stop.wait()
        station.stop()
        signals.cancel()
        return 0
    }
}

/// `opennfc watch`'s options turned into a ``StationConfiguration``, with usage errors naming the option.
enum WatchOptions {
    static func configuration(_ inv: Invocation, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> StationConfiguration
    {
        let station = inv.value("station-id") ?? defaultStationID()
        guard TopicScheme.isValidStation(station) else {
            throw CLIError.usage(
                "--station-id '\(station)' must be 1 to 64 letters, digits, '.', '_' or '-' (it is part of topics)")
        }
        var devices = inv.values("device")
        if devices.isEmpty {
            devices = [DeviceRegistry.fromEnvironment(environment)?.device ?? "pcsc"]
        }
        var c = StationConfiguration(stationID: station, devices: devices)
        c.uidOnly = inv.flag("uid-only")
        c.debounce = .milliseconds(UInt64(try inv.int("debounce", default: 0, range: 0...60_000)))
        c.repeats = try inv.int("repeat", default: 1, range: 1...10_000_000)
        c.exec = inv.value("exec")
        switch inv.value("format") ?? "json" {
        case "json": c.format = .json
        case "text": c.format = .text
        case let other: throw CLIError.usage("--format takes json or text, not '\(other)'")
        }
        if let h = inv.value("health") {
            guard let v = Double(h), v >= 1, v <= 86_400 else {
                throw CLIError.usage("--health takes a number of seconds from 1 to 86400, not '\(h)'")
            }
            c.healthInterval = v
        }
        c.drainTimeout = Double(try inv.int("drain-timeout", default: 10, range: 0...3600))
        c.journalCapacity = try inv.int("journal-size", default: 64, range: 1...65_536) << 20
        if let url = inv.value("mqtt") {
            do {
                var m = try MQTTConfiguration(url: url, clientID: inv.value("client-id") ?? "opennfc-\(station)")
                m.caFile = inv.value("ca-file")
                m.certFile = inv.value("cert")
                m.keyFile = inv.value("key")
                if let file = inv.value("key-passphrase-file") {
                    m.keyPassphrase = try passphrase(fromFile: file)
                    m.keyPassphraseSource = "the passphrase in --key-passphrase-file '\(file)'"
                } else if let p = environment[MQTTConfiguration.keyPassphraseVariable] {
                    m.keyPassphrase = Array(p.utf8)
                    m.keyPassphraseSource = "the passphrase in $\(MQTTConfiguration.keyPassphraseVariable)"
                }
                try m.checkFiles()
                c.mqtt = m
            } catch {
                throw CLIError.usage(error.message)
            }
        } else {
            for o in ["ca-file", "cert", "key", "key-passphrase-file", "client-id"] where inv.value(o) != nil {
                throw CLIError.usage("--\(o) needs --mqtt")
            }
        }
        c.journalPath = try inv.value("journal") ?? (c.mqtt == nil ? nil : defaultJournal(station, environment))
        return c
    }

    /// The first line of `path` (without its line end): the passphrase of an encrypted `--key`.
    static func passphrase(fromFile path: String) throws(MQTTError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MQTTError(.configuration, "--key-passphrase-file '\(path)': no such readable file")
        }
        var line = Array(data.prefix { $0 != 0x0A })
        if line.last == 0x0D { line.removeLast() }
        return line
    }

    static func defaultStationID() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "station"
        let slug = TopicScheme.slug(host)
        return slug.isEmpty ? "station" : String(slug.prefix(64))
    }

    /// `$STATE_DIRECTORY` (systemd's StateDirectory=) or `~/.local/state/opennfc`, created when missing.
    static func defaultJournal(_ station: String, _ environment: [String: String]) throws -> String {
        let dir =
            environment["STATE_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/opennfc"
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failure("cannot create the journal directory '\(dir)': \(error.localizedDescription)")
        }
        return dir + "/watch-\(station).journal"
    }

    /// `--check`: every device opens, the broker accepts the connection. Prints one `ok`/`failed` line per check.
    static func check(_ station: Station, _ c: StationConfiguration) throws -> Int32 {
        var failed = 0
        for device in c.devices {
            do {
                let opened = try DeviceRegistry.open(device, for: device == "pcsc" ? .phone : .command)
                Console.out("ok: device \(opened.name) opens\n")
                opened.tagSource.close()
            } catch {
                Console.out("failed: device \(device): \(error.message)\n")
                failed += 1
            }
        }
        if let m = c.mqtt {
            do {
                try station.checkBroker(seconds: 10)
                Console.out(
                    "ok: broker \(m.redacted) accepted client id \(m.clientID) (libmosquitto "
                        + "\((try? MQTTClient.libraryVersion()) ?? "?"))\n")
            } catch let e as MQTTError {
                Console.out("failed: broker \(m.redacted): \(e.message)\n")
                failed += 1
            }
        }
        if let j = c.journalPath {
            let dir = URL(fileURLWithPath: j).deletingLastPathComponent().path
            if FileManager.default.isWritableFile(atPath: dir) {
                Console.out("ok: journal \(j) (directory writable; at most \(c.journalCapacity >> 20) MiB)\n")
            } else {
                Console.out("failed: journal \(j): the directory '\(dir)' is not writable\n")
                failed += 1
            }
        }
        station.stop()
        if failed > 0 { throw CLIError.failure("\(failed) check\(failed == 1 ? "" : "s") failed") }
        return 0
    }
}
