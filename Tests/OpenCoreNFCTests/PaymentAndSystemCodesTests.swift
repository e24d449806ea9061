import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// `NFCPaymentTagReaderSession` and its eligibility, and the codes the simulated iPhone raises for its own state:
/// 6 (airplane mode), 7 and 8 (payment eligibility), 203 (an external reader's field), the iOS 26.6 payment codes;
/// and the decision that 101 is not raised.
@Suite struct PaymentAndSystemCodesTests {
    static let visa: [UInt8] = [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10]
    static let loyalty: [UInt8] = [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05]

    func phone() -> VirtualPhone {
        VirtualPhone(
            configuration: AppConfiguration(
                readerSessionFormats: ["TAG"], iso7816SelectIdentifiers: ["A0000000031010", "F00102030405"]))
    }

    func card() -> Type4Tag { Fixtures.type4(applets: [Self.visa, Self.loyalty]) }

    func aids(_ tags: [NFCTag]) -> [String] {
        tags.compactMap { tag -> String? in
            if case .iso7816(let t) = tag { return t.initialSelectedAID }
            return nil
        }
    }

    @Test func thePaymentSessionSelectsPaymentAIDsWhichOtherSessionsSkip() {
        let phone = phone()
        phone.put(card())
        let app = TagSessionRecorder()
        let seen = Unchecked(Box<[String]>([]))
        app.onDetect = { _, tags in seen.value.value += aids(tags) }
        phone.run {
            #expect(NFCPaymentTagReaderSession.readingAvailable)
            NFCPaymentTagReaderSession(delegate: app).begin()
        }
        phone.settle()
        #expect(seen.value.value == ["A0000000031010"])
        // A plain tag session with the same Info.plist skips the payment AID: the loyalty applet is selected.
        let other = self.phone()
        other.put(card())
        let plain = TagSessionRecorder()
        plain.onDetect = { _, tags in seen.value.value += aids(tags) }
        other.run { NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: plain).begin() }
        other.settle()
        #expect(seen.value.value == ["A0000000031010", "F00102030405"])
    }

    @Test func paymentEligibilityGivesItsCodes() {
        let cases: [(PaymentEligibility, NFCReaderError.Code)] = [
            (.ineligible, .readerErrorIneligible), (.accessNotAccepted, .readerErrorAccessNotAccepted),
            (.locationAuthorizationDenied, .paymentTagReaderSessionErrorLocationAuthorizationDenied),
            (.locationServiceRestricted, .paymentTagReaderSessionErrorLocationServiceRestricted),
            (.onDeviceLocationUnavailable, .paymentTagReaderSessionErrorOnDeviceLocationUnavailable),
        ]
        for (eligibility, code) in cases {
            let phone = phone()
            phone.paymentEligibility = eligibility
            let app = TagSessionRecorder()
            phone.run {
                #expect(NFCPaymentTagReaderSession.readingAvailable == (eligibility != .ineligible))
                #expect(NFCTagReaderSession.readingAvailable, "other sessions are unaffected")
                NFCPaymentTagReaderSession(delegate: app).begin()
            }
            phone.settle()
            #expect(app.events == [.invalidated(code)])
            // A plain tag session still runs.
            let plain = TagSessionRecorder()
            phone.run { NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: plain).begin() }
            phone.settle()
            #expect(plain.events == [.becameActive])
        }
        #expect(
            [
                NFCReaderError.Code.paymentTagReaderSessionErrorLocationAuthorizationDenied,
                .paymentTagReaderSessionErrorLocationServiceRestricted,
                .paymentTagReaderSessionErrorOnDeviceLocationUnavailable,
            ].map(\.rawValue) == [500, 501, 502])
    }

    @Test func airplaneModeDisablesTheRadioWith6() {
        let phone = phone()
        let running = TagSessionRecorder()
        let waiting = NDEFMessageRecorder()
        phone.run {
            NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: running).begin()
            NFCNDEFReaderSession(delegate: waiting, queue: nil, invalidateAfterFirstRead: true).begin()
        }
        phone.settle()
        phone.airplaneMode = true
        #expect(running.events == [.becameActive, .invalidated(.readerErrorRadioDisabled)])
        #expect(waiting.events == [.invalidated(.readerErrorRadioDisabled)])
        let later = phone.readFirstNDEF()
        #expect(later.events == [.invalidated(.readerErrorRadioDisabled)])
        #expect(NFCReaderError(.readerErrorRadioDisabled).localizedDescription == "NFC radio is disabled")
        phone.airplaneMode = false
        let after = phone.readFirstNDEF()
        #expect(after.events == [.becameActive])
    }

    @Test func anExternalReaderFieldEndsTheRunningSessionWith203AndTheNextOneRuns() {
        let phone = phone()
        let first = NDEFMessageRecorder()
        let second = NDEFMessageRecorder()
        phone.run {
            NFCNDEFReaderSession(delegate: first, queue: nil, invalidateAfterFirstRead: true).begin()
            NFCNDEFReaderSession(delegate: second, queue: nil, invalidateAfterFirstRead: true).begin()
        }
        phone.settle()
        phone.holdNearExternalReader()
        #expect(first.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSystemIsBusy)])
        #expect(second.events == [.becameActive])
    }

    @Test func corruptedAnswersToACommandAre102NotRetriedInto101() throws {
        // 101 is raised by Core NFC only when an NFCTagCommandConfiguration's retries run out, and that class is
        // used only by the legacy ISO 15693 methods, which are not provided: a corrupted answer is 102.
        let phone = phone()
        phone.put(card())
        let app = TagSessionRecorder()
        let outcome = Unchecked(Box<[Int]>([]))
        app.onDetect = { session, tags in
            guard case .iso7816(let tagObject) = tags.first else { return }
            nonisolated(unsafe) let tag = tagObject
            session.connect(to: tags[0]) { _ in
                phone.system.synchronized {
                    phone.field.faultPlan = FaultPlan([.error(frame: 1, code: .transmission, tagProcesses: false)])
                }
                let apdu = NFCISO7816APDU(
                    instructionClass: 0, instructionCode: 0xCA, p1Parameter: 0, p2Parameter: 0, data: Data(),
                    expectedResponseLength: 256)
                tag.sendCommand(apdu: apdu) { _, _, _, error in
                    outcome.value.value.append((error as? NFCReaderError)?.code.rawValue ?? 0)
                }
            }
        }
        phone.run { NFCPaymentTagReaderSession(delegate: app).begin() }
        phone.settle()
        #expect(outcome.value.value == [102])
    }
}
