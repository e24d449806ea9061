/// A failure the system reports to the public layer, which maps each code to one `NFCReaderError` code in one
/// exhaustive switch. The reason names what failed; tests compare codes.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable, CaseIterable {
        case unsupportedFeature, securityViolation, invalidParameter, invalidParameterLength, parameterOutOfBound
        case tagConnectionLost, retryExceeded, tagResponseError, sessionInvalidated, tagNotConnected, packetTooLong
        case tagNotWritable, tagUpdateFailure, tagSizeTooSmall, zeroLengthMessage
    }

    public var code: Code
    public var reason: String
    /// The tag's answer had an impossible length (Core NFC's `NFCTagResponseUnexpectedLengthErrorKey`).
    public var unexpectedLength: Bool

    public init(_ code: Code, _ reason: String, unexpectedLength: Bool = false) {
        self.code = code
        self.reason = reason
        self.unexpectedLength = unexpectedLength
    }

    public var description: String { "\(code.rawValue): \(reason)" }
}
