import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// The tag reader session: ISO 7816 delivery rules, MIFARE, several tags, restartPolling, commands.
@Suite struct TagSessionTests {
    static let aidA: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]
    static let aidB: [UInt8] = [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05]

    func configuration(_ aids: [String]) -> AppConfiguration {
        AppConfiguration(readerSessionFormats: ["TAG"], iso7816SelectIdentifiers: aids)
    }

    func begin(
        _ phone: VirtualPhone, _ app: TagSessionRecorder, _ option: NFCTagReaderSession.PollingOption = .iso14443
    )
        -> NFCTagReaderSession
    {
        let session = phone.run {
            NFCTagReaderSession(configuration: .init(pollingOption: option), delegate: app, queue: nil)
        }
        session.begin()
        phone.settle()
        return session
    }

    @Test func iso7816TagArrivesWithTheFirstDeclaredAIDThatSelects() {
        // Declared: an absent AID first, then B, then A; the card hosts A and B. B wins by declaration order.
        let (phone, _) = Fixtures.phone(configuration(["D0D1D2D3D4D5", "F00102030405", "A0000002471001"]))
        phone.put(Fixtures.type4(applets: [Self.aidA, Self.aidB]))
        let app = TagSessionRecorder()
        let seen = Unchecked(Box<[String]>([]))
        app.onDetect = { _, tags in
            for case .iso7816(let t) in tags {
                seen.value.value.append(t.initialSelectedAID)
                seen.value.value.append(hex(t.identifier))
                seen.value.value.append(
                    "\(t.type == .iso7816Compatible) \(t.asNFCISO7816Tag() != nil) \(t.asNFCMiFareTag() == nil)")
            }
        }
        _ = begin(phone, app)
        #expect(app.events == [.becameActive, .detectedTags(1)])
        #expect(seen.value.value == ["F00102030405", "02112233", "true true true"])
    }

    @Test func cardWithoutADeclaredAIDIsNotDeliveredAndTheSessionTimesOut() {
        let (phone, _) = Fixtures.phone(configuration(["D0D1D2D3D4D5"]))
        phone.put(Fixtures.type4(applets: [Self.aidA]))
        let app = TagSessionRecorder()
        _ = begin(phone, app)
        phone.advance(by: .seconds(60))
        #expect(app.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout)])
    }

    @Test func noValidAIDInInfoPlistEndsTheSessionWith2() {
        let (phone, _) = Fixtures.phone(configuration(["not-hex", "A0"]))
        phone.put(Fixtures.type4(applets: [Self.aidA]))
        let app = TagSessionRecorder()
        _ = begin(phone, app)
        #expect(app.events == [.becameActive, .invalidated(.readerErrorSecurityViolation)])
    }

    @Test func desfireWithoutDeclaredAIDIsAMiFareTagAndWithTheNDEFAIDAnISO7816Tag() throws {
        for (aids, expected) in [([String](), "miFare desfire"), (["D2760000850101"], "iso7816 D2760000850101")] {
            let (phone, _) = Fixtures.phone(configuration(aids))
            phone.put(
                try DESFireEV1Tag.ndefFormatted(uid: [0x04, 1, 2, 3, 4, 5, 6], holding: Fixtures.uriMessage("d")))
            let app = TagSessionRecorder()
            let seen = Unchecked(Box<[String]>([]))
            app.onDetect = { _, tags in
                for tag in tags {
                    switch tag {
                    case .miFare(let m):
                        seen.value.value.append("miFare \(m.mifareFamily == .desfire ? "desfire" : "?")")
                    case .iso7816(let t): seen.value.value.append("iso7816 \(t.initialSelectedAID)")
                    default: seen.value.value.append("other")
                    }
                }
            }
            _ = begin(phone, app)
            #expect(seen.value.value == [expected])
        }
    }

    @Test func apduExchangeAndTheDeclaredAIDRuleForLaterSelects() throws {
        let (phone, _) = Fixtures.phone(configuration(["F00102030405"]))
        phone.put(Fixtures.type4(applets: [Self.aidA, Self.aidB]))
        let app = TagSessionRecorder()
        let log = Unchecked(Box<[String]>([]))
        app.onDetect = { session, tags in
            guard case .iso7816(let tagObject) = tags[0] else { return }
            nonisolated(unsafe) let tag = tagObject
            session.connect(to: tags[0]) { _ in
                let get = NFCISO7816APDU(
                    instructionClass: 0x80, instructionCode: 0xCA, p1Parameter: 0, p2Parameter: 0, data: Data(),
                    expectedResponseLength: 256)
                tag.sendCommand(apdu: get) { data, sw1, sw2, error in
                    log.value.value.append("\([UInt8](data)) \(String(format: "%02X%02X", sw1, sw2)) \(error == nil)")
                    let select = NFCISO7816APDU(
                        instructionClass: 0, instructionCode: 0xA4, p1Parameter: 4, p2Parameter: 0,
                        data: Data(Self.aidA), expectedResponseLength: 256)
                    tag.sendCommand(apdu: select) { result in
                        if case .failure(let e) = result {
                            log.value.value.append("undeclared select: \((e as? NFCReaderError)?.code.rawValue ?? 0)")
                        }
                        #expect(session.connectedTag != nil)
                        session.invalidate(errorMessage: "Card read.")
                    }
                }
            }
        }
        _ = begin(phone, app)
        #expect(log.value.value == ["[240] 9000 true", "undeclared select: 2"])
        #expect(app.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
        let sheetLines = phone.transcript.filter { $0.kind == .sheet }.map(\.text)
        #expect(sheetLines.suffix(2) == ["error: Card read.", "closed"])
    }

    @Test func severalTagsAreAllReportedAndRestartPollingAfterRemovingExtras() {
        let (phone, platform) = Fixtures.phone(configuration([]))
        let a = phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: []), at: 0)
        phone.put(Fixtures.ntag(Fixtures.uidB, on: platform, message: []), at: 1)
        let app = TagSessionRecorder()
        let firstTags = Unchecked(Box<[NFCTag]>([]))
        app.onDetect = { session, tags in
            if tags.count > 1 {
                firstTags.value.value = tags
                session.alertMessage = "More than 1 tag is detected. Please remove all tags and try again."
            }
        }
        let session = begin(phone, app)
        #expect(app.events == [.becameActive, .detectedTags(2)])
        #expect(phone.sheetText == "More than 1 tag is detected. Please remove all tags and try again.")
        phone.remove(a)
        // Apple's sample restarts polling 500 ms later.
        phone.advance(by: .milliseconds(500))
        session.restartPolling()
        phone.settle()
        #expect(app.events == [.becameActive, .detectedTags(2), .detectedTags(1)])
        // Tags of the earlier round are stale.
        #expect(firstTags.value.value.allSatisfy { !$0.isAvailable })
        let code = Unchecked(Box(0))
        session.connect(to: firstTags.value.value[1]) { e in
            code.value.value = (e as? NFCReaderError)?.code.rawValue ?? 0
        }
        phone.settle()
        #expect(code.value.value == 100)
    }

    @Test func miFareCommandsAndTagRemovalMidCommand() {
        let (phone, platform) = Fixtures.phone(configuration([]))
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: []))
        let app = TagSessionRecorder()
        let tagBox = Unchecked(Box<(any NFCMiFareTag)?>(nil))
        app.onDetect = { session, tags in
            guard case .miFare(let t) = tags[0] else { return }
            tagBox.value.value = t
            session.connect(to: tags[0]) { _ in }
        }
        _ = begin(phone, app)
        let tag = tagBox.value.value!
        #expect(tag.mifareFamily == .ultralight)
        #expect([UInt8](tag.identifier) == Fixtures.uidA)
        let out = Unchecked(Box<[String]>([]))
        tag.sendMiFareCommand(commandPacket: Data([0x30, 0x00])) { data, error in
            out.value.value.append("\(data.count) \(error == nil)")  // READ page 0: 16 bytes
        }
        phone.settle()
        phone.inject(FaultPlan([.removeAfter(frame: 1)]))
        tag.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) { data, error in
            out.value.value.append("\(data.count)")
        }
        tag.sendMiFareCommand(commandPacket: Data([0x30, 0x08])) { _, error in
            out.value.value.append("\((error as? NFCReaderError)?.code.rawValue ?? 0)")
        }
        let apdu = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0xB0, p1Parameter: 0, p2Parameter: 0, data: Data(),
            expectedResponseLength: 16)
        tag.sendMiFareISO7816Command(apdu) { _, _, _, error in
            out.value.value.append("iso on ultralight: \((error as? NFCReaderError)?.code.rawValue ?? 0)")
        }
        phone.settle()
        #expect(out.value.value == ["16 true", "16", "100", "iso on ultralight: 1"])
        #expect(!tag.isAvailable)
    }

    @Test func pollingOptionValidation() {
        let app = TagSessionRecorder()
        let (phone, _) = Fixtures.phone(configuration([]))
        phone.run {
            #expect(LegacyTagSession.make([], app) == nil)
            #expect(LegacyTagSession.make(.init(rawValue: 0x10), app) == nil)
            #expect(LegacyTagSession.make([.iso14443, .iso15693, .iso18092], app) != nil)
        }
        #expect(NFCTagReaderSession.PollingOption.iso14443.rawValue == 1)
        #expect(NFCTagReaderSession.PollingOption.iso15693.rawValue == 2)
        #expect(NFCTagReaderSession.PollingOption.iso18092.rawValue == 4)
        #expect(NFCTagReaderSession.PollingOption.pace.rawValue == 8)
    }
}
