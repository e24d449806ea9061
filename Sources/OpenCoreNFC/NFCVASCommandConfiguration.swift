public import Foundation

/// The configuration of one GET VAS DATA command a ``NFCVASReaderSession`` sends to a pass holder (Apple Wallet
/// Value Added Services).
open class NFCVASCommandConfiguration: NSObject, NSCopying, @unchecked Sendable {
    /// VAS protocol mode.
    open var mode: NFCVASCommandConfiguration.Mode
    /// Wallet pass type identifier of the pass; its SHA-256 is the merchant ID the command carries.
    open var passTypeIdentifier: String
    /// Merchant URL, at most 64 characters including the scheme; nil disables it.
    open var url: URL?

    /// A configuration for `mode`, the pass type `passTypeIdentifier` and an optional merchant `url`.
    public init(vasMode mode: NFCVASCommandConfiguration.Mode, passTypeIdentifier: String, url: URL?) {
        self.mode = mode
        self.passTypeIdentifier = passTypeIdentifier
        self.url = url
        super.init()
    }

    /// A new configuration with the same values.
    open func copy(with zone: NSZone? = nil) -> Any {
        NFCVASCommandConfiguration(vasMode: mode, passTypeIdentifier: passTypeIdentifier, url: url)
    }
}
