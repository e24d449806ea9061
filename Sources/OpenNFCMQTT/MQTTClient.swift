internal import Foundation
internal import Synchronization

/// One connection to a broker, driven by a network thread of this client's own: QoS 1 publishing with PUBACK reported
/// per message id, reconnection after every kind of failure (TLS ones too), a Last Will, TLS.
///
/// The thread calls `mosquitto_loop` and makes every new attempt itself (`mosquitto_reconnect_async`), rather than
/// using `mosquitto_loop_start`: libmosquitto's own thread ends for good after a failed TLS handshake, and the only way
/// to try again was cancelling it, possibly inside OpenSSL. Here no thread is ever cancelled.
///
/// The rules of libmosquitto 2.0 this follows (mosquitto.h; measured against Debian's 2.0.11):
///
/// | Rule | Why |
/// |---|---|
/// | `mosquitto_threaded_set(true)` before connecting | a publish from another thread is queued and wakes the loop (its socket pair) instead of writing on the caller's thread |
/// | a QoS 1 publish that returns `MOSQ_ERR_NO_CONN` counts as queued | libmosquitto keeps it and resends it (DUP) after reconnecting; publishing it again would duplicate it |
/// | PUBACK = `on_publish(mid)` | for QoS 1 the callback fires when the broker's PUBACK arrives, not when the message is written |
/// | Will set before connecting | the broker keeps it from CONNECT |
/// | callbacks only record and hand over | they run inside `mosquitto_loop` on the network thread |
/// | a CONNACK refusal is reported, reconnection goes on | credentials can be fixed on the broker side |
/// | a connection taken over TLS and closed before any CONNACK is a TLS failure | a refused handshake ends with OpenSSL's reason (libmosquitto's error log lines) or, when the broker's reset overtakes its alert, with none |
/// | no CONNACK within ``MQTTClient/answerTimeout`` seconds: a new attempt | a broker that takes the connection and never answers does not hold the station |
/// | the key's passphrase comes from a callback, never a prompt | without one OpenSSL asks on the terminal |
///
/// Handlers run on the network thread and must return quickly; they may publish.
package final class MQTTClient: @unchecked Sendable {
    /// What the connection reports. Each runs on the client's network thread.
    package struct Handlers: Sendable {
        /// A CONNACK arrived: 0 accepted, otherwise the refusal code (MQTT 3.1.1 §3.2.2.3).
        package var connected: @Sendable (_ code: Int32) -> Void = { _ in }
        /// The connection ended or an attempt failed (0: asked for; otherwise libmosquitto's status) with a sentence
        /// for logs. The client tries again by itself.
        package var disconnected: @Sendable (_ status: Int32, _ reason: String) -> Void = { _, _ in }
        /// An attempt failed in its TLS handshake (OpenSSL's reason: `certificate verify failed`, `tlsv13 alert
        /// certificate required` …, or the broker closing the connection before answering). The client tries again.
        package var failed: @Sendable (_ reason: String) -> Void = { _ in }
        /// The broker acknowledged message `mid` (PUBACK for QoS 1).
        package var acknowledged: @Sendable (_ mid: Int32) -> Void = { _ in }

        package init() {}
    }

    /// Seconds an attempt may go without a CONNACK before the next one.
    package static let answerTimeout = 10.0
    /// The delay before the first new attempt, doubled after each failure up to ``maximumRetryDelay`` seconds.
    package static let firstRetryDelay = 1.0
    /// The longest delay between attempts: a broker back from an outage is found within this many seconds.
    package static let maximumRetryDelay = 15.0

    package let configuration: MQTTConfiguration
    private let lib: MosquittoBinding
    private let handle: OpaquePointer
    private let handlers: Handlers
    /// Guards the fields below it; signalled when ``stop()`` asks the network thread to end and when it has ended.
    private let signal = NSCondition()
    private var started = false
    private var stopping = false
    private var threadEnded = false
    /// Recorded by the callbacks of the current attempt (under `signal`): a CONNACK, the end of the connection.
    private var answered = false
    private var ended: (status: Int32, errno: Int32, text: String)?

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
        // Publishes from the station's thread are queued for the network thread, which the socket pair wakes.
        try check(lib.threadedSet(handle, true), "telling libmosquitto about the network thread")
        lib.onConnect(handle) { _, obj, code in
            guard let obj else { return }
            let client = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            client.signal.withLock { client.answered = true }
            if code == 0 { client.libraryErrors.withLock { $0.removeAll() } }
            client.handlers.connected(code)
        }
        // OpenSSL's errors reach us only as libmosquitto's log lines (`OpenSSL Error[0]: error:0A000086:SSL
        // routines::certificate verify failed`), logged before the connection is closed.
        lib.onLog(handle) { _, obj, level, text in
            guard let obj, let text, level == MosquittoStatus.logError else { return }
            let client = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            let line = String(cString: text)
            client.libraryErrors.withLock { lines in
                lines.append(line)
                if lines.count > 4 { lines.removeFirst(lines.count - 4) }
            }
        }
        // Runs inside `mosquitto_loop` once the socket is closed; the network thread reports it.
        lib.onDisconnect(handle) { _, obj, status in
            let error = MosquittoBinding.lastError()
            guard let obj else { return }
            let client = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            client.signal.withLock { client.ended = (status, error.code, error.text) }
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

    /// Starts the connection (non-blocking) and the network thread that drives it and retries it until ``stop()``.
    package func start() throws(MQTTError) {
        let first = signal.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        // The callbacks find this object through libmosquitto's user data (it did not exist yet at mosquitto_new).
        lib.userDataSet(handle, Unmanaged.passUnretained(self).toOpaque())
        let status = lib.connectAsync(
            handle, configuration.host, Int32(configuration.port), Int32(configuration.keepAlive))
        let error = MosquittoBinding.lastError()
        // A broker down or a name not found yet is retried by the thread; anything else is a configuration error.
        if status != MosquittoStatus.success && status != MosquittoStatus.errno && status != MosquittoStatus.lookup
            && status != MosquittoStatus.tls
        {
            signal.withLock { threadEnded = true }
            throw MQTTError(.unreachable, "cannot connect to \(configuration.redacted): \(reason(status))")
        }
        // The thread holds this object until it ends, so the handle outlives every callback.
        let thread = Thread { [self] in
            run(firstAttempt: status, error: error)
            signal.withLock {
                threadEnded = true
                signal.broadcast()
            }
        }
        thread.name = "opennfc mqtt \(configuration.clientID)"
        thread.start()
    }

    /// The network thread: drives the connection with `mosquitto_loop`, reports how each attempt ended, and makes the
    /// next one after a delay (1 s, doubling to 15 s; back to 1 s after a CONNACK) until ``stop()``.
    private func run(firstAttempt: Int32, error: (code: Int32, text: String)) {
        var delay = Self.firstRetryDelay
        var open = firstAttempt == MosquittoStatus.success
        var attemptStarted = Date()
        var tcpEstablished = false
        var stopDeadline: Date?
        if !open { report(status: firstAttempt, errno: error.code, errnoText: error.text, tcpEstablished: false) }
        while true {
            let (stop, answeredNow, endedNow) = signal.withLock { () -> (Bool, Bool, (Int32, Int32, String)?) in
                defer { ended = nil }
                return (stopping, answered, ended)
            }
            if stop {
                if stopDeadline == nil { stopDeadline = Date(timeIntervalSinceNow: 3) }
                // Done once DISCONNECT went out (the socket closed), or when it cannot (no connection, a broker that
                // does not read): SIGTERM must end the station (docs/STATIONS.md).
                if !open || endedNow != nil || Date() >= stopDeadline! || !answeredNow { return }
            }
            if let (status, code, text) = endedNow {
                open = false
                if !stop { report(status: status, errno: code, errnoText: text, tcpEstablished: tcpEstablished) }
                if answeredNow { delay = Self.firstRetryDelay }
            }
            if !open {
                // Wait before the next attempt; ``stop()`` ends the wait.
                let until = Date(timeIntervalSinceNow: delay)
                let stopNow = signal.withLock { () -> Bool in
                    while !stopping && signal.wait(until: until) {}
                    return stopping
                }
                if stopNow { return }
                delay = min(delay * 2, Self.maximumRetryDelay)
                libraryErrors.withLock { $0.removeAll() }
                signal.withLock {
                    answered = false
                    ended = nil
                }
                let status = lib.reconnectAsync(handle)
                let error = MosquittoBinding.lastError()
                attemptStarted = Date()
                tcpEstablished = false
                open = status == MosquittoStatus.success
                if !open { report(status: status, errno: error.code, errnoText: error.text, tcpEstablished: false) }
                continue
            }
            if !answeredNow {
                if !tcpEstablished { tcpEstablished = lib.isConnected(handle) }
                if Date().timeIntervalSince(attemptStarted) > Self.answerTimeout {
                    // Taken and never answered: the next attempt (reconnecting closes this socket).
                    open = false
                    handlers.disconnected(
                        MosquittoStatus.connectionLost,
                        "no CONNACK within \(Int(Self.answerTimeout)) s of connecting")
                    continue
                }
            }
            let status = lib.loop(handle, 1000, 1)
            if status != MosquittoStatus.success && status != MosquittoStatus.noConnection {
                // The socket closed without `on_disconnect` (it reports a closed connection otherwise).
                let error = MosquittoBinding.lastError()
                signal.withLock { if ended == nil { ended = (status, error.code, error.text) } }
            } else if status == MosquittoStatus.noConnection {
                signal.withLock { if ended == nil { ended = (status, 0, "") } }
            }
        }
    }

    /// Reports how an attempt or a connection ended: a TLS failure when the broker took the connection over TLS and
    /// closed it before any CONNACK (or OpenSSL gave a reason), a disconnection otherwise.
    private func report(status: Int32, errno code: Int32, errnoText: String, tcpEstablished: Bool) {
        let wasAnswered = signal.withLock { answered }
        let lines = libraryErrors.withLock { $0 }
        if let ssl = lines.last(where: { $0.hasPrefix("OpenSSL Error") }).flatMap(Self.openSSLReason) {
            handlers.failed(ssl)
        } else if status == MosquittoStatus.tls {
            handlers.failed(reason(status))
        } else if configuration.tls && !wasAnswered && tcpEstablished && !MosquittoBinding.isUnreachable(code) {
            let how = code == 0 ? lib.describe(status) : errnoText
            handlers.failed("the broker closed the connection during the TLS handshake (\(how))")
        } else if status == MosquittoStatus.errno && code != 0 {
            handlers.disconnected(status, errnoText)
        } else {
            handlers.disconnected(status, status == 0 ? "disconnected" : reason(status))
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

    /// Disconnects cleanly (DISCONNECT, so the broker does not publish the Will) and ends the network thread, waiting
    /// at most about 4 s for it. Idempotent; never call it from a handler.
    package func stop() {
        let run = signal.withLock { () -> Bool in
            defer { stopping = true }
            return started && !stopping && !threadEnded
        }
        guard run else { return }
        // Queued for the network thread, which the socket pair wakes; NO_CONN when there is no connection.
        _ = lib.disconnect(handle)
        signal.withLock {
            signal.broadcast()
            let deadline = Date(timeIntervalSinceNow: 4)
            while !threadEnded && signal.wait(until: deadline) {}
        }
    }
}
