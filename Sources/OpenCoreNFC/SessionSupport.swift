internal import Foundation
internal import OpenNFCDevices
internal import OpenNFCSystem

/// Carries a value into a `@Sendable` closure when the value is only ever used on the session's queue, as Core
/// NFC's completion handlers and delegates are (they are not `Sendable` in Apple's SDK either).
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Hands a value made on the session's queue to the task awaiting it through a continuation.
///
/// `CheckedContinuation.resume` already orders the maker's writes before the awaiting task's reads, but
/// ThreadSanitizer on Linux does not see that order and reports a race on the value's fields
/// (`scripts/sanitize-repro/continuation-handoff.swift`; docs/RELIABILITY.md, "Sanitizers"). Passing the value
/// through a lock makes the order one it sees, at the cost of an uncontended lock per call.
final class Handoff<T>: @unchecked Sendable {
    private let lock = NSLock()
    private let stored: T
    init(_ value: T) {
        stored = value
        lock.withLock {}  // a release after the value's writes, which the reader's acquire below follows
    }
    /// The value, for the task the continuation resumes.
    var value: T { lock.withLock { stored } }
}

extension NFCReaderError {
    /// The code for each way a session ends (Apple's Core NFC documentation; docs/PARITY.md §14).
    init(_ reason: InvalidationReason) {
        switch reason {
        case .userCanceled, .invalidatedByApp: self.init(.readerSessionInvalidationErrorUserCanceled)
        case .sessionTimeout: self.init(.readerSessionInvalidationErrorSessionTimeout)
        case .terminatedUnexpectedly: self.init(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly)
        case .systemBusy: self.init(.readerSessionInvalidationErrorSystemIsBusy)
        case .firstNDEFTagRead: self.init(.readerSessionInvalidationErrorFirstNDEFTagRead)
        case .securityViolation: self.init(.readerErrorSecurityViolation)
        case .unsupportedFeature: self.init(.readerErrorUnsupportedFeature)
        case .invalidConfiguration: self.init(.tagCommandConfigurationErrorInvalidParameters)
        case .radioDisabled: self.init(.readerErrorRadioDisabled)
        case .paymentIneligible(let why):
            switch why {
            case .eligible, .ineligible: self.init(.readerErrorIneligible)
            case .accessNotAccepted: self.init(.readerErrorAccessNotAccepted)
            case .locationAuthorizationDenied: self.init(.paymentTagReaderSessionErrorLocationAuthorizationDenied)
            case .locationServiceRestricted: self.init(.paymentTagReaderSessionErrorLocationServiceRestricted)
            case .onDeviceLocationUnavailable: self.init(.paymentTagReaderSessionErrorOnDeviceLocationUnavailable)
            }
        }
    }

    /// The code for each operation failure (one exhaustive switch, no `default:`).
    init(_ e: SystemError) {
        let code: Code
        switch e.code {
        case .unsupportedFeature: code = .readerErrorUnsupportedFeature
        case .securityViolation: code = .readerErrorSecurityViolation
        case .invalidParameter: code = .readerErrorInvalidParameter
        case .invalidParameterLength: code = .readerErrorInvalidParameterLength
        case .parameterOutOfBound: code = .readerErrorParameterOutOfBound
        case .tagConnectionLost: code = .readerTransceiveErrorTagConnectionLost
        case .retryExceeded: code = .readerTransceiveErrorRetryExceeded
        case .tagResponseError: code = .readerTransceiveErrorTagResponseError
        case .sessionInvalidated: code = .readerTransceiveErrorSessionInvalidated
        case .tagNotConnected: code = .readerTransceiveErrorTagNotConnected
        case .packetTooLong: code = .readerTransceiveErrorPacketTooLong
        case .tagNotWritable: code = .ndefReaderSessionErrorTagNotWritable
        case .tagUpdateFailure: code = .ndefReaderSessionErrorTagUpdateFailure
        case .tagSizeTooSmall: code = .ndefReaderSessionErrorTagSizeTooSmall
        case .zeroLengthMessage: code = .ndefReaderSessionErrorZeroLengthMessage
        }
        var userInfo: [String: Any] = [:]
        if e.unexpectedLength { userInfo[NFCTagResponseUnexpectedLengthErrorKey] = true }
        switch e.tagStatus {
        case .iso15693(let status)?: userInfo[NFCISO15693TagResponseErrorKey] = Int(status)
        case .felica?:
            // Core NFC has no userInfo key for FeliCa status flags: its commands return statusFlag1 and
            // statusFlag2 as values, so nothing is added here.
            break
        case nil: break
        }
        self.init(code, userInfo: userInfo)
    }
}

/// The system a new session belongs to: the one bound to the current task (testing product), else the process
/// default built from the environment.
func resolveSystem() -> NFCSystem { NFCSystem.current ?? NFCSystem.processDefault }
