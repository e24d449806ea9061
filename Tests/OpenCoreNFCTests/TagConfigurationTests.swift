import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// iOS 26.4's `NFCTagReaderSession.Configuration` and PACE polling, through the public API on the virtual phone.
@Suite struct TagConfigurationTests {
    static let aidA: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]
    static let aidB: [UInt8] = [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05]
    static let plist = ["A0000002471001", "F00102030405"]

    func phone(_ aids: [String] = plist, formats: [String] = ["TAG"]) -> VirtualPhone {
        Fixtures.phone(AppConfiguration(readerSessionFormats: formats, iso7816SelectIdentifiers: aids)).0
    }

    /// The `initialSelectedAID` of every ISO 7816 tag each detection delivered, in order.
    final class AIDLog: @unchecked Sendable {
        private let lock = NSLock()
        private var _rounds: [[String]] = []
        var rounds: [[String]] { lock.withLock { _rounds } }
        func record(_ tags: [NFCTag]) {
            var round: [String] = []
            for tag in tags {
                switch tag {
                case .iso7816(let t): round.append("\(t.initialSelectedAID) pace=\(t.supportsPACE)")
                case .miFare(let m): round.append("miFare \(m.mifareFamily.rawValue)")
                default: round.append("other")
                }
            }
            lock.withLock { _rounds.append(round) }
        }
    }

    func begin(
        _ phone: VirtualPhone, _ configuration: NFCTagReaderSession.Configuration, log: AIDLog? = nil
    ) -> (NFCTagReaderSession, TagSessionRecorder) {
        let app = TagSessionRecorder()
        app.onDetect = { _, tags in log?.record(tags) }
        let session = phone.run { NFCTagReaderSession(configuration: configuration, delegate: app, queue: nil) }
        session.begin()
        phone.settle()
        return (session, app)
    }

    @Test func configurationPicksASubsetOfThePlistInItsOwnOrderDroppingUnknownAndDuplicateEntries() {
        // The card hosts both applets. The plist order would pick A; the configuration asks for B first (in lower
        // case), an AID the plist lacks, then A, then B again: B wins, spelt as in the plist.
        let phone = phone()
        phone.put(Fixtures.type4(applets: [Self.aidA, Self.aidB]))
        let log = AIDLog()
        let config = NFCTagReaderSession.Configuration(
            pollingOption: .iso14443,
            iso7816SelectIdentifiers: ["f00102030405", "D0D1D2D3D4D5", "A0000002471001", "F00102030405"])
        let (_, app) = begin(phone, config, log: log)
        #expect(app.events == [.becameActive, .detectedTags(1)])
        #expect(log.rounds == [["F00102030405 pace=false"]])
    }

    @Test func emptyListsMeanEveryPlistEntryAndUnknownOnlyEntriesDeliverNoCard() {
        let phone = phone()
        phone.put(Fixtures.type4(applets: [Self.aidB]))
        let log = AIDLog()
        // Empty: every plist entry, in plist order (A is absent from the card, B selects).
        _ = begin(phone, .init(pollingOption: .iso14443), log: log)
        #expect(log.rounds == [["F00102030405 pace=false"]])

        // Only an entry the plist lacks: no AID is tried, the card is no tag, the session runs to its timeout (no 2:
        // the plist itself is valid).
        let other = self.phone()
        other.put(Fixtures.type4(applets: [Self.aidB]))
        let (_, app) = begin(other, .init(pollingOption: .iso14443, iso7816SelectIdentifiers: ["D0D1D2D3D4D5"]))
        other.advance(by: .seconds(60))
        #expect(app.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout)])
    }

    @Test func restartPollingWithAConfigurationLastsOneRoundOnly() {
        let phone = phone()
        phone.put(Fixtures.type4(applets: [Self.aidA, Self.aidB]))
        let log = AIDLog()
        let (session, app) = begin(
            phone, .init(pollingOption: .iso14443, iso7816SelectIdentifiers: ["A0000002471001"]), log: log)
        session.restartPolling(
            configuration: .init(pollingOption: .iso14443, iso7816SelectIdentifiers: ["F00102030405"]))
        phone.settle()
        session.restartPolling()
        phone.settle()
        #expect(app.events == [.becameActive, .detectedTags(1), .detectedTags(1), .detectedTags(1)])
        #expect(
            log.rounds == [["A0000002471001 pace=false"], ["F00102030405 pace=false"], ["A0000002471001 pace=false"]])
        #expect(phone.transcriptText([.system]).contains("(this round only)"))
    }

    @Test func theObjectiveCSpellingRestartsTheSameWay() {
        let phone = phone()
        phone.put(Fixtures.type4(applets: [Self.aidA, Self.aidB]))
        let log = AIDLog()
        let (session, app) = begin(phone, .init(pollingOption: .iso14443), log: log)
        let objc = NFCTagReaderSessionConfiguration(
            pollingOption: .iso14443, iso7816SelectIdentifiers: ["F00102030405"], felicaSystemCodes: [])
        #expect(objc.polling == .iso14443 && objc.felicaSystemCodes.isEmpty)
        session.restartPolling(with: objc)
        phone.settle()
        #expect(log.rounds == [["A0000002471001 pace=false"], ["F00102030405 pace=false"]])
        #expect(app.events == [.becameActive, .detectedTags(1), .detectedTags(1)], "the delegate is held weakly")
    }

    @Test func restartPollingWithAConfigurationChangesTheTechnologiesForThatRound() throws {
        // A session polling ISO 15693 only sees no NFC-A tag; a restart with ISO 14443 finds the NTAG once, and a
        // plain restart afterwards polls ISO 15693 again.
        let phone = phone()
        phone.put(try Type2Tag.factory(.ntag213, uid: Fixtures.uidA))
        let log = AIDLog()
        let (session, app) = begin(phone, .init(pollingOption: .iso15693), log: log)
        #expect(app.events == [.becameActive])
        session.restartPolling(configuration: .init(pollingOption: .iso14443))
        phone.settle()
        #expect(log.rounds == [["miFare 2"]])
        session.restartPolling()
        phone.settle()
        #expect(app.events == [.becameActive, .detectedTags(1)])
    }

    @Test func restartPollingWithAConfigurationDoesNothingOnAnInvalidatedSession() {
        let phone = phone()
        let (session, app) = begin(phone, .init(pollingOption: .iso14443))
        session.invalidate()
        phone.settle()
        phone.put(Fixtures.type4(applets: [Self.aidA]))
        session.restartPolling(configuration: .init(pollingOption: .iso14443))
        phone.settle()
        #expect(app.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorUserCanceled)])
    }

    @Test func anEmptyOrUnknownPollingOptionEndsTheSessionWith300() {
        for option in [NFCTagReaderSession.PollingOption(), .init(rawValue: 0x10)] {
            let (_, app) = begin(phone(), .init(pollingOption: option))
            #expect(app.events == [.invalidated(.tagCommandConfigurationErrorInvalidParameters)])
        }
        let phone = phone()
        let (session, app) = begin(phone, .init(pollingOption: .iso14443))
        session.restartPolling(configuration: .init(pollingOption: []))
        phone.settle()
        #expect(app.events == [.becameActive, .invalidated(.tagCommandConfigurationErrorInvalidParameters)])
    }

    @Test func deprecatedInitializerStillWorksAndAgreesWithTheConfiguration() {
        let phone = phone()
        phone.put(Fixtures.type4(applets: [Self.aidB]))
        let app = TagSessionRecorder()
        let log = AIDLog()
        app.onDetect = { _, tags in log.record(tags) }
        phone.run { LegacyTagSession.make(.iso14443, app)!.begin() }
        phone.settle()
        #expect(log.rounds == [["F00102030405 pace=false"]])
    }

    // MARK: PACE

    func paceCard(uid: [UInt8] = [0x08, 0x11, 0x22, 0x33], applets: [[UInt8]] = []) throws -> Type4Tag {
        var c = Type4Configuration()
        c.supportsPACE = true
        c.hostsNDEFApplication = false
        let tag = try Type4Tag(
            uid: uid, configuration: c,
            applets: applets.map { aid in
                ISO7816ClosureApplet(aid: aid) { _ in ISO7816Response(data: [aid[0]], status: .success) }
            })
        return tag
    }

    @Test func paceDeliversOnlyCardsThatAdvertisePACEWithoutAnAIDSelect() throws {
        // The plist declares no AID at all: PACE polling needs none. A plain Type 4 card and an NTAG are not
        // delivered; the PACE card is, with initialSelectedAID "" and supportsPACE.
        let phone = phone([], formats: ["TAG", "PACE"])
        phone.put(Fixtures.type4(uid: [0x08, 9, 9, 9], applets: [Self.aidA]), at: 0)
        phone.put(try Type2Tag.factory(.ntag213, uid: Fixtures.uidA), at: 1)
        phone.put(try paceCard(), at: 2)
        let log = AIDLog()
        let (_, app) = begin(phone, .init(pollingOption: .pace), log: log)
        #expect(app.events == [.becameActive, .detectedTags(1)])
        #expect(log.rounds == [[" pace=true"]])
    }

    @Test func paceTakesPrecedenceOverTheOtherOptions() throws {
        // .pace with .iso14443 and .iso15693: still PACE only (the NTAG is not delivered).
        let phone = phone([], formats: ["TAG", "PACE"])
        phone.put(try Type2Tag.factory(.ntag213, uid: Fixtures.uidA), at: 0)
        phone.put(try paceCard(), at: 1)
        let log = AIDLog()
        let (_, app) = begin(phone, .init(pollingOption: [.pace, .iso14443, .iso15693]), log: log)
        #expect(app.events == [.becameActive, .detectedTags(1)])
        #expect(log.rounds == [[" pace=true"]])
    }

    @Test func paceNeedsThePACEEntitlement() {
        let (_, app) = begin(phone([], formats: ["TAG"]), .init(pollingOption: .pace))
        #expect(app.events == [.invalidated(.readerErrorSecurityViolation)])
    }

    @Test func supportsPACEIsReportedForCardsDeliveredByAnAIDInAnISO14443Session() throws {
        let phone = phone()
        phone.put(try paceCard(applets: [Self.aidA]), at: 0)
        phone.put(Fixtures.type4(uid: [0x08, 9, 9, 9], applets: [Self.aidA]), at: 1)
        let log = AIDLog()
        _ = begin(phone, .init(pollingOption: .iso14443), log: log)
        #expect(log.rounds == [["A0000002471001 pace=true", "A0000002471001 pace=false"]])
    }

    @Test func aPACECardDeclaredInATagFileRoundTrips() throws {
        let text = try TagFile.encodeJSON(try paceCard(uid: [0x04, 1, 2, 3, 4, 5, 6]))
        #expect(text.contains("\"pace\""))
        let back = try TagFile.decodeJSON(text)
        let phone = phone([], formats: ["TAG", "PACE"])
        phone.put(back)
        let log = AIDLog()
        _ = begin(phone, .init(pollingOption: .pace), log: log)
        #expect(log.rounds == [[" pace=true"]])
    }
}
