#if !canImport(Darwin)
    public import Foundation

    /// The activity type of a web page (or universal link) an app continues: what background tag reading delivers
    /// (Foundation's `NSUserActivityTypeBrowsingWeb`; absent from swift-corelibs-foundation, so provided here).
    public let NSUserActivityTypeBrowsingWeb: String = "NSUserActivityTypeBrowsingWeb"

    /// The part of Foundation's `NSUserActivity` that apps use to continue a background tag read (swift-corelibs-
    /// foundation has no `NSUserActivity`; on Apple platforms Foundation's class is used and only
    /// ``ndefMessagePayload`` comes from here). What Handoff, Spotlight and Siri add to it is not provided.
    open class NSUserActivity: NSObject, @unchecked Sendable {
        /// The kind of activity, e.g. ``NSUserActivityTypeBrowsingWeb``.
        public let activityType: String
        /// A user-visible title.
        open var title: String?
        /// The web page (universal link) to continue, for ``NSUserActivityTypeBrowsingWeb``.
        open var webpageURL: URL?
        /// App-specific state.
        open var userInfo: [AnyHashable: Any]?
        /// The page that referred to ``webpageURL``.
        open var referrerURL: URL?
        /// The NDEF message a background tag read delivered (``ndefMessagePayload``).
        var tagMessage: NFCNDEFMessage?

        /// An activity of `activityType`.
        public init(activityType: String) {
            self.activityType = activityType
            super.init()
        }
    }
#endif
