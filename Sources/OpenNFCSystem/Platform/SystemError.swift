/// A failure the system reports to the public layer, which maps each code to one `NFCReaderError` code in one
/// exhaustive switch. The reason names what failed; tests compare codes.
package struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Code: String, Hashable, Sendable, CaseIterable {
        case unsupportedFeature, securityViolation, invalidParameter, invalidParameterLength, parameterOutOfBound
        case tagConnectionLost, retryExceeded, tagResponseError, sessionInvalidated, tagNotConnected, packetTooLong
        case tagNotWritable, tagUpdateFailure, tagSizeTooSmall, zeroLengthMessage
    }

    package var code: Code
    package var reason: String
    /// The tag's answer had an impossible length (Core NFC's `NFCTagResponseUnexpectedLengthErrorKey`).
    package var unexpectedLength: Bool

    package init(_ code: Code, _ reason: String, unexpectedLength: Bool = false) {
        self.code = code
        self.reason = reason
        self.unexpectedLength = unexpectedLength
    }

    package var description: String { "\(code.rawValue): \(reason)" }
}
