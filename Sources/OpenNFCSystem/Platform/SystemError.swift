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

    /// The tag's own status in its answer, when the failure is the tag's refusal (carried to the app's error).
    package var tagStatus: TagStatus?

    package init(_ code: Code, _ reason: String, unexpectedLength: Bool = false) {
        self.code = code
        self.reason = reason
        self.unexpectedLength = unexpectedLength
    }

    package init(_ code: Code, _ reason: String, tagStatus: TagStatus?) {
        self.init(code, reason)
        self.tagStatus = tagStatus
    }

    package var description: String { "\(code.rawValue): \(reason)" }
}

/// A tag's own status in a refusal, as its protocol codes it: the public layer puts it into the error's `userInfo`
/// (Core NFC's `NFCISO15693TagResponseErrorKey`, docs/PARITY.md §14).
package enum TagStatus: Sendable, Hashable {
    /// The ISO/IEC 15693-3 error code after a response with the Error flag (§10.2.4 Table 7: `01` not supported …
    /// `14` lock failed, `A0`–`DF` custom).
    case iso15693(UInt8)
    /// FeliCa status flags 1 and 2 of a refused command (JIS X 6319-4 §7.1.3; FeliCa Card User's Manual §4.5).
    case felica(statusFlag1: UInt8, statusFlag2: UInt8)
}
