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
///
/// Like Apple's, it is a bridged stored `NSError` (docs/DIFFERENCES.md, "Errors"):
/// - ``init(_nsError:)`` wraps an `NSError` and ``_nsError`` gives it back (the same object);
/// - `error as? NFCReaderError`, `catch let e as NFCReaderError` and `nsError as? NFCReaderError` succeed for an
///   `NSError` in the `NFCError` domain whose code is one of ``Code``'s (nil for any other domain or code);
/// - `nfcError as NSError` and `nfcError as AnyObject` give an `NSError` in the `NFCError` domain;
/// - `"\(error)"` prints what iOS prints for the `NSError`:
///   `Error Domain=NFCError Code=200 "Session invalidated by user" UserInfo={NSLocalizedDescription=Session invalidated by user}`.
public struct NFCReaderError: _BridgedStoredNSError, CustomNSError, Hashable, Error, CustomStringConvertible {
    /// Every code of `NFCReaderError` with Apple's raw value (Core NFC §11.2).
    public enum Code: Int, Sendable, Hashable, Equatable, _ErrorCodeProtocol {
        /// The error type of this code (the bridged-error plumbing, as Apple's imported `Code`).
        public typealias _ErrorType = NFCReaderError

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
        // iOS 26.6. Apple publishes no raw values for these three: 500–502 are this project's choice (a new block,
        // as each error family has its own hundred; docs/DIFFERENCES.md).
        case paymentTagReaderSessionErrorLocationAuthorizationDenied = 500
        case paymentTagReaderSessionErrorLocationServiceRestricted = 501
        case paymentTagReaderSessionErrorOnDeviceLocationUnavailable = 502

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
            // Our wording: Apple's strings for the 26.6 payment codes are not known.
            case .paymentTagReaderSessionErrorLocationAuthorizationDenied: return "Location authorization denied"
            case .paymentTagReaderSessionErrorLocationServiceRestricted: return "Location service restricted"
            case .paymentTagReaderSessionErrorOnDeviceLocationUnavailable: return "On-device location unavailable"
            }
        }
    }

    /// The error's code.
    public let code: Code
    // userInfo values are `Any`, as on Darwin; they are only ever read, never mutated after creation.
    nonisolated(unsafe) private let extraUserInfo: [String: Any]
    /// The `NSError` this error was bridged from, kept so ``_nsError`` returns the same object.
    private let bridged: NSError?

    /// Creates an error with the given code; `userInfo` is merged over the localized description.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.extraUserInfo = userInfo
        self.bridged = nil
    }

    /// Wraps an `NSError`, as Apple's bridged error does; ``_nsError`` returns it unchanged, and ``errorCode`` and
    /// ``userInfo`` are its own. Apple's `Code` is an imported C enum that holds any raw value, ours holds only the
    /// codes Core NFC defines: for any other raw value ``code`` reads ``Code/readerErrorUnsupportedFeature``
    /// (docs/DIFFERENCES.md). The casts (`as? NFCReaderError`) never produce such an error; they give nil.
    public init(_nsError error: NSError) {
        self.code = Code(rawValue: error.code) ?? .readerErrorUnsupportedFeature
        self.extraUserInfo = error.userInfo
        self.bridged = error
    }

    /// The `NSError` form: the one this error was created from by ``init(_nsError:)``, otherwise a new `NSError` in
    /// the `NFCError` domain with ``errorCode`` and ``errorUserInfo``.
    public var _nsError: NSError {
        bridged ?? NSError(domain: NFCErrorDomain, code: errorCode, userInfo: errorUserInfo)
    }

    /// `"NFCError"`.
    public static var errorDomain: String { NFCErrorDomain }

    /// `"NFCError"` (the bridged-error plumbing's name for ``errorDomain``).
    public static var _nsErrorDomain: String { NFCErrorDomain }

    /// The raw value of ``code`` (of the wrapped `NSError`'s code when bridged from one).
    public var errorCode: Int { bridged?.code ?? code.rawValue }

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

    /// What iOS prints for the error's `NSError` (`-[NSError description]`): domain, code, the localized
    /// description in quotes, then the userInfo as `{key=value, …}`. Darwin lists the keys in hash order; here
    /// `NSLocalizedDescription` comes first and the other keys follow sorted, so the text is stable
    /// (docs/DIFFERENCES.md). Numbers and `true` print as NSNumber does (`15`, `1`).
    public var description: String {
        let info = errorUserInfo
        var entries: [String] = []
        if let text = info[NSLocalizedDescriptionKey] { entries.append("\(NSLocalizedDescriptionKey)=\(text)") }
        for key in info.keys.sorted() where key != NSLocalizedDescriptionKey {
            entries.append("\(key)=\(Self.describe(info[key]!))")
        }
        let head = "Error Domain=\(NFCErrorDomain) Code=\(errorCode) \"\(localizedDescription)\""
        return entries.isEmpty ? head : head + " UserInfo={" + entries.joined(separator: ", ") + "}"
    }

    /// A userInfo value as NSDictionary's description prints it: `Bool` as 0/1 (an NSNumber), the rest as itself.
    private static func describe(_ value: Any) -> String {
        if let flag = value as? Bool { return flag ? "1" : "0" }
        return "\(value)"
    }

    /// Equal when code and userInfo are (values compared as `AnyHashable`, else as `NSObject`s).
    public static func == (a: NFCReaderError, b: NFCReaderError) -> Bool {
        let x = a.errorUserInfo
        let y = b.errorUserInfo
        guard a.errorCode == b.errorCode, x.count == y.count else { return false }
        return x.allSatisfy { key, value in y[key].map { sameValue(value, $0) } ?? false }
    }

    private static func sameValue(_ a: Any, _ b: Any) -> Bool {
        if let p = a as? AnyHashable, let q = b as? AnyHashable { return p == q }
        if let p = a as? NSObject, let q = b as? NSObject { return p.isEqual(q) }
        return false
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
    public static var paymentTagReaderSessionErrorLocationAuthorizationDenied: Code {
        .paymentTagReaderSessionErrorLocationAuthorizationDenied
    }
    public static var paymentTagReaderSessionErrorLocationServiceRestricted: Code {
        .paymentTagReaderSessionErrorLocationServiceRestricted
    }
    public static var paymentTagReaderSessionErrorOnDeviceLocationUnavailable: Code {
        .paymentTagReaderSessionErrorOnDeviceLocationUnavailable
    }
}

extension NFCReaderError.Code {
    /// Lets `catch NFCReaderError.readerTransceiveErrorTagConnectionLost` match a thrown error: true when the error
    /// is an ``NFCReaderError`` with this code, or any error bridged into the `"NFCError"` domain with this raw value.
    public static func ~= (match: NFCReaderError.Code, error: any Error) -> Bool {
        if let e = error as? NFCReaderError { return e.errorCode == match.rawValue }
        let ns = error as NSError
        return ns.domain == NFCErrorDomain && ns.code == match.rawValue
    }
}

/// The bridge between `NSError` and ``NFCReaderError`` that Darwin's runtime gets from Objective-C: with it,
/// `nsError as? NFCReaderError` (and `catch let e as NFCReaderError` for a thrown `NSError`) work, and
/// `nfcError as AnyObject` is an `NSError`.
extension NFCReaderError: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSError { _nsError }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout NFCReaderError?) {
        result = NFCReaderError(_nsError: source)
    }

    /// Succeeds for the `NFCError` domain and a code Core NFC defines; fails (nil) otherwise.
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout NFCReaderError?) -> Bool {
        guard source.domain == NFCErrorDomain, Code(rawValue: source.code) != nil else {
            result = nil
            return false
        }
        result = NFCReaderError(_nsError: source)
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> NFCReaderError {
        guard let source else { return NFCReaderError(.readerErrorUnsupportedFeature) }
        return NFCReaderError(_nsError: source)
    }
}
