import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Background tag reading on the virtual phone (Apple, "Adding Support for Background Tag Reading"), through
/// `VirtualPhone` and the public `NSUserActivity` / `ndefMessagePayload` API.
@Suite struct BackgroundReadingTests {
    static func phone(domains: [String] = ["applinks:museum.example.com"]) -> VirtualPhone {
        var c = AppConfiguration()
        c.associatedDomains = domains
        return VirtualPhone(configuration: c)
    }

    static func uri(_ s: String) -> NFCNDEFPayload { NFCNDEFPayload.wellKnownTypeURIPayload(string: s)! }
    static func text(_ s: String) -> NFCNDEFPayload {
        NFCNDEFPayload.wellKnownTypeTextPayload(string: s, locale: Locale(identifier: "en"))!
    }

    /// The app's `continue userActivity` entry point, recording what it received.
    final class App: @unchecked Sendable {
        private let lock = NSLock()
        private var _activities: [NSUserActivity] = []
        var activities: [NSUserActivity] { lock.withLock { _activities } }
        func attach(to phone: VirtualPhone) {
            phone.onContinueUserActivity { [self] activity in lock.withLock { _activities.append(activity) } }
        }
    }

    @Test func aUniversalLinkNotifiesAndTappingContinuesTheAppWithTheWholeMessage() throws {
        let phone = Self.phone()
        let app = App()
        app.attach(to: phone)
        // A text record first: the first *URI* record decides, and the whole message is delivered.
        try phone.put(NFCNDEFMessage(records: [Self.text("Room 3"), Self.uri("https://museum.example.com/room/3")]))
        #expect(phone.notifications.map(\.description) == ["NFC Tag: Open “museum.example.com” in the app"])
        #expect(phone.notifications.first?.destination == .app)
        #expect(app.activities.isEmpty, "nothing reaches the app before the tap")
        phone.tapNotification()
        let activity = try #require(app.activities.first)
        #expect(activity.activityType == NSUserActivityTypeBrowsingWeb)
        #expect(activity.webpageURL == URL(string: "https://museum.example.com/room/3"))
        let message = activity.ndefMessagePayload
        #expect(message.records.count == 2)
        #expect(message.records[0].wellKnownTypeTextPayload().0 == "Room 3")
        #expect(message.records[1].wellKnownTypeURIPayload() == URL(string: "https://museum.example.com/room/3"))
    }

    @Test func theFirstURIRecordWinsWithItsPrefixDecoded() throws {
        let phone = Self.phone(domains: [])
        // Prefix 0x02 is "https://www." (NFC Forum URI RTD table 3).
        let first: [UInt8] = [0x91, 0x01, 0x0C, 0x55, 0x02] + Array("example.com".utf8)
        let second: [UInt8] = [0x51, 0x01, 0x0A, 0x55, 0x04] + Array("other.org".utf8)
        phone.put(try Type2Tag.factory(.ntag215, uid: [4, 1, 1, 1, 1, 1, 1], holding: first + second))
        #expect(phone.notifications.map(\.uri) == ["https://www.example.com"])
        #expect(phone.notifications.first?.destination == .browser)
    }

    @Test func aURINoAppClaimsOpensInSafariAndDomainsMatchAsAssociatedDomainsDo() throws {
        let phone = Self.phone(domains: ["applinks:*.shop.example", "applinks:museum.example.com?mode=developer"])
        for (n, u) in [
            "https://museum.example.com/a", "https://www.shop.example/b", "https://shop.example/c",
            "https://elsewhere.example/d",
        ].enumerated() {
            let h = try phone.put(NFCNDEFMessage(records: [Self.uri(u)]), uid: [4, 2, 2, 2, 2, 2, UInt8(n)])
            phone.remove(h)
        }
        #expect(phone.notifications.map(\.destination) == [.app, .app, .browser, .browser])
        phone.tapNotification()
        #expect(phone.openedURLs == [VirtualPhone.OpenedURL(uri: "https://elsewhere.example/d", app: "Safari")])
    }

    @Test func supportedURLSchemesOpenSystemAppsAndCustomSchemesShowNothing() throws {
        let phone = Self.phone(domains: [])
        let uris = [
            "mailto:user@example.com", "sms:+14085551212", "tel:+14085551212", "facetime://user@example.com",
            "facetime-audio://user@example.com", "http://maps.apple.com/?address=Apple%20Park", "X-HM://12345",
            "myapp://open/3",
        ]
        for (n, u) in uris.enumerated() {
            let h = try phone.put(NFCNDEFMessage(records: [Self.uri(u)]), uid: [4, 3, 3, 3, 3, 3, UInt8(n)])
            phone.remove(h)
        }
        #expect(
            phone.notifications.map(\.destination) == [
                .systemApp("Mail"), .systemApp("Messages"), .systemApp("Phone"), .systemApp("FaceTime"),
                .systemApp("FaceTime"), .systemApp("Maps"), .systemApp("Home"),
            ])
        phone.tapNotification()
        #expect(phone.openedURLs.map(\.app) == ["Home"])
    }

    @Test func aMalformedURIGivesTheNoUsableDataNotification() throws {
        let phone = Self.phone()
        let app = App()
        app.attach(to: phone)
        // The URI written without its prefix byte: "h" (0x68) is a reserved identifier code.
        let raw = Array("https://museum.example.com/1".utf8)
        try phone.put(message: [0xD1, 0x01, UInt8(raw.count), 0x55] + raw)
        #expect(phone.notifications.map(\.description) == ["NFC tag detected: No usable data found"])
        phone.tapNotification()
        #expect(app.activities.isEmpty && phone.openedURLs.isEmpty)
        // A tag without any URI record shows nothing.
        try phone.put(NFCNDEFMessage(records: [Self.text("only text")]), uid: [4, 9, 9, 9, 9, 9, 9], at: 1)
        #expect(phone.notifications.count == 1)
    }

    @Test func theNotificationIsShownEvenWithTheAppInTheForegroundAndOncePerNewTag() throws {
        let phone = Self.phone()
        let message = NFCNDEFMessage(records: [Self.uri("https://museum.example.com/room/1")])
        let h = try phone.put(message)
        phone.advance(by: .seconds(30))
        #expect(phone.notifications.count == 1, "a tag that stays is read once")
        phone.remove(h)
        try phone.put(message)
        #expect(phone.notifications.count == 2, "back in the field: a new read")
    }

    @Test func thePhoneScansOnlyWhileInUseUnlockedOnceAndNotBusy() throws {
        let message = NFCNDEFMessage(records: [Self.uri("https://museum.example.com/x")])
        // Screen off: nothing; turning it on reads the tag in the field.
        let dark = Self.phone()
        dark.screenOn = false
        try dark.put(message)
        #expect(dark.notifications.isEmpty)
        dark.screenOn = true
        #expect(dark.notifications.count == 1)
        // Never unlocked since the restart: nothing until the first unlock.
        let booted = Self.phone()
        booted.restart()
        try booted.put(message)
        #expect(booted.notifications.isEmpty)
        booted.unlock()
        #expect(booted.notifications.count == 1)
        // Wallet, the camera, airplane mode: nothing while in use.
        for set in [
            { (p: VirtualPhone) in p.walletInUse = true }, { p in p.cameraInUse = true },
            { p in p.airplaneMode = true },
        ] {
            let busy = Self.phone()
            set(busy)
            try busy.put(message)
            #expect(busy.notifications.isEmpty)
        }
        // A phone without background reading (iPhone X and earlier).
        let old = VirtualPhone(backgroundTagReading: false)
        try old.put(message)
        #expect(old.notifications.isEmpty)
    }

    @Test func aReaderSessionTakesTheTagAndTheTagsItLeavesAreNotReadAgain() throws {
        let phone = Self.phone()
        let app = phone.readFirstNDEF()
        let message = NFCNDEFMessage(records: [Self.uri("https://museum.example.com/session")])
        let h = try phone.put(message)
        #expect(app.messages.count == 1)
        #expect(phone.notifications.isEmpty, "no background reading while a session runs")
        phone.advance(by: .seconds(5))
        #expect(phone.notifications.isEmpty, "the tag the session read stays the session's")
        phone.remove(h)
        try phone.put(message)
        #expect(phone.notifications.count == 1)
    }

    @Test func aLockedPhoneShowsTheNotificationAndAsksToUnlockBeforeDelivering() throws {
        let phone = Self.phone()
        let app = App()
        app.attach(to: phone)
        phone.lock()
        try phone.put(NFCNDEFMessage(records: [Self.uri("https://museum.example.com/locked")]))
        #expect(phone.notifications.count == 1)
        phone.tapNotification()
        #expect(app.activities.isEmpty)
        #expect(phone.transcriptText([.notification]).hasSuffix("notification: Unlock to open"))
        phone.unlock()
        #expect(app.activities.map(\.webpageURL) == [URL(string: "https://museum.example.com/locked")])
    }

    @Test func tappingLaunchesABackgroundedApp() throws {
        let phone = Self.phone()
        let app = App()
        app.attach(to: phone)
        phone.backgroundApp()
        try phone.put(NFCNDEFMessage(records: [Self.uri("https://museum.example.com/later")]))
        phone.tapNotification()
        #expect(phone.system.appInForeground)
        #expect(app.activities.count == 1)
        // Back in the foreground, the app can start a session again.
        let recorder = phone.readFirstNDEF()
        #expect(
            recorder.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
    }

    @Test func backgroundReadingNeverWritesAndReadsType4Tags() throws {
        let phone = VirtualPhone(recordsFrames: true)
        let message: [UInt8] = [0xD1, 0x01, 0x0B, 0x55, 0x04] + Array("t4.example".utf8)
        let card = try Type4Tag.factory(uid: [0x04, 5, 5, 5, 5, 5, 5], holding: message)
        let before = card.ndefFile
        phone.put(card)
        #expect(phone.notifications.map(\.uri) == ["https://t4.example"])
        #expect(card.ndefFile == before)
        let sent = phone.transcript.filter { $0.kind == .rf && $0.text.hasPrefix("→") }.map(\.text)
        #expect(!sent.isEmpty)
        #expect(!sent.contains { $0.hasPrefix("→ 00 D6") || $0.hasPrefix("→ A2") }, "no UPDATE BINARY, no WRITE")
    }

    @Test func type1TagsAreReadToo() throws {
        let phone = Self.phone(domains: [])
        let message: [UInt8] = [0xD1, 0x01, 0x0B, 0x55, 0x04] + Array("t1.example".utf8)
        phone.put(try Type1Tag.factory(.topaz512, uid: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77], holding: message))
        #expect(phone.notifications.map(\.uri) == ["https://t1.example"])
    }

    @Test func mifareClassicIsNeverRead() throws {
        let phone = VirtualPhone(platform: ClassicPlatform())
        phone.put(
            try Type2Tag.factory(
                .ntag215, uid: [4, 7, 7, 7, 7, 7, 7], holding: [0xD1, 0x01, 0x05, 0x55, 0x04] + Array("a.io".utf8)))
        #expect(phone.notifications.isEmpty)
        #expect(phone.transcriptText([.system]).contains("MIFARE Classic, never read"))
    }

    @Test func anActivityNotFromATagHoldsOneEmptyRecord() {
        let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
        activity.webpageURL = URL(string: "https://example.com")
        let message = activity.ndefMessagePayload
        #expect(message.records.count == 1)
        #expect(message.records.first?.typeNameFormat == .empty)
    }
}

/// Identifies every tag as MIFARE Classic, whose NDEF (MAD) background reading must never try.
private struct ClassicPlatform: TagPlatform {
    func identify(_ target: RFTarget, frontend: any RFFrontend) throws(SystemError) -> IdentifiedTag {
        IdentifiedTag(target: target, kind: .mifareClassic)
    }
    func ndefAccess(for tag: IdentifiedTag, frontend: any RFFrontend) -> (any NDEFAccess)? {
        NFCSystem.standardPlatform.ndefAccess(
            for: IdentifiedTag(target: tag.target, kind: .type2(.ntag215)), frontend: frontend)
    }
}
