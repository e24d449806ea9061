internal import OpenNFCNDEF
package import OpenNFCRF
internal import OpenNFCTags

/// A notification the system showed after reading a tag in the background.
package struct BackgroundNotification: Sendable, Hashable {
    /// Who opens the URI when the notification is tapped.
    package enum Destination: Sendable, Hashable {
        /// The app, whose associated domains (`applinks:`) claim the URI's host: a universal link.
        case app
        /// Safari: an http(s) URI no app claims.
        case browser
        /// A system app handling a supported URL scheme (Mail, Messages, Phone, FaceTime, Maps, Home).
        case systemApp(String)
        /// Nothing: the "No usable data found" notification of a malformed URI record.
        case nothing
    }

    package var title: String
    package var body: String
    /// The URI of the record that was used (nil for "No usable data found").
    package var uri: String?
    /// The whole NDEF message read from the tag, as stored.
    package var message: [UInt8]
    package var destination: Destination
    package var time: NFCInstant
}

/// Background tag reading on the simulated iPhone (Apple, "Adding Support for Background Tag Reading"): with the
/// display on, never before the first unlock, never while a reader session runs, while Wallet / Apple Pay or the
/// camera is in use, or in airplane mode, the phone reads each new NDEF tag of NFC Forum Types 1–5 that enters the
/// field (never MIFARE Classic, never writing), takes the first NFC Forum well-known `U` record (NFC Forum URI RTD
/// §3.2: prefix byte decoded) and shows a notification. A tag that stays in the field is read once; it must leave
/// and come back to be read again. Tags present when a session ends were the session's and are not read.
extension NFCSystem {
    /// Whether the phone would scan on its own right now.
    var backgroundReadingAllowed: Bool {
        guard supportsBackgroundReading, frontend != nil, configuration.profile == .iphone, arbiter.active == nil
        else { return false }
        let p = phone
        return p.screenOn && p.unlockedSinceBoot && !p.walletInUse && !p.cameraInUse && !p.airplaneMode
    }

    /// The notifications shown so far, oldest first.
    package var notifications: [BackgroundNotification] { perform { shownNotifications } }

    func phoneDidChange(from before: PhoneState) {
        if before.screenOn != phone.screenOn { log(.user, "turns the screen \(phone.screenOn ? "on" : "off")") }
        if before.locked != phone.locked { log(.user, phone.locked ? "locks the phone" : "unlocks the phone") }
        if phone.locked && !before.locked { runCard(cardEmulation.machine.appDidEnterBackground(now())) }
        if !phone.locked && before.locked && arbiter.appInForeground { cardEmulation.machine.appWillEnterForeground() }
        if before.cameraInUse != phone.cameraInUse {
            log(.user, phone.cameraInUse ? "opens the camera" : "closes the camera")
        }
        if before.walletInUse != phone.walletInUse { log(.user, phone.walletInUse ? "opens Wallet" : "closes Wallet") }
        backgroundScan()
    }

    /// The tags in the field now belong to the session that just ended: background reading leaves them alone.
    func forgetBackgroundTags() {
        if let presence { backgroundSeen = presence() }
    }

    /// Polls and reads every new tag, when the phone may scan on its own.
    func backgroundScan() {
        if let presence { backgroundSeen.formIntersection(presence()) }
        guard backgroundReadingAllowed, let frontend else { return }
        let targets: [RFTarget]
        do {
            targets = try frontend.poll([.nfcA, .nfcB, .nfcF, .nfcV])
        } catch {
            return
        }
        backgroundSeen.formIntersection(Set(targets.map(\.handle)))
        for target in targets where !backgroundSeen.contains(target.handle) {
            guard backgroundReadingAllowed else { return }
            backgroundSeen.insert(target.handle)
            backgroundRead(target, frontend: frontend)
        }
    }

    private func backgroundRead(_ target: RFTarget, frontend: any RFFrontend) {
        let bytes: [UInt8]
        do {
            let active = try frontend.activate(target)
            defer { frontend.deactivate() }
            let identity = try platform.identify(active, frontend: frontend)
            let decision = DeliveryPolicy.decide(identity.kind, .background, declarations)
            guard case .readNDEF = decision else {
                let why: String
                if case .nothing(let reason) = decision { why = reason } else { why = "not read" }
                log(.system, "background reading: tag \(target.handle): \(why)")
                return
            }
            guard let stored = try storedNDEF(identity, frontend: frontend) else {
                log(.system, "background reading: tag \(target.handle) holds no NDEF")
                return
            }
            bytes = stored
        } catch {
            log(.system, "background reading: tag \(target.handle) not read: \(error)")
            return
        }
        guard let notification = Self.notification(for: bytes, domains: configuration.appLinkDomains, at: now()) else {
            log(.system, "background reading: tag \(target.handle) holds no usable URI record: no notification")
            return
        }
        shownNotifications.append(notification)
        log(.system, "background reading: tag \(target.handle) read (\(bytes.count) bytes)")
        log(.notification, "\(notification.title): \(notification.body)")
    }

    /// The message an activated tag stores, read without writing (NDEF detection, then the read); nil when the tag
    /// has no NDEF mapping or is not NDEF formatted. Read-only NDEF sessions and background reading share it.
    func storedNDEF(_ identity: IdentifiedTag, frontend: any RFFrontend) throws(SystemError) -> [UInt8]? {
        guard let access = platform.ndefAccess(for: identity, frontend: frontend),
            try access.detect().status != .notSupported
        else { return nil }
        return try access.read()
    }

    /// The notification for a message read in the background, or nil when it shows none (no URI record, a URL
    /// scheme background reading does not support).
    static func notification(for bytes: [UInt8], domains: [String], at time: NFCInstant) -> BackgroundNotification? {
        guard let message = try? NDEFMessage(decoding: bytes, options: .lenient) else { return nil }
        guard let record = message.records.first(where: { $0.tnf == .wellKnown && Array($0.type) == [0x55] }) else {
            return nil
        }
        var repairs: [NDEFRepair] = []
        guard let uri = try? NDEFURIRecord(decoding: record, options: .strict, repairs: &repairs).uri,
            let colon = uri.firstIndex(of: ":"), colon != uri.startIndex
        else {
            return BackgroundNotification(
                title: "NFC tag detected", body: "No usable data found", uri: nil, message: bytes,
                destination: .nothing, time: time)
        }
        let scheme = uri[..<colon].lowercased()
        let destination: BackgroundNotification.Destination
        switch scheme {
        case "http", "https":
            let host = Self.host(of: uri)
            if host == "maps.apple.com" {
                destination = .systemApp("Maps")
            } else if let host, domains.contains(where: { Self.domain($0, matches: host) }) {
                destination = .app
            } else {
                destination = .browser
            }
        case "mailto": destination = .systemApp("Mail")
        case "sms": destination = .systemApp("Messages")
        case "tel": destination = .systemApp("Phone")
        case "facetime", "facetime-audio": destination = .systemApp("FaceTime")
        case "x-hm": destination = .systemApp("Home")
        default: return nil  // custom URL schemes are not supported (use universal links)
        }
        let target: String
        switch destination {
        case .app: target = "the app"
        case .browser: target = "Safari"
        case .systemApp(let name): target = name
        case .nothing: target = ""
        }
        let shown = Self.host(of: uri).map { "“\($0)”" } ?? uri
        return BackgroundNotification(
            title: "NFC Tag", body: "Open \(shown) in \(target)", uri: uri, message: bytes, destination: destination,
            time: time)
    }

    /// The host of an http(s) URI (RFC 3986 §3.2.2), lower-cased, without user info or port.
    static func host(of uri: String) -> String? {
        guard let start = uri.range(of: "://")?.upperBound else { return nil }
        var authority = uri[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
        return authority.isEmpty ? nil : authority.lowercased()
    }

    /// Whether an `applinks:` domain (Apple's associated-domains format: `example.com`, `*.example.com` for its
    /// subdomains, an optional `?mode=…` suffix) claims `host`.
    static func domain(_ entry: String, matches host: String) -> Bool {
        let d = (entry.split(separator: "?").first.map(String.init) ?? entry).lowercased()
        if d.hasPrefix("*.") { return host.hasSuffix(d.dropFirst(1)) }
        return host == d
    }
}
