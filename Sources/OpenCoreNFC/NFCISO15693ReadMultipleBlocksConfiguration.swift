public import Foundation

/// An iOS 11 read of a range of blocks for ``NFCISO15693Tag/readMultipleBlock(readConfiguration:completionHandler:)``
/// (Apple's `NFCISO15693ReadMultipleBlocksConfiguration`): on iOS 11 the range was read with Read Multiple Blocks
/// (`23`, ISO/IEC 15693-3 §10.4.4) `chunkSize` blocks at a time. Its iOS 13 replacement is
/// ``NFCISO15693Tag/readMultipleBlocks(requestFlags:blockRange:completionHandler:)``.
open class NFCISO15693ReadMultipleBlocksConfiguration: NFCTagCommandConfiguration, @unchecked Sendable {
    /// The blocks to read: the start 0x00–0xFF, a non-zero length.
    open var range: NSRange
    /// Blocks per Read Multiple Blocks command.
    open var chunkSize: Int

    /// A read with no retries and no retry interval.
    public init(range: NSRange, chunkSize: Int) {
        self.range = range
        self.chunkSize = chunkSize
        super.init()
    }

    /// A read retried up to `maximumRetries` times, `retryInterval` seconds apart.
    public convenience init(range: NSRange, chunkSize: Int, maximumRetries: Int, retryInterval: TimeInterval) {
        self.init(range: range, chunkSize: chunkSize)
        self.maximumRetries = maximumRetries
        self.retryInterval = retryInterval
    }

    /// A new configuration with the same values.
    open override func copy(with zone: NSZone? = nil) -> Any {
        NFCISO15693ReadMultipleBlocksConfiguration(
            range: range, chunkSize: chunkSize, maximumRetries: maximumRetries, retryInterval: retryInterval)
    }
}
