extension NFCTagReaderSession {
    /// Which technologies the session polls (ObjC `NFCPollingOption`, raw values as Apple's; Apple's Core NFC documentation).
    public struct PollingOption: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// ISO 14443 Type A and B: `NFCISO7816Tag` and `NFCMiFareTag`.
        public static let iso14443 = PollingOption(rawValue: 0x1)
        /// ISO 15693: `NFCISO15693Tag`.
        public static let iso15693 = PollingOption(rawValue: 0x2)
        /// ISO 18092 (FeliCa): `NFCFeliCaTag`.
        public static let iso18092 = PollingOption(rawValue: 0x4)
        /// PACE-capable ISO 7816 tags only; exclusive of the other options.
        public static let pace = PollingOption(rawValue: 0x8)
    }
}
