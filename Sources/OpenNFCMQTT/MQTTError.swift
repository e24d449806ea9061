/// An MQTT failure with a stable code and a sentence that says what to do.
package struct MQTTError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Code: String, Sendable, Hashable {
        /// libmosquitto cannot be loaded (not installed, or too old).
        case libraryUnavailable
        /// The `--mqtt` URL or a TLS file is wrong.
        case configuration
        /// The broker refused the connection (CONNACK ≠ 0: credentials, client id).
        case refused
        /// The broker cannot be reached (connection refused, name lookup, TLS handshake).
        case unreachable
        /// A call into libmosquitto failed.
        case library
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
