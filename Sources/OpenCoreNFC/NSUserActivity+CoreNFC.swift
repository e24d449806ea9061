#if canImport(Darwin)
    public import Foundation
    internal import ObjectiveC
#else
    internal import Foundation
#endif

extension NSUserActivity {
    /// The NDEF message of the tag whose background read launched the app (iOS 12). For an activity that did not
    /// come from background tag reading it is a message of one record with type name format `.empty`.
    public var ndefMessagePayload: NFCNDEFMessage {
        tagPayload
            ?? NFCNDEFMessage(records: [
                NFCNDEFPayload(format: .empty, type: Data(), identifier: Data(), payload: Data())
            ])
    }

    /// A browsing-web activity for `url` carrying the whole message a background read found (the testing product's
    /// virtual phone delivers it to the app).
    package static func backgroundTagRead(uri: String?, messageBytes: [UInt8]) -> NSUserActivity {
        let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
        activity.webpageURL = uri.flatMap { URL(string: $0) }
        activity.tagPayload = NFCNDEFMessage(sessionBytes: messageBytes)
        return activity
    }

    #if canImport(Darwin)
        nonisolated(unsafe) private static let payloadKey = UnsafeRawPointer(
            UnsafeMutablePointer<UInt8>.allocate(capacity: 1))
        private var tagPayload: NFCNDEFMessage? {
            get { objc_getAssociatedObject(self, Self.payloadKey) as? NFCNDEFMessage }
            set { objc_setAssociatedObject(self, Self.payloadKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
        }
    #else
        private var tagPayload: NFCNDEFMessage? {
            get { tagMessage }
            set { tagMessage = newValue }
        }
    #endif
}
