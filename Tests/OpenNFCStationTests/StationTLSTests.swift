import Foundation
import OpenNFCBytes
import OpenNFCTestSupport
import Testing

/// `opennfc watch --mqtt mqtts://…` against a private mosquitto with a TLS listener on loopback, with certificates
/// made at test time by the `openssl` tool (a CA, the broker's certificate for localhost/127.0.0.1, a client
/// certificate and its key, also encrypted): events delivered over TLS with a client certificate the broker requires;
/// a broker certificate from another CA, a missing client certificate, and a missing or wrong key passphrase are each
/// a clear error; a broker whose certificate is replaced by a good one is reached without restarting the station.
@Suite(.serialized) struct StationTLSTests {
    struct Setup {
        let dir: URL
        let tag: String
        let certs: TestCertificates
    }

    func setUp() throws -> Setup? {
        guard Broker.available, FileManager.default.isExecutableFile(atPath: Subscriber.binary),
            TestCertificates.available
        else {
            print(Broker.skipNote + " (or /usr/bin/openssl is missing)")
            return nil
        }
        let dir = try Watch.temporaryDirectory()
        let tag = try Watch.tagFile(in: dir, name: "a.json", uid: "04A1B2C3D4E5F6", uri: "https://example.org/a")
        return Setup(dir: dir, tag: tag, certs: try TestCertificates(in: dir.appendingPathComponent("pki")))
    }

    func broker(
        _ s: Setup, stranger: Bool = false, requireCertificate: Bool = true, port: Int? = nil, version: String? = nil
    ) throws -> Broker {
        let c = s.certs
        return try Broker(
            tls: .init(
                certificate: stranger ? c.strangerCertificate : c.serverCertificate,
                key: stranger ? c.strangerKey : c.serverKey, clientCA: c.ca, requireCertificate: requireCertificate,
                version: version),
            tlsPort: port)
    }

    @Test func eventsOverTLSWithARequiredClientCertificate() throws {
        guard let s = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: s.dir) }
        let broker = try broker(s)
        try broker.start()
        let sub = try Subscriber(broker: broker, topic: "nfc/#")
        let tls = ["--ca-file", s.certs.ca, "--cert", s.certs.clientCertificate, "--key", s.certs.clientKey]
        let check = try Watch.run(
            ["watch", "--check", "--device", "sim:\(s.tag)", "--station-id", "t1", "--mqtt", "\(broker.tlsURL)/nfc"]
                + tls)
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("ok: broker mqtts://localhost:\(broker.tlsPort!)/nfc accepted"))
        let w = try Watch.start(
            [
                "--device", "sim:\(s.tag)", "--repeat", "3", "--station-id", "t1", "--mqtt", "\(broker.tlsURL)/nfc",
                "--journal", s.dir.appendingPathComponent("t1.journal").path,
            ] + tls)
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "reader-removed") == 1 })
        let printed = w.stdoutLines
        #expect(sub.waitFor(seconds: 30) { m in m.filter { $0.topic.contains("/events/") }.count == printed.count })
        let received = sub.messages.filter { $0.topic.contains("/events/") }.map(\.payload)
        #expect(received == printed, "every event arrived over TLS, in order, byte for byte")
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
        #expect(w.stderrLines.contains { $0.contains("INFO mqtt: connected to mqtts://localhost:\(broker.tlsPort!)") })
    }

    @Test func aBrokerCertificateFromAnotherCAIsRefusedClearly() throws {
        guard let s = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: s.dir) }
        let broker = try broker(s)
        try broker.start()
        let r = try Watch.run([
            "watch", "--check", "--device", "sim:\(s.tag)", "--station-id", "t2", "--mqtt", "\(broker.tlsURL)/nfc",
            "--ca-file", s.certs.otherCA, "--cert", s.certs.clientCertificate, "--key", s.certs.clientKey,
        ])
        #expect(r.status == 1)
        #expect(r.stdout.contains("failed: broker mqtts://localhost:\(broker.tlsPort!)/nfc: the TLS connection"))
        #expect(r.stdout.contains("certificate verify failed"), "\(r.stdout)")
        #expect(r.stdout.contains("--ca-file '\(s.certs.otherCA)'"))
    }

    /// Under TLS 1.2 the broker's alert ends the handshake; under TLS 1.3 it comes after the client's side of the
    /// handshake is done, and the broker's reset may overtake it (then no OpenSSL reason reaches the client).
    @Test(arguments: ["tlsv1.2", "tlsv1.3"])
    func aMissingClientCertificateIsRefusedClearly(version: String) throws {
        guard let s = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: s.dir) }
        let broker = try broker(s, version: version)
        try broker.start()
        let r = try Watch.run([
            "watch", "--check", "--device", "sim:\(s.tag)", "--station-id", "t3", "--mqtt", "\(broker.tlsURL)/nfc",
            "--ca-file", s.certs.ca,
        ])
        #expect(r.status == 1)
        #expect(
            r.stdout.contains("the TLS connection to mqtts://localhost:\(broker.tlsPort!)/nfc failed"), "\(r.stdout)")
        #expect(r.stdout.contains("give --cert and --key if the broker requires a client certificate"))
    }

    @Test func anEncryptedKeyTakesItsPassphraseFromTheEnvironmentOrAFile() throws {
        guard let s = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: s.dir) }
        let broker = try broker(s)
        try broker.start()
        let base = [
            "watch", "--check", "--device", "sim:\(s.tag)", "--station-id", "t4", "--mqtt", "\(broker.tlsURL)/nfc",
            "--ca-file", s.certs.ca, "--cert", s.certs.clientCertificate, "--key", s.certs.encryptedClientKey,
        ]
        let variable = "OPENNFC_MQTT_KEY_PASSPHRASE"
        // From the environment.
        let env = try Watch.run(base, environment: [variable: s.certs.passphrase])
        #expect(env.status == 0, "\(env.stdout) \(env.stderr)")
        #expect(env.stdout.contains("ok: broker mqtts://localhost:\(broker.tlsPort!)/nfc accepted"))
        // From a file (first line; its line end is not part of the passphrase).
        let file = s.dir.appendingPathComponent("passphrase").path
        try FileAccess.write(Array((s.certs.passphrase + "\n").utf8), to: file)
        let fromFile = try Watch.run(base + ["--key-passphrase-file", file])
        #expect(fromFile.status == 0, "\(fromFile.stdout) \(fromFile.stderr)")
        // None: said so, with where to put it; OpenSSL never prompts (stdin is not a terminal, and it is not asked).
        let none = try Watch.run(base)
        #expect(none.status == 64)
        #expect(none.stderr.contains("is encrypted: give its passphrase in the environment variable \(variable)"))
        // Wrong: said so, without printing it.
        let wrong = try Watch.run(base, environment: [variable: "not the passphrase"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("the passphrase in $\(variable) does not decrypt it"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("not the passphrase") && !wrong.stdout.contains("not the passphrase"))
        // A running station with the passphrase publishes over TLS.
        let sub = try Subscriber(broker: broker, topic: "nfc/#")
        let w = try Watch.start(
            Array(base.dropFirst(2)) + ["--journal", s.dir.appendingPathComponent("t4.journal").path],
            environment: [variable: s.certs.passphrase])
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "reader-removed") == 1 })
        let printed = w.stdoutLines
        #expect(sub.waitFor(seconds: 30) { m in m.filter { $0.topic.contains("/events/") }.count == printed.count })
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
    }

    @Test func aBrokerWhoseCertificateIsReplacedIsReachedWithoutARestart() throws {
        guard let s = try setUp() else { return }
        defer { try? FileManager.default.removeItem(at: s.dir) }
        let stranger = try broker(s, stranger: true)
        try stranger.start()
        let port = stranger.tlsPort!
        let w = try Watch.start([
            "--device", "sim:\(s.tag)", "--station-id", "t5", "--mqtt", "mqtts://localhost:\(port)/nfc",
            "--ca-file", s.certs.ca, "--cert", s.certs.clientCertificate, "--key", s.certs.clientKey,
            "--journal", s.dir.appendingPathComponent("t5.journal").path, "--health", "1",
        ])
        #expect(
            w.wait(seconds: 30) { _, err in
                err.contains {
                    $0.contains("ERROR mqtt: the TLS connection") && $0.contains("certificate verify failed")
                }
            })
        #expect(w.wait(seconds: 30) { _, err in err.contains { $0.contains("broker=failed") } })
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "reader-removed") == 1 })
        let printed = w.stdoutLines.count
        // The same port, now with the certificate the station's CA signed.
        stranger.stop()
        let good = try broker(s, port: port)
        try good.start()
        #expect(
            w.wait(seconds: 60) { _, err in
                err.contains { $0.contains("health: seen=\(printed) published=\(printed) queued=0") }
            }, "the station tried again on its own and the broker acknowledged its whole journal")
        #expect(w.stderrLines.contains { $0.contains("INFO mqtt: connected to mqtts://localhost:\(port)/nfc") })
        let errors = w.stderrLines.filter { $0.contains("ERROR mqtt: the TLS connection") }
        #expect(errors.first?.contains("certificate verify failed") == true)
        #expect(errors.count <= 3, "logged once per distinct reason, not per attempt: \(errors)")
        w.signal(SIGTERM)
        #expect(w.waitForExit(seconds: 30) == 0)
    }
}
