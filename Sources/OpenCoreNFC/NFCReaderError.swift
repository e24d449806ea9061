public import Foundation

/// The error domain of every Core NFC error: `"NFCError"` (Core NFC §11.1).
public let NFCErrorDomain: String = "NFCError"

/// userInfo key carrying the ISO 15693-3 error code from a tag's response, with code 102 (Core NFC §11.3).
public let NFCISO15693TagResponseErrorKey: String = "ISO15693TagResponseErrorCode"

/// userInfo key whose presence (value `true`) says a tag's response had an invalid length, with code 102 (§11.3).
public let NFCTagResponseUnexpectedLengthErrorKey: String = "TagResponseInvalidLength"

/// Core NFC's error, shaped as Swift imports the ObjC `NS_ERROR_ENUM(NFCErrorDomain, NFCReaderError)`: a struct
/// with a nested `Code` enum, a static member per code for pattern matching (`catch NFCReaderError.readerError…`),
/// and a userInfo that always carries the localized description (Core NFC §11.1–§11.3).
public struct NFCReaderError: CustomNSError, Hashable, Error {
    /// Every code of `NFCReaderError` with Apple's raw value (Core NFC §11.2).
    public enum Code: Int, Sendable, Hashable, Equatable {
        case readerErrorUnsupportedFeature = 1
        case readerErrorSecurityViolation = 2
        case readerErrorInvalidParameter = 3
        case readerErrorInvalidParameterLength = 4
        case readerErrorParameterOutOfBound = 5
        case readerErrorRadioDisabled = 6
        case readerErrorIneligible = 7
        case readerErrorAccessNotAccepted = 8
        case readerTransceiveErrorTagConnectionLost = 100
        case readerTransceiveErrorRetryExceeded = 101
        case readerTransceiveErrorTagResponseError = 102
        case readerTransceiveErrorSessionInvalidated = 103
        case readerTransceiveErrorTagNotConnected = 104
        case readerTransceiveErrorPacketTooLong = 105
        case readerSessionInvalidationErrorUserCanceled = 200
        case readerSessionInvalidationErrorSessionTimeout = 201
        case readerSessionInvalidationErrorSessionTerminatedUnexpectedly = 202
        case readerSessionInvalidationErrorSystemIsBusy = 203
        case readerSessionInvalidationErrorFirstNDEFTagRead = 204
        case tagCommandConfigurationErrorInvalidParameters = 300
        case ndefReaderSessionErrorTagNotWritable = 400
        case ndefReaderSessionErrorTagUpdateFailure = 401
        case ndefReaderSessionErrorTagSizeTooSmall = 402
        case ndefReaderSessionErrorZeroLengthMessage = 403

        /// The runtime's localized description for this code (iOS 26.1 strings, Core NFC §11.2; not contractual).
        var localizedDescription: String {
            switch self {
            case .readerErrorUnsupportedFeature: return "Feature not supported"
            case .readerErrorSecurityViolation: return "Missing required entitlement"
            case .readerErrorInvalidParameter: return "Invalid parameter"
            case .readerErrorInvalidParameterLength: return "Invalid parameter length"
            case .readerErrorParameterOutOfBound: return "Parameter value is out of bound"
            case .readerErrorRadioDisabled: return "NFC radio is disabled"
            case .readerErrorIneligible: return "System is ineligible for this operation"
            case .readerErrorAccessNotAccepted:
                return "User has not yet accepted or declined app request to use this service"
            case .readerTransceiveErrorTagConnectionLost: return "Tag connection lost"
            case .readerTransceiveErrorRetryExceeded: return "Maximum retries exceeded"
            case .readerTransceiveErrorTagResponseError: return "Tag response error"
            case .readerTransceiveErrorSessionInvalidated: return "Session invalidated"
            case .readerTransceiveErrorTagNotConnected: return "Tag is not connected"
            case .readerTransceiveErrorPacketTooLong: return "Packet length has exceeded the limit"
            case .readerSessionInvalidationErrorUserCanceled: return "Session invalidated by user"
            case .readerSessionInvalidationErrorSessionTimeout: return "Session timeout"
            case .readerSessionInvalidationErrorSessionTerminatedUnexpectedly: return "Session invalidated unexpectedly"
            case .readerSessionInvalidationErrorSystemIsBusy: return "System resource unavailable"
            case .readerSessionInvalidationErrorFirstNDEFTagRead: return "First NDEF tag read"
            case .tagCommandConfigurationErrorInvalidParameters: return "Invalid configuration parameters"
            case .ndefReaderSessionErrorTagNotWritable: return "NDEF tag is read only"
            case .ndefReaderSessionErrorTagUpdateFailure: return "NDEF tag write failed"
            case .ndefReaderSessionErrorTagSizeTooSmall: return "Insufficient space on NDEF tag"
            case .ndefReaderSessionErrorZeroLengthMessage: return "NDEF tag does not contain any NDEF message"
            }
        }
    }

    /// The error's code.
    public let code: Code
    // userInfo values are `Any`, as on Darwin; they are only ever read, never mutated after creation.
    nonisolated(unsafe) private let extraUserInfo: [String: Any]

    /// Creates an error with the given code; `userInfo` is merged over the localized description.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.extraUserInfo = userInfo
    }

    /// `"NFCError"`.
    public static var errorDomain: String { NFCErrorDomain }

    /// The raw value of ``code``.
    public var errorCode: Int { code.rawValue }

    /// `NSLocalizedDescriptionKey` with the code's description, merged with the userInfo given at creation.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: code.localizedDescription]
        for (k, v) in extraUserInfo { info[k] = v }
        return info
    }

    /// The same dictionary as ``errorUserInfo`` (the name bridged errors use).
    public var userInfo: [String: Any] { errorUserInfo }

    /// The code's localized description, e.g. "Session timeout" for 201.
    public var localizedDescription: String {
        (errorUserInfo[NSLocalizedDescriptionKey] as? String) ?? code.localizedDescription
    }

    public static func == (a: NFCReaderError, b: NFCReaderError) -> Bool {
        a.code == b.code && NSDictionary(dictionary: a.errorUserInfo).isEqual(to: b.errorUserInfo)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var readerErrorUnsupportedFeature: Code { .readerErrorUnsupportedFeature }
    public static var readerErrorSecurityViolation: Code { .readerErrorSecurityViolation }
    public static var readerErrorInvalidParameter: Code { .readerErrorInvalidParameter }
    public static var readerErrorInvalidParameterLength: Code { .readerErrorInvalidParameterLength }
    public static var readerErrorParameterOutOfBound: Code { .readerErrorParameterOutOfBound }
    public static var readerErrorRadioDisabled: Code { .readerErrorRadioDisabled }
    public static var readerErrorIneligible: Code { .readerErrorIneligible }
    public static var readerErrorAccessNotAccepted: Code { .readerErrorAccessNotAccepted }
    public static var readerTransceiveErrorTagConnectionLost: Code { .readerTransceiveErrorTagConnectionLost }
    public static var readerTransceiveErrorRetryExceeded: Code { .readerTransceiveErrorRetryExceeded }
    public static var readerTransceiveErrorTagResponseError: Code { .readerTransceiveErrorTagResponseError }
    public static var readerTransceiveErrorSessionInvalidated: Code { .readerTransceiveErrorSessionInvalidated }
    public static var readerTransceiveErrorTagNotConnected: Code { .readerTransceiveErrorTagNotConnected }
    public static var readerTransceiveErrorPacketTooLong: Code { .readerTransceiveErrorPacketTooLong }
    public static var readerSessionInvalidationErrorUserCanceled: Code { .readerSessionInvalidationErrorUserCanceled }
    public static var readerSessionInvalidationErrorSessionTimeout: Code {
        .readerSessionInvalidationErrorSessionTimeout
    }
    public static var readerSessionInvalidationErrorSessionTerminatedUnexpectedly: Code {
        .readerSessionInvalidationErrorSessionTerminatedUnexpectedly
    }
    public static var readerSessionInvalidationErrorSystemIsBusy: Code { .readerSessionInvalidationErrorSystemIsBusy }
    public static var readerSessionInvalidationErrorFirstNDEFTagRead: Code {
        .readerSessionInvalidationErrorFirstNDEFTagRead
    }
    public static var tagCommandConfigurationErrorInvalidParameters: Code {
        .tagCommandConfigurationErrorInvalidParameters
    }
    public static var ndefReaderSessionErrorTagNotWritable: Code { .ndefReaderSessionErrorTagNotWritable }
    public static var ndefReaderSessionErrorTagUpdateFailure: Code { .ndefReaderSessionErrorTagUpdateFailure }
    public static var ndefReaderSessionErrorTagSizeTooSmall: Code { .ndefReaderSessionErrorTagSizeTooSmall }
    public static var ndefReaderSessionErrorZeroLengthMessage: Code { .ndefReaderSessionErrorZeroLengthMessage }
}

extension NFCReaderError.Code {
    /// Lets `catch NFCReaderError.readerTransceiveErrorTagConnectionLost` match a thrown error: true when the error
    /// is an ``NFCReaderError`` with this code, or any error bridged into the `"NFCError"` domain with this raw value.
    public static func ~= (match: NFCReaderError.Code, error: any Error) -> Bool {
        if let e = error as? NFCReaderError { return e.code == match }
        let ns = error as NSError
        return ns.domain == NFCErrorDomain && ns.code == match.rawValue
    }
}
