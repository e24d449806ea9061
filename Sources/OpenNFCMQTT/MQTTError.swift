package import OpenNFCBytes

/// An MQTT failure with a stable code and a sentence that says what to do.
package typealias MQTTError = CodedError<MQTTErrorCode>

/// The kinds of ``MQTTError``.
package enum MQTTErrorCode: String, Sendable, Hashable {
    /// libmosquitto cannot be loaded (not installed, or too old).
    case libraryUnavailable
    /// The `--mqtt` URL or a TLS file is wrong.
    case configuration
    /// The broker refused the connection (CONNACK ≠ 0: credentials, client id).
    case refused
    /// The broker cannot be reached (connection refused, name lookup).
    case unreachable
    /// The TLS handshake failed (the broker's certificate does not chain to --ca-file or does not name the host, or
    /// the broker refused the client certificate).
    case tls
    /// A call into libmosquitto failed.
    case library
}
