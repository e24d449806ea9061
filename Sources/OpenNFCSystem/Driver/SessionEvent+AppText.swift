internal import OpenNFCBytes

/// What the app receives, in Core NFC's words, for the field page's transcript (docs/FIELD.md "The transcript"):
/// the delegate callback and what it carries, and for an invalidation the `NFCReaderError` code the app sees.
extension SessionEvent {
    package var appText: String {
        switch self {
        case .becameActive: return "readerSessionDidBecomeActive"
        case .detected(let tags):
            return "didDetect \(tags.count) tag\(tags.count == 1 ? "" : "s"): "
                + tags.map { "\($0.className) \(Hex.encode($0.identifier))" }.joined(separator: ", ")
        case .message(let tag, let bytes):
            return "didDetectNDEFs: a \(bytes.count)-byte message from \(Hex.encode(tag.identifier))"
        case .invalidated(let reason):
            let (code, name) = reason.readerError
            return "didInvalidateWithError: \(code) \(name)"
        case .vasResponses(let results):
            return "didReceive \(results.count) VAS response\(results.count == 1 ? "" : "s")"
        }
    }
}

extension DeliveredTag {
    /// The Core NFC class the app gets.
    var className: String {
        switch kind {
        case .miFare: return "NFCMiFareTag"
        case .iso7816: return "NFCISO7816Tag"
        case .iso15693: return "NFCISO15693Tag"
        case .ndefOnly: return "NFCNDEFTag"
        case .feliCa: return "NFCFeliCaTag"
        }
    }
}

extension InvalidationReason {
    /// The `NFCReaderError` code and name a session ends with (Apple's Core NFC documentation; docs/PARITY.md §14);
    /// OpenCoreNFC's `NFCReaderError(_:)` gives the same code (OpenCoreNFCTests checks that they agree).
    package var readerError: (code: Int, name: String) {
        switch self {
        case .userCanceled, .invalidatedByApp: return (200, "readerSessionInvalidationErrorUserCanceled")
        case .sessionTimeout: return (201, "readerSessionInvalidationErrorSessionTimeout")
        case .terminatedUnexpectedly: return (202, "readerSessionInvalidationErrorSessionTerminatedUnexpectedly")
        case .systemBusy: return (203, "readerSessionInvalidationErrorSystemIsBusy")
        case .firstNDEFTagRead: return (204, "readerSessionInvalidationErrorFirstNDEFTagRead")
        case .securityViolation: return (2, "readerErrorSecurityViolation")
        case .unsupportedFeature: return (1, "readerErrorUnsupportedFeature")
        case .invalidConfiguration: return (300, "tagCommandConfigurationErrorInvalidParameters")
        case .radioDisabled: return (6, "readerErrorRadioDisabled")
        case .paymentIneligible(let why):
            switch why {
            case .eligible, .ineligible: return (7, "readerErrorIneligible")
            case .accessNotAccepted: return (8, "readerErrorAccessNotAccepted")
            case .locationAuthorizationDenied: return (500, "paymentTagReaderSessionErrorLocationAuthorizationDenied")
            case .locationServiceRestricted: return (501, "paymentTagReaderSessionErrorLocationServiceRestricted")
            case .onDeviceLocationUnavailable:
                return (502, "paymentTagReaderSessionErrorOnDeviceLocationUnavailable")
            }
        }
    }
}
