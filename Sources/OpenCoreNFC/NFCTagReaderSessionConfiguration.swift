public import Foundation

/// The Objective-C spelling of ``NFCTagReaderSession/Configuration`` (iOS 26.4), as Swift sees
/// `NFCTagReaderSessionConfiguration`: the same three settings, as a class (note the lower-case `c` of
/// `felicaSystemCodes` and the property name `polling`). ``NFCTagReaderSession/restartPolling(with:)`` takes it.
open class NFCTagReaderSessionConfiguration: NSObject, @unchecked Sendable {
    /// RF polling of the session; options combine.
    open var polling: NFCTagReaderSession.PollingOption
    /// Application identifiers (a subset of the Info.plist's) used during ISO 7816 tag discovery.
    open var iso7816SelectIdentifiers: [String]
    /// System codes (a subset of the Info.plist's) used during FeliCa tag discovery.
    open var felicaSystemCodes: [String]

    /// A configuration polling `pollingOption` with these subsets (empty: every Info.plist entry).
    public init(
        pollingOption: NFCTagReaderSession.PollingOption, iso7816SelectIdentifiers: [String],
        felicaSystemCodes: [String]
    ) {
        self.polling = pollingOption
        self.iso7816SelectIdentifiers = iso7816SelectIdentifiers
        self.felicaSystemCodes = felicaSystemCodes
        super.init()
    }

    /// The Swift configuration with the same settings.
    var swiftConfiguration: NFCTagReaderSession.Configuration {
        NFCTagReaderSession.Configuration(
            pollingOption: polling, iso7816SelectIdentifiers: iso7816SelectIdentifiers,
            feliCaSystemCodes: felicaSystemCodes)
    }
}

extension NFCTagReaderSession {
    /// The Objective-C spelling of ``restartPolling(configuration:)``: one polling round with `configuration`.
    public func restartPolling(with configuration: NFCTagReaderSessionConfiguration) {
        restartPolling(configuration: configuration.swiftConfiguration)
    }
}
