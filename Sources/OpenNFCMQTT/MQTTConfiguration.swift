internal import Foundation
internal import OpenNFCCrypto

/// Where and how a station connects: parsed from `mqtt://[user:pass@]host[:port]/topic/prefix` (or `mqtts://`), plus
/// the TLS files and the client id given beside it.
///
/// | Part | Meaning | Default |
/// |---|---|---|
/// | `mqtt://` / `mqtts://` | plain TCP / TLS (MQTT 3.1.1 over TCP, OASIS MQTT 3.1.1 §4.2) | — |
/// | `user:pass@` | user name and password (percent-encoded where needed) | anonymous |
/// | `host` | name, IPv4 address or `[IPv6]` | — (required) |
/// | `:port` | TCP port | 1883 (`mqtt`), 8883 (`mqtts`) |
/// | `/topic/prefix` | the prefix of every topic the station publishes | `opennfc` |
package struct MQTTConfiguration: Sendable, Hashable {
    package var host: String
    package var port: Int
    package var tls: Bool
    package var username: String?
    package var password: String?
    package var topicPrefix: String
    /// `--ca-file`: the CA certificates (PEM) that sign the broker's certificate; nil: the system's trust store.
    package var caFile: String?
    /// `--cert` / `--key`: the client certificate and its private key (PEM), when the broker asks for one.
    package var certFile: String?
    package var keyFile: String?
    /// The passphrase of an encrypted `--key`, and where it came from (for messages; the passphrase itself is never
    /// printed): the environment variable ``keyPassphraseVariable`` or `--key-passphrase-file`, never an argument
    /// that `ps` would show.
    package var keyPassphrase: [UInt8]?
    package var keyPassphraseSource: String?
    /// The environment variable that may hold the passphrase of an encrypted `--key`.
    package static let keyPassphraseVariable = "OPENNFC_MQTT_KEY_PASSPHRASE"
    /// The MQTT client identifier (also the key of the broker's session for this station).
    package var clientID: String
    /// Seconds between keep-alive pings; libmosquitto accepts 0 or 5…65535.
    package var keepAlive: Int = 30

    /// The URL without the password, for logs.
    package var redacted: String {
        let user = username.map { "\($0)\(password == nil ? "" : ":***")@" } ?? ""
        let h = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "mqtts" : "mqtt")://\(user)\(h):\(port)/\(topicPrefix)"
    }

    /// Parses `url`; throws a ``MQTTErrorCode/configuration`` error naming the part that is wrong.
    package init(url: String, clientID: String) throws(MQTTError) {
        func bad(_ why: String) -> MQTTError {
            MQTTError(
                .configuration, "--mqtt '\(url)': \(why); use mqtt://[user:pass@]host[:port]/topic/prefix (or mqtts://)"
            )
        }
        let schemeEnd: String.Index
        if url.hasPrefix("mqtt://") {
            tls = false
            schemeEnd = url.index(url.startIndex, offsetBy: 7)
        } else if url.hasPrefix("mqtts://") {
            tls = true
            schemeEnd = url.index(url.startIndex, offsetBy: 8)
        } else {
            throw bad("the scheme must be mqtt:// or mqtts://")
        }
        var rest = Substring(url[schemeEnd...])
        let authority: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            rest = rest[rest.index(after: slash)...]
        } else {
            authority = rest
            rest = ""
        }
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let user = parts[0].removingPercentEncoding, !user.isEmpty else {
                throw bad("the user name before '@' is empty or badly percent-encoded")
            }
            username = user
            if parts.count == 2 {
                guard let pass = parts[1].removingPercentEncoding else {
                    throw bad("the password is badly percent-encoded")
                }
                password = pass
            }
        }
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw bad("the IPv6 address lacks its ']'") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad("unexpected '\(after)' after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            host = String(hostPort)
        }
        guard !host.isEmpty else { throw bad("the host is missing") }
        port = tls ? 8883 : 1883
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw bad("the port '\(portText)' is not a number from 1 to 65535")
            }
            port = p
        }
        var prefix = String(rest)
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if prefix.isEmpty { prefix = "opennfc" }
        if prefix.contains("+") || prefix.contains("#") {
            throw bad("the topic prefix '\(prefix)' contains a wildcard (+ or #), which a publisher may not use")
        }
        if prefix.hasPrefix("$") { throw bad("the topic prefix '\(prefix)' starts with '$' (reserved by brokers)") }
        topicPrefix = prefix
        guard !clientID.isEmpty, clientID.utf8.count <= 65535 else {
            throw MQTTError(.configuration, "the MQTT client id must be 1 to 65535 bytes of UTF-8")
        }
        self.clientID = clientID
    }

    /// Checks that the TLS files named exist and are readable, before any connection is tried.
    package func checkFiles() throws(MQTTError) {
        let named: [(String, String?)] = [("--ca-file", caFile), ("--cert", certFile), ("--key", keyFile)]
        for case (let option, let path?) in named where !FileManager.default.isReadableFile(atPath: path) {
            throw MQTTError(.configuration, "\(option) '\(path)': no such readable file")
        }
        if (certFile == nil) != (keyFile == nil) {
            throw MQTTError(.configuration, "--cert and --key go together (the client certificate and its key)")
        }
        if !tls, caFile != nil || certFile != nil {
            throw MQTTError(.configuration, "--ca-file, --cert and --key need an mqtts:// URL")
        }
        if let keyFile { try checkKey(keyFile) }
    }

    /// Reads `--key` with its passphrase through libcrypto, so that a missing or wrong passphrase is a clear error
    /// before any connection (libmosquitto would only fail the TLS set-up, and OpenSSL would prompt on a terminal).
    private func checkKey(_ path: String) throws(MQTTError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MQTTError(.configuration, "--key '\(path)': cannot be read")
        }
        let outcome: PrivateKeyPEM.Outcome
        do {
            outcome = try PrivateKeyPEM.check(Array(data), passphrase: keyPassphrase)
        } catch {
            throw MQTTError(.configuration, "--key '\(path)' cannot be checked: \(error.detail)")
        }
        let source = keyPassphraseSource ?? "the passphrase"
        switch outcome {
        case .valid:
            return
        case .needsPassphrase:
            throw MQTTError(
                .configuration,
                "--key '\(path)' is encrypted: give its passphrase in the environment variable "
                    + "\(Self.keyPassphraseVariable) or in a file named by --key-passphrase-file (never on the command line)"
            )
        case .wrongPassphrase(let why):
            throw MQTTError(
                .configuration,
                "--key '\(path)': \(source) does not decrypt it (\(why.isEmpty ? "bad decrypt" : why)); check the passphrase"
            )
        case .notAKey(let why):
            throw MQTTError(.configuration, "--key '\(path)' holds no PEM private key (\(why))")
        }
    }
}
