import OpenNFCSystem
import Testing

@testable import OpenCoreNFC

/// The code the remote field's transcript names for an invalidation (OpenNFCSystem's `readerError`, docs/FIELD.md)
/// is the code the app's delegate gets (`NFCReaderError(_:)`), with the same name, for every way a session ends.
@Suite struct InvalidationCodeTests {
    static let reasons: [InvalidationReason] = [
        .userCanceled, .invalidatedByApp, .sessionTimeout, .terminatedUnexpectedly, .systemBusy, .firstNDEFTagRead,
        .securityViolation("no entitlement"), .unsupportedFeature("no reader"), .invalidConfiguration("no bits"),
        .radioDisabled, .paymentIneligible(.eligible), .paymentIneligible(.ineligible),
        .paymentIneligible(.accessNotAccepted), .paymentIneligible(.locationAuthorizationDenied),
        .paymentIneligible(.locationServiceRestricted), .paymentIneligible(.onDeviceLocationUnavailable),
    ]

    @Test(arguments: reasons)
    func theTranscriptNamesTheCodeTheAppGets(_ reason: InvalidationReason) {
        let error = NFCReaderError(reason)
        #expect(reason.readerError.code == error.code.rawValue)
        #expect(reason.readerError.name == "\(error.code)")
    }
}
