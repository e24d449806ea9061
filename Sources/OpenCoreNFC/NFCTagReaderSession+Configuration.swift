extension NFCTagReaderSession {
    /// How a tag reader session discovers tags (iOS 26.4): the polling option, and which of the Info.plist's ISO 7816
    /// AIDs (`com.apple.developer.nfc.readersession.iso7816.select-identifiers`) and FeliCa system codes
    /// (`com.apple.developer.nfc.readersession.felica.systemcodes`) to use.
    ///
    /// Entries that are not in the Info.plist are dropped, later duplicates are dropped, and an empty array means
    /// every Info.plist entry. The AIDs apply with `.iso14443` and `.pace`, the system codes with `.iso18092`. The
    /// configuration takes effect at `begin()` and at each `restartPolling()`.
    public struct Configuration: Sendable, Hashable {
        /// RF polling types to perform tag discovery.
        public var pollingOption: NFCTagReaderSession.PollingOption
        /// ISO 7816 application identifiers (a subset of the Info.plist's) used during ISO 7816 tag discovery.
        public var iso7816SelectIdentifiers: [String]
        /// FeliCa system codes (a subset of the Info.plist's) used during FeliCa tag discovery.
        public var feliCaSystemCodes: [String]

        /// A configuration polling `pollingOption`; empty lists mean every Info.plist entry.
        public init(
            pollingOption: NFCTagReaderSession.PollingOption, iso7816SelectIdentifiers: [String] = [],
            feliCaSystemCodes: [String] = []
        ) {
            self.pollingOption = pollingOption
            self.iso7816SelectIdentifiers = iso7816SelectIdentifiers
            self.feliCaSystemCodes = feliCaSystemCodes
        }
    }
}
