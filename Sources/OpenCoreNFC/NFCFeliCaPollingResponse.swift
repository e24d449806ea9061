public import Foundation

/// What `polling(systemCode:requestCode:timeSlot:resultHandler:)` returns (the iOS 14 overlay; docs/PARITY.md §9.3).
public struct NFCFeliCaPollingResponse {
    /// PMm, the 8-byte manufacture parameter.
    public var manufactureParameter: Data
    /// The 2-byte request data; nil when the Polling asked for none or the card sent none.
    public var requestData: Data?

    public init(manufactureParameter: Data, requestData: Data?) {
        self.manufactureParameter = manufactureParameter
        self.requestData = requestData
    }
}
