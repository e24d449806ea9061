extension NFCVASCommandConfiguration {
    /// VAS protocol mode (ObjC `NFCVASMode`, raw values as Apple's).
    public enum Mode: Int, Sendable, Hashable {
        /// Reserved in Apple's header: the terminal only advertises its URL; no pass data is read.
        case urlOnly = 0
        /// Full VAS protocol.
        case normal = 1

        @available(*, deprecated, renamed: "urlOnly")
        public static var VASModeURLOnly: NFCVASCommandConfiguration.Mode { .urlOnly }
        @available(*, deprecated, renamed: "normal")
        public static var VASModeNormal: NFCVASCommandConfiguration.Mode { .normal }
    }
}

/// The iOS 13 name of ``NFCVASCommandConfiguration/Mode``.
@available(*, deprecated, renamed: "NFCVASCommandConfiguration.Mode")
public typealias VASMode = NFCVASCommandConfiguration.Mode
