public import Foundation

/// Retry settings of a tag command (Apple's `NFCTagCommandConfiguration`, iOS 11): the base of the iOS 11 ISO 15693
/// configuration classes, ``NFCISO15693CustomCommandConfiguration`` and ``NFCISO15693ReadMultipleBlocksConfiguration``.
///
/// Only the iOS 11 calls ``NFCISO15693Tag/sendCustomCommand(commandConfiguration:completionHandler:)`` and
/// ``NFCISO15693Tag/readMultipleBlock(readConfiguration:completionHandler:)`` take a configuration, and a current iOS
/// refuses both on every tag a session delivers (docs/DIFFERENCES.md "iOS 11 ISO 15693 calls"), so the values are
/// kept and copied but never drive a retry.
open class NFCTagCommandConfiguration: NSObject, NSCopying, @unchecked Sendable {
    /// How many times a command is retried: 0…256, default 0.
    open var maximumRetries: Int
    /// The delay in seconds before a retry, default 0.
    open var retryInterval: TimeInterval

    /// No retries, no interval.
    public override init() {
        maximumRetries = 0
        retryInterval = 0
        super.init()
    }

    /// A new configuration with the same values.
    open func copy(with zone: NSZone? = nil) -> Any {
        let c = NFCTagCommandConfiguration()
        c.maximumRetries = maximumRetries
        c.retryInterval = retryInterval
        return c
    }
}
