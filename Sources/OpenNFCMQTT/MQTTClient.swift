internal import Foundation
internal import Synchronization

/// One connection to a broker through libmosquitto's own network thread: QoS 1 publishing with PUBACK reported per
/// message id, automatic reconnection, a Last Will, TLS.
///
/// The rules of libmosquitto 2.0 this follows (mosquitto.h; measured against Debian's 2.0.11):
///
/// | Rule | Why |
/// |---|---|
/// | `mosquitto_loop_start` before `mosquitto_connect_async` | in the other order a broker down at start is never retried |
/// | a QoS 1 publish that returns `MOSQ_ERR_NO_CONN` counts as queued | libmosquitto keeps it and resends it (DUP) after reconnecting; publishing it again would duplicate it |
/// | PUBACK = `on_publish(mid)` | for QoS 1 the callback fires when the broker's PUBACK arrives, not when the message is written |
/// | Will set before connecting | the broker keeps it from CONNECT |
/// | callbacks only record and hand over | they run on libmosquitto's thread; `loop_stop`/`destroy` are never called there |
/// | a CONNACK refusal is reported, reconnection goes on | credentials can be fixed on the broker side |
/// | a TLS failure is reported with OpenSSL's reason (libmosquitto's error log lines); ``restart()`` starts a new network thread | after a TLS error libmosquitto's thread ends instead of reconnecting |
/// | the key's passphrase comes from a callback, never a prompt | without one OpenSSL asks on the terminal |
///
/// Handlers run on libmosquitto's thread and must return quickly.
package final class MQTTClient: @unchecked Sendable {
    /// What the connection reports. Each runs on libmosquitto's network thread.
    package struct Handlers: Sendable {
        /// A CONNACK arrived: 0 accepted, otherwise the refusal code (MQTT 3.1.1 §3.2.2.3).
        package var connected: @Sendable (_ code: Int32) -> Void = { _ in }
        /// The connection ended (0: asked for; otherwise libmosquitto's reason) with a sentence for logs.
        package var disconnected: @Sendable (_ status: Int32, _ reason: String) -> Void = { _, _ in }
        /// TLS failed (OpenSSL's reason: `certificate verify failed`, `tlsv13 alert certificate required` …), or a
        /// fatal error ended libmosquitto's network thread; `threadEnded`: the thread ended (or may have), and only
        /// ``MQTTClient/restart()`` tries again.
        package var failed: @Sendable (_ reason: String, _ threadEnded: Bool) -> Void = { _, _ in }
        /// The broker acknowledged message `mid` (PUBACK for QoS 1).
        package var acknowledged: @Sendable (_ mid: Int32) -> Void = { _ in }

        package init() {}
    }

    package let configuration: MQTTConfiguration
    private let lib: MosquittoBinding
    private let handle: OpaquePointer
    private let handlers: Handlers
    private let state = Mutex(State())
    /// Raised by libmosquitto's thread once it reported the disconnection that ``stop()`` asked for.
    private let disconnection = NSCondition()
    private var disconnectionSeen = false

    private struct State {
        var started = false
        var stopped = false
    }

    /// libmosquitto's latest error log lines (OpenSSL's reasons for a TLS failure), cleared on every connection.
    private let libraryErrors = Mutex<[String]>([])

    /// The loaded libmosquitto's version, e.g. "2.0.11".
    package static func libraryVersion() throws(MQTTError) -> String {
        let v = try MosquittoBinding.load().version
        return "\(v.major).\(v.minor).\(v.revision)"
    }

    /// A sentence for a CONNACK refusal code (MQTT 3.1.1 §3.2.2.3), saying what to check.
    package static func connackText(_ code: Int32) -> String { MosquittoStatus.connack(code) }

    /// Creates the client (nothing is sent yet). `will` is published by the broker, retained with QoS 1, when this
    /// client disappears without a clean disconnect.
    package init(
        _ configuration: MQTTConfiguration, will: (topic: String, payload: [UInt8])?, handlers: Handlers
    ) throws(MQTTError) {
        try configuration.checkFiles()
        let lib = try MosquittoBinding.load()
        self.lib = lib
        self.configuration = configuration
        self.handlers = handlers
        // A fixed client id and a persistent session (clean_session false): the broker keeps this station's session.
        guard let h = configuration.clientID.withCString({ lib.new($0, false, nil) }) else {
            throw MQTTError(.library, "mosquitto_new failed for client id '\(configuration.clientID)'")
        }
        handle = h
        do {
            try configure(will: will)
        } catch {
            lib.destroy(h)
            throw error
        }
    }

    deinit {
        stop()
        lib.destroy(handle)
    }

    private func check(_ status: Int32, _ what: String) throws(MQTTError) {
        guard status == MosquittoStatus.success else {
            throw MQTTError(.library, "\(what) failed: \(lib.describe(status))")
        }
    }

    private func configure(will: (topic: String, payload: [UInt8])?) throws(MQTTError) {
        let c = configuration
        if let user = c.username {
            try check(lib.usernamePassword(handle, user, c.password), "setting the MQTT user name")
        }
        if c.tls {
            // nil CA file: libmosquitto has no default; trust the operating system's store (MOSQ_OPT_TLS_USE_OS_CERTS).
            if c.caFile == nil { _ = lib.intOption(handle, 13, 1) }
            // The key's passphrase through OpenSSL's callback (libmosquitto passes itself as its user data), so that
            // OpenSSL never prompts on a terminal; no passphrase configured: the callback declines (-1).
            let passphrase: FnPasswordCallback = { buffer, size, _, mosq in
                guard let buffer, let mosq, let lib = try? MosquittoBinding.load(),
                    let obj = lib.userData(OpaquePointer(mosq))
                else { return -1 }
                let client = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
                guard let bytes = client.configuration.keyPassphrase, bytes.count <= Int(size) else { return -1 }
                for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
                return Int32(bytes.count)
            }
            let status = lib.tlsSet(
                handle, c.caFile, c.caFile == nil ? "/etc/ssl/certs" : nil, c.certFile, c.keyFile, passphrase)
            guard status == MosquittoStatus.success else {
                throw MQTTError(.configuration, "the TLS settings were refused: \(lib.describe(status))")
            }
        }
        if let will {
            let status = will.payload.withUnsafeBytes {
                lib.willSet(handle, will.topic, Int32($0.count), $0.baseAddress, 1, true)
            }
            try check(status, "setting the Last Will on '\(will.topic)'")
        }
        // Reconnect after 1 s, doubling up to 15 s: a broker back from an outage is found within 15 s.
        try check(lib.reconnectDelay(handle, 1, 15, true), "setting the reconnect delay")
        try check(lib.maxInflight(handle, 100), "setting the in-flight window")
        _ = lib.intOption(handle, 11, 1)  // MOSQ_OPT_TCP_NODELAY: events are small, latency matters
        lib.onConnect(handle) { _, obj, code in
            guard let obj else { return }
            let client = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            if code == 0 { client.libraryErrors.withLock { $0.removeAll() } }
            client.handlers.connected(code)
        }
        // OpenSSL's errors reach us only as libmosquitto's log lines (`OpenSSL Error[0]: error:0A000086:SSL
        // routines::certificate verify failed`); a failed handshake may end in a plain "connection lost", or in no
        // callback at all when a reconnection attempt fails.
        lib.onLog(handle) { _, obj, level, text in
            guard let obj, let text, level == MosquittoStatus.logError else { return }
            let client = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            let line = String(cString: text)
            client.libraryErrors.withLock { lines in
                lines.append(line)
                if lines.count > 4 { lines.removeFirst(lines.count - 4) }
            }
            // A failed handshake usually ends the network thread without a callback (errno EPROTO, mosquitto's loop.c).
            if let why = MQTTClient.openSSLReason(line) { client.handlers.failed(why, true) }
        }
        lib.onDisconnect(handle) { _, obj, status in
            guard let obj else { return }
            let client = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            if MosquittoStatus.fatal.contains(status) {
                client.handlers.failed(client.reason(status), true)
            } else {
                client.handlers.disconnected(status, status == 0 ? "disconnected" : client.reason(status))
            }
            client.disconnection.lock()
            client.disconnectionSeen = true
            client.disconnection.broadcast()
            client.disconnection.unlock()
        }
        lib.onPublish(handle) { _, obj, mid in
            guard let obj else { return }
            Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue().handlers.acknowledged(mid)
        }
    }

    /// `mosquitto_strerror(status)` with libmosquitto's latest error log lines (OpenSSL's reason for a TLS failure:
    /// `certificate verify failed`, `tlsv13 alert certificate required` …).
    private func reason(_ status: Int32) -> String {
        let lines = libraryErrors.withLock { $0 }
        if let last = lines.last(where: { $0.hasPrefix("OpenSSL Error") }), let why = Self.openSSLReason(last) {
            return why
        }
        return lib.describe(status) + (lines.isEmpty ? "" : ": " + lines.joined(separator: "; "))
    }

    /// "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed" → "certificate verify failed".
    static func openSSLReason(_ line: String) -> String? {
        guard line.hasPrefix("OpenSSL Error"), let r = line.range(of: "::", options: .backwards) else { return nil }
        return String(line[r.upperBound...])
    }

    /// libmosquitto's "connection lost" status (`MOSQ_ERR_CONN_LOST`), as ``Handlers/disconnected`` reports it.
    package static let connectionLost = MosquittoStatus.connectionLost

    /// After ``Handlers/failed`` with `threadEnded`: ends the network thread (cancelled if a failure left it retrying
    /// by itself: it then waits in its reconnect delay, a cancellation point), starts a new one and connects again.
    /// Never call it from a handler.
    package func restart() throws(MQTTError) {
        let live = state.withLock { $0.started && !$0.stopped }
        guard live else { return }
        _ = lib.loopStop(handle, true)
        try check(lib.loopStart(handle), "restarting libmosquitto's network thread")
        let status = lib.reconnectAsync(handle)
        if status == MosquittoStatus.tls { handlers.failed(reason(status), true) }
    }

    /// Starts the network thread, then the connection (retried by the thread until it succeeds).
    package func start() throws(MQTTError) {
        try state.withLock { (s: inout State) throws(MQTTError) in
            guard !s.started else { return }
            s.started = true
        }
        // The callbacks find this object through libmosquitto's user data (it did not exist yet at mosquitto_new).
        lib.userDataSet(handle, Unmanaged.passUnretained(self).toOpaque())
        try check(lib.loopStart(handle), "starting libmosquitto's network thread")
        let status = lib.connectAsync(
            handle, configuration.host, Int32(configuration.port), Int32(configuration.keepAlive))
        // With the thread already running, a failed first attempt (broker down, name not found yet) is retried by it.
        // A TLS failure of this first attempt ends libmosquitto's thread (errno EPROTO): reported, and ``restart()``
        // tries again later, so a broker whose certificate gets fixed is reached.
        if status == MosquittoStatus.tls { handlers.failed(reason(status), true) }
        if status != MosquittoStatus.success && status != MosquittoStatus.errno && status != MosquittoStatus.lookup
            && status != MosquittoStatus.tls
        {
            throw MQTTError(.unreachable, "cannot connect to \(configuration.redacted): \(reason(status))")
        }
    }

    /// Publishes `payload` on `topic` with QoS 1 and returns its message id; the broker's PUBACK arrives later through
    /// ``Handlers/acknowledged``. While disconnected the message is queued by libmosquitto (and sent on reconnect).
    package func publish(topic: String, payload: [UInt8], retain: Bool = false) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        let status = payload.withUnsafeBytes {
            lib.publish(handle, &mid, topic, Int32($0.count), $0.baseAddress, 1, retain)
        }
        guard status == MosquittoStatus.success || status == MosquittoStatus.noConnection else {
            throw MQTTError(.library, "publishing on '\(topic)' failed: \(lib.describe(status))")
        }
        return mid
    }

    /// Sends DISCONNECT (the broker then does not publish the Will).
    package func disconnect() { _ = lib.disconnect(handle) }

    /// Disconnects and stops the network thread. Idempotent; never call it from a handler.
    package func stop() {
        let run = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return s.started && !s.stopped
        }
        guard run else { return }
        disconnection.lock()
        disconnectionSeen = false  // an earlier outage's report is not this one
        disconnection.unlock()
        let status = lib.disconnect(handle)
        // The network thread ends by itself once it has sent DISCONNECT and reported it; wait for that (bounded), then
        // stop it. A thread that never reports (no connection at the time, a reconnect back-off, a broker that does not
        // read) is cancelled rather than joined without end: SIGTERM must end the station (docs/STATIONS.md).
        var reported = false
        if status == MosquittoStatus.success {
            let deadline = Date(timeIntervalSinceNow: 3)
            disconnection.lock()
            while !disconnectionSeen && disconnection.wait(until: deadline) {}
            reported = disconnectionSeen
            disconnection.unlock()
        }
        _ = lib.loopStop(handle, !reported)
    }
}
