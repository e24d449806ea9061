/// What a FeliCa Polling asks the card to append to its answer (Apple's Core NFC documentation; JIS X 6319-4 §8.5.1
/// request code; docs/PARITY.md §9.1).
public enum NFCFeliCaPollingRequestCode: Int, Sendable, Hashable {
    /// No request data.
    case noRequest = 0
    /// The system code of the answering system.
    case systemCode = 1
    /// The communication performance (the bit rates the card supports).
    case communicationPerformance = 2

    @available(*, deprecated, renamed: "noRequest")
    public static var PollingRequestCodeNoRequest: NFCFeliCaPollingRequestCode { .noRequest }
    @available(*, deprecated, renamed: "systemCode")
    public static var PollingRequestCodeSystemCode: NFCFeliCaPollingRequestCode { .systemCode }
    @available(*, deprecated, renamed: "communicationPerformance")
    public static var PollingRequestCodeCommunicationPerformance: NFCFeliCaPollingRequestCode {
        .communicationPerformance
    }
}

/// The iOS 13 name of ``NFCFeliCaPollingRequestCode``.
@available(*, deprecated, renamed: "NFCFeliCaPollingRequestCode")
public typealias PollingRequestCode = NFCFeliCaPollingRequestCode
