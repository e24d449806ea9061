public import Foundation

/// An iOS 11 ISO 15693 custom command (`A0`–`DF`, ISO/IEC 15693-3 §10.4.1) for
/// ``NFCISO15693Tag/sendCustomCommand(commandConfiguration:completionHandler:)`` (Apple's
/// `NFCISO15693CustomCommandConfiguration`). Its iOS 13 replacement is
/// ``NFCISO15693Tag/customCommand(requestFlags:customCommandCode:customRequestParameters:completionHandler:)``.
open class NFCISO15693CustomCommandConfiguration: NFCTagCommandConfiguration, @unchecked Sendable {
    /// The IC manufacturer code, 0x00–0xFF.
    open var manufacturerCode: Int
    /// The custom command code, 0xA0–0xDF.
    open var customCommandCode: Int
    /// The command's parameters (empty when none were given).
    open var requestParameters: Data

    /// A command with no retries and no retry interval.
    public init(manufacturerCode: Int, customCommandCode: Int, requestParameters: Data?) {
        self.manufacturerCode = manufacturerCode
        self.customCommandCode = customCommandCode
        self.requestParameters = requestParameters ?? Data()
        super.init()
    }

    /// A command retried up to `maximumRetries` times, `retryInterval` seconds apart.
    public convenience init(
        manufacturerCode: Int, customCommandCode: Int, requestParameters: Data?, maximumRetries: Int,
        retryInterval: TimeInterval
    ) {
        self.init(
            manufacturerCode: manufacturerCode, customCommandCode: customCommandCode,
            requestParameters: requestParameters)
        self.maximumRetries = maximumRetries
        self.retryInterval = retryInterval
    }

    /// A new configuration with the same values.
    open override func copy(with zone: NSZone? = nil) -> Any {
        NFCISO15693CustomCommandConfiguration(
            manufacturerCode: manufacturerCode, customCommandCode: customCommandCode,
            requestParameters: requestParameters, maximumRetries: maximumRetries, retryInterval: retryInterval)
    }
}
