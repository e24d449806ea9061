import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// A VAS session delegate recording what it hears.
final class VASRecorder: NSObject, NFCVASReaderSessionDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [String] = []
    private var _responses: [[NFCVASResponse]] = []
    var events: [String] { lock.withLock { _events } }
    var responses: [[NFCVASResponse]] { lock.withLock { _responses } }
    var onResponses: ((NFCVASReaderSession, [NFCVASResponse]) -> Void)?

    func readerSessionDidBecomeActive(_ session: NFCVASReaderSession) { lock.withLock { _events.append("active") } }
    func readerSession(_ session: NFCVASReaderSession, didInvalidateWithError error: any Error) {
        let code = (error as? NFCReaderError)?.code.rawValue ?? -1
        lock.withLock { _events.append("invalidated(\(code))") }
    }
    func readerSession(_ session: NFCVASReaderSession, didReceive responses: [NFCVASResponse]) {
        lock.withLock {
            _events.append("responses(\(responses.count))")
            _responses.append(responses)
        }
        onResponses?(session, responses)
    }
}

/// `NFCVASReaderSession` against a virtual pass holder (`VASPassTag`), through the public API.
@Suite struct VASSessionTests {
    static let loyalty = "pass.com.example.loyalty"
    static let coffee = "pass.com.example.coffee"

    func holder(_ passes: [VASPassTag.Pass] = defaultPasses) throws -> VASPassTag {
        try VASPassTag(passes: passes)
    }

    static let defaultPasses = [
        VASPassTag.Pass(passTypeIdentifier: loyalty, vasData: Array("member-4711".utf8), mobileToken: [0xCA, 0xFE]),
        VASPassTag.Pass(passTypeIdentifier: coffee, vasData: [], status: 0x6287),
    ]

    func begin(
        _ phone: VirtualPhone, _ configurations: [NFCVASCommandConfiguration], app: VASRecorder = VASRecorder()
    ) -> (NFCVASReaderSession, VASRecorder) {
        let session = phone.run {
            NFCVASReaderSession(vasCommandConfigurations: configurations, delegate: app, queue: nil)
        }
        session.alertMessage = "Hold your iPhone near the reader."
        session.begin()
        phone.settle()
        return (session, app)
    }

    @Test func responsesArriveInCommandOrderWithStatusDataAndToken() throws {
        let phone = VirtualPhone()
        let configs = [
            NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: Self.coffee, url: nil),
            NFCVASCommandConfiguration(
                vasMode: .normal, passTypeIdentifier: Self.loyalty, url: URL(string: "https://example.com/join")),
            NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: "pass.com.example.absent", url: nil),
        ]
        let (_, app) = begin(phone, configs)
        #expect(phone.sheetText == "Hold your iPhone near the reader.")
        let pass = try holder()
        phone.put(pass)
        #expect(app.events == ["active", "responses(3)"])
        let r = try #require(app.responses.first)
        #expect(r.map(\.status) == [.dataNotActivated, .success, .dataNotFound])
        #expect(r[1].vasData == Data("member-4711".utf8))
        #expect(r[1].mobileToken == Data([0xCA, 0xFE]))
        #expect(r[0].vasData.isEmpty && r[2].mobileToken.isEmpty)
        // The pass saw the merchant IDs (SHA-256 of each pass type identifier) and the URL, in order.
        #expect(pass.requestedMerchantIDs.count == 3)
        #expect(pass.offeredURLs == ["https://example.com/join"])
    }

    @Test func theSameHolderIsReadAgainOnlyAfterLeavingTheField() throws {
        let phone = VirtualPhone()
        let (_, app) = begin(phone, [.init(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: nil)])
        let handle = phone.put(try holder())
        phone.advance(by: .seconds(5))
        #expect(app.events == ["active", "responses(1)"])
        phone.remove(handle)
        phone.put(try holder())
        #expect(app.events == ["active", "responses(1)", "responses(1)"])
    }

    @Test func urlOnlyModeAdvertisesTheURLAndReadsNoPass() throws {
        let phone = VirtualPhone()
        let url = URL(string: "https://example.com/signup")
        let (_, app) = begin(phone, [.init(vasMode: .urlOnly, passTypeIdentifier: Self.loyalty, url: url)])
        let pass = try holder()
        phone.put(pass)
        #expect(app.responses.first?.map(\.status) == [.dataNotFound])
        #expect(pass.offeredURLs == ["https://example.com/signup"])
    }

    @Test func cardsWithoutTheVASApplicationAreIgnored() throws {
        let phone = VirtualPhone()
        let (_, app) = begin(phone, [.init(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: nil)])
        phone.put(try Type2Tag.factory(.ntag213, uid: Fixtures.uidA), at: 0)
        phone.put(Fixtures.type4(applets: [[0xA0, 0, 0, 2, 0x47, 0x10, 0x01]]), at: 1)
        #expect(app.events == ["active"])
        phone.advance(by: .seconds(60))
        #expect(app.events == ["active", "invalidated(201)"])
    }

    @Test func gatingEntitlementAndInvalidConfigurations() {
        // No formats entitlement at all: 2.
        let bare = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: []))
        let (_, refused) = begin(bare, [.init(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: nil)])
        #expect(refused.events == ["invalidated(2)"])
        // No configuration, an empty pass type identifier, a URL over 64 characters: 300.
        let long = URL(string: "https://example.com/" + String(repeating: "a", count: 45))
        for configs in [
            [], [NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: "", url: nil)],
            [NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: long)],
        ] {
            let (_, app) = begin(VirtualPhone(), configs)
            #expect(app.events == ["invalidated(300)"])
        }
    }

    @Test func vasSessionsQueueInFIFOOrderWithTheOtherSessionsAndTimeOutAfter60s() throws {
        let phone = VirtualPhone()
        let ndef = phone.readFirstNDEF()
        let (_, app) = begin(phone, [.init(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: nil)])
        #expect(app.events.isEmpty)  // waiting for the reader
        phone.put(try holder())
        #expect(app.events.isEmpty)  // the NDEF session ignores the pass holder (no NDEF)
        phone.tapCancel()
        #expect(ndef.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorUserCanceled)])
        #expect(app.events == ["active", "responses(1)"])
        phone.advance(by: .seconds(60))
        #expect(app.events == ["active", "responses(1)", "invalidated(201)"])
    }

    @Test func backgroundAndCancelEndVASSessionsAsAnyOther() {
        let phone = VirtualPhone()
        let (_, first) = begin(phone, [.init(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: nil)])
        phone.tapCancel()
        #expect(first.events == ["active", "invalidated(200)"])
        let (_, second) = begin(phone, [.init(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: nil)])
        phone.backgroundApp()
        #expect(second.events == ["active", "invalidated(202)"])
    }

    @Test func aPassHolderFromATagFileAnswersAsGiven() throws {
        let text = """
            {"format": "opennfc-tag", "version": 1, "chip": "vas-pass", "uid": "08 56 41 53",
             "vas": {"passes": [{"passTypeIdentifier": "pass.com.example.loyalty", "vasData": "6D 31 55 6C",
                                 "mobileToken": "01 02 03"}]}}
            """
        let tag = try TagFile.decodeJSON(text)
        let again = try TagFile.decodeJSON(try TagFile.encodeJSON(tag))
        let phone = VirtualPhone()
        let (_, app) = begin(phone, [.init(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: nil)])
        phone.put(again)
        let r = try #require(app.responses.first?.first)
        #expect(r.status == .success)
        #expect(r.vasData == Data([0x6D, 0x31, 0x55, 0x6C]))
        #expect(r.mobileToken == Data([1, 2, 3]))
    }

    @Test func configurationAndResponseTypesAreApples() throws {
        let c = NFCVASCommandConfiguration(vasMode: .urlOnly, passTypeIdentifier: "p", url: nil)
        let copy = try #require(c.copy() as? NFCVASCommandConfiguration)
        c.mode = .normal
        #expect(copy.mode == .urlOnly && copy !== c)
        #expect(
            NFCVASCommandConfiguration.Mode.urlOnly.rawValue == 0
                && NFCVASCommandConfiguration.Mode.normal.rawValue == 1)
        let codes: [NFCVASResponse.ErrorCode] = [
            .success, .dataNotFound, .dataNotActivated, .wrongParameters, .wrongLCField, .userIntervention,
            .incorrectData, .unsupportedApplicationVersion,
        ]
        #expect(codes.map(\.rawValue) == [0x9000, 0x6A83, 0x6287, 0x6B00, 0x6700, 0x6984, 0x6A80, 0x6340])
    }
}
