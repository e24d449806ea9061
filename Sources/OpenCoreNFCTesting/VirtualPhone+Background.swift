internal import Foundation
public import OpenCoreNFC
public import OpenNFCSystem

/// The phone's own state and background tag reading (Apple, "Adding Support for Background Tag Reading"):
/// while no reader session runs, a tag put into the field is read by the phone itself, which shows a notification;
/// tapping it hands the app an `NSUserActivity` through ``onContinueUserActivity(_:)``.
///
/// ```swift
/// let phone = VirtualPhone(infoPlist: nil, entitlements: "App.entitlements")   // applinks:example.com
/// phone.onContinueUserActivity { activity in app.continueActivity(activity) }
/// try phone.put(message: uriRecord("https://example.com/room/3"))
/// #expect(phone.notifications.count == 1)
/// phone.tapNotification()
/// ```
extension VirtualPhone {
    /// A notification the system showed after a background tag read.
    public struct Notification: Sendable, Hashable, CustomStringConvertible {
        /// Who opens the notification's URI when it is tapped.
        public enum Destination: Sendable, Hashable {
            /// The app: a universal link on a domain of its `applinks:` associated domains.
            case app
            /// Safari: an http(s) URI no app claims.
            case browser
            /// A system app for a supported URL scheme (`Mail`, `Messages`, `Phone`, `FaceTime`, `Maps`, `Home`).
            case systemApp(String)
            /// Nothing: "No usable data found" (a malformed URI record).
            case nothing
        }

        public var title: String
        public var body: String
        /// The URI of the record used; nil for "No usable data found".
        public var uri: String?
        public var destination: Destination
        public var description: String { "\(title): \(body)" }
    }

    /// A URI the phone opened outside the app (Safari or a system app) after a notification was tapped.
    public struct OpenedURL: Sendable, Hashable {
        public var uri: String
        /// `Safari`, `Mail`, `Messages`, `Phone`, `FaceTime`, `Maps` or `Home`.
        public var app: String

        public init(uri: String, app: String) {
            self.uri = uri
            self.app = app
        }
    }

    // MARK: the phone's state

    /// The display is on (the phone is in use); background reading scans only then. Default on.
    public var screenOn: Bool {
        get { system.phoneState.screenOn }
        set { update { $0.screenOn = newValue } }
    }

    /// Whether the phone is locked. Default unlocked.
    public var isLocked: Bool { system.phoneState.locked }

    /// Locks the phone (the display stays on).
    public func lock() { update { $0.locked = true } }

    /// Unlocks the phone; a notification tapped while it was locked is then delivered.
    public func unlock() {
        update {
            $0.locked = false
            $0.unlockedSinceBoot = true
        }
        if let pending = background.takePendingTap() { deliver(pending) }
    }

    /// Restarts the phone: locked, and never unlocked since (no background reading until the first unlock).
    public func restart() {
        update {
            $0.locked = true
            $0.unlockedSinceBoot = false
        }
    }

    /// Wallet / Apple Pay is in use (no background reading meanwhile).
    public var walletInUse: Bool {
        get { system.phoneState.walletInUse }
        set { update { $0.walletInUse = newValue } }
    }

    /// The camera is in use (no background reading meanwhile).
    public var cameraInUse: Bool {
        get { system.phoneState.cameraInUse }
        set { update { $0.cameraInUse = newValue } }
    }

    /// Airplane mode: the NFC radio is off. Sessions begun meanwhile, and those running when it is turned on, end
    /// with 6 `readerErrorRadioDisabled`; no background reading.
    public var airplaneMode: Bool {
        get { system.phoneState.airplaneMode }
        set { update { $0.airplaneMode = newValue } }
    }

    /// Whether this user may use `NFCPaymentTagReaderSession` (default `.eligible`).
    public var paymentEligibility: PaymentEligibility {
        get { system.phoneState.payment }
        set { update { $0.payment = newValue } }
    }

    /// The phone is held to an external reader's field (a payment terminal): the running session ends with 203.
    public func holdNearExternalReader() {
        settle()
        system.externalReaderFieldDetected()
        settle()
    }

    private func update(_ change: @escaping @Sendable (inout PhoneState) -> Void) {
        settle()
        system.updatePhone(change)
        settle()
    }

    // MARK: notifications and the app

    /// The notifications the system showed, oldest first (they stay until tapped or forever: none is removed).
    public var notifications: [Notification] {
        settle()
        return system.notifications.map(Self.notification)
    }

    /// Every URI opened outside the app (Safari, system apps), in order.
    public var openedURLs: [OpenedURL] { background.opened }

    /// The app's `application(_:continue:restorationHandler:)` (or scene `continue`): called on the test's thread,
    /// inside ``run(_:)``, with the activity of each tapped notification that belongs to the app.
    public func onContinueUserActivity(_ handler: @escaping (NSUserActivity) -> Void) {
        background.setHandler(handler)
    }

    /// The user taps the newest notification: a locked phone asks to unlock first (delivery follows ``unlock()``);
    /// then the app is launched or brought to the foreground with the activity, or Safari / a system app opens the
    /// URI. Does nothing without notifications.
    public func tapNotification() {
        settle()
        guard let newest = system.notifications.last else { return }
        system.note(.user, "taps the notification “\(newest.body)”")
        if system.phoneState.locked {
            system.note(.notification, "Unlock to open")
            background.setPendingTap(newest)
            return
        }
        deliver(newest)
    }

    private func deliver(_ n: BackgroundNotification) {
        switch n.destination {
        case .nothing:
            break
        case .browser:
            background.open(OpenedURL(uri: n.uri ?? "", app: "Safari"))
            system.note(.user, "Safari opens \(n.uri ?? "")")
        case .systemApp(let name):
            background.open(OpenedURL(uri: n.uri ?? "", app: name))
            system.note(.user, "\(name) opens \(n.uri ?? "")")
        case .app:
            if !system.appInForeground { foregroundApp() }
            let activity = NSUserActivity.backgroundTagRead(uri: n.uri, messageBytes: n.message)
            system.note(.app, "continue userActivity \(activity.activityType) \(n.uri ?? "")")
            if let handler = background.handler { run { handler(activity) } }
            settle()
        }
    }

    static func notification(_ n: BackgroundNotification) -> Notification {
        let destination: Notification.Destination
        switch n.destination {
        case .app: destination = .app
        case .browser: destination = .browser
        case .systemApp(let name): destination = .systemApp(name)
        case .nothing: destination = .nothing
        }
        return Notification(title: n.title, body: n.body, uri: n.uri, destination: destination)
    }
}

/// What the virtual phone keeps for background reading beyond the system: the app's handler, a tap waiting for the
/// unlock, the URIs opened outside the app.
final class BackgroundState: @unchecked Sendable {
    private let lock = NSLock()
    private var _handler: ((NSUserActivity) -> Void)?
    private var pending: BackgroundNotification?
    private var _opened: [VirtualPhone.OpenedURL] = []

    var handler: ((NSUserActivity) -> Void)? { lock.withLock { _handler } }
    var opened: [VirtualPhone.OpenedURL] { lock.withLock { _opened } }
    func setHandler(_ h: @escaping (NSUserActivity) -> Void) { lock.withLock { _handler = h } }
    func setPendingTap(_ n: BackgroundNotification) { lock.withLock { pending = n } }
    func takePendingTap() -> BackgroundNotification? {
        lock.withLock {
            defer { pending = nil }
            return pending
        }
    }
    func open(_ url: VirtualPhone.OpenedURL) { lock.withLock { _opened.append(url) } }
}
