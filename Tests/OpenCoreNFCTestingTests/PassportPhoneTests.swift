import Dispatch
import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTags
import Testing

/// A passport app written as iOS apps read eMRTDs (ICAO Doc 9303 over Core NFC): the eMRTD AID `A0000002471001` in
/// the Info.plist's `com.apple.developer.nfc.readersession.iso7816.select-identifiers`, a tag reader session polling
/// `.iso14443` (or `.pace` alone for a PACE-only card), `.iso7816(tag)` delivered, and every APDU of BAC or PACE,
/// secure messaging and the data-group reads sent with `sendCommand(apdu:)`. The app's protocol code is the project's
/// reader (`OpenNFCTags/ICAO`), driven through Core NFC's callbacks from a worker thread as such apps do; the chip is
/// the virtual eMRTD of `OpenNFCSimulation` on the virtual iPhone.
@Suite struct PassportPhoneTests {
    static let eMRTD = "A0000002471001"
    /// 2026-01-15 12:00 UTC, inside the test PKI's validity (the documents are issued "today" below).
    static let now = 1_768_478_400
    static let today = EMRTDTestPKI.Day(year: 2026, month: 1, day: 15)

    /// APDUs through `NFCISO7816Tag.sendCommand(apdu:)`, each waited for on the calling (worker) thread.
    final class CoreNFCTransport: EMRTDTransport, @unchecked Sendable {
        let tag: any NFCISO7816Tag
        private(set) var sent = 0
        init(_ tag: any NFCISO7816Tag) { self.tag = tag }

        func transmit(_ apdu: [UInt8], name: String) throws(PassportError) -> [UInt8] {
            guard let command = NFCISO7816APDU(data: Data(apdu)) else {
                throw PassportError(.invalidInput, "\(name): Core NFC cannot parse the APDU")
            }
            sent += 1
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var answer: Result<[UInt8], any Error> = .success([])
            tag.sendCommand(apdu: command) { data, sw1, sw2, error in
                answer = error.map { .failure($0) } ?? .success([UInt8](data) + [sw1, sw2])
                done.signal()
            }
            guard done.wait(timeout: .now() + 30) == .success else {
                throw PassportError(.transport, "\(name): no completion from sendCommand(apdu:)")
            }
            switch answer {
            case .success(let b): return b
            case .failure(let e): throw PassportError(.transport, "\(name): \(e)")
            }
        }
    }

    /// Issues a document, puts it on `phone`, runs one session with `polling`, and reads it as the app does.
    static func readOnPhone(
        _ kind: EMRTDDocument.Kind, polling: NFCTagReaderSession.PollingOption, aids: [String] = [eMRTD],
        password: (EMRTDDocument) -> PACEPassword, configure: (inout EMRTDIssueOptions) -> Void = { _ in }
    ) throws -> (result: Result<PassportReadResult, PassportError>?, detected: [String], apdus: Int, error: Int?) {
        var options = EMRTDIssueOptions(kind: kind, today: today)
        configure(&options)
        let document = try EMRTDIssuer.issue(kind, holder: .specimen(kind), options: options)
        let tag = EMRTDTag(
            document: document, activation: try EMRTDTag.defaultActivation(kind: kind, uid: [0x11, 0x22, 0x33, 0x44]),
            random: SeededRandomSource(seed: 9))
        let phone = VirtualPhone(
            configuration: AppConfiguration(
                readerSessionFormats: polling == .pace ? ["TAG", "PACE"] : ["TAG"], iso7816SelectIdentifiers: aids))
        phone.put(tag)
        let anchors = [try Certificate(der: document.pki.cscaCertificate)]
        let readOptions = PassportReadOptions(
            password: password(document), cscas: CSCAList(certificates: anchors), now: now,
            random: SeededRandomSource(seed: 3))
        let recorder = TagSessionRecorder()
        let finished = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable {
            var result: Result<PassportReadResult, PassportError>?
            var detected: [String] = []
            var apdus = 0
        }
        let box = Box()
        recorder.onDetect = { session, tags in
            box.detected = tags.map {
                if case .iso7816(let t) = $0 { return "iso7816 \(t.initialSelectedAID)" }
                return "other"
            }
            guard case .iso7816(let iso) = tags[0] else {
                session.invalidate()
                finished.signal()
                return
            }
            nonisolated(unsafe) let chip = iso
            session.connect(to: tags[0]) { error in
                guard error == nil else {
                    session.invalidate(errorMessage: "connect failed")
                    finished.signal()
                    return
                }
                session.alertMessage = "Reading your passport…"
                DispatchQueue.global().async {
                    let transport = CoreNFCTransport(chip)
                    do throws(PassportError) {
                        box.result = .success(try PassportReader.read(transport: transport, options: readOptions))
                        session.alertMessage = "Passport read"
                        session.invalidate()
                    } catch {
                        box.result = .failure(error)
                        session.invalidate(errorMessage: "The passport could not be read")
                    }
                    box.apdus = transport.sent
                    finished.signal()
                }
            }
        }
        _ = phone.run {
            let s = NFCTagReaderSession(configuration: .init(pollingOption: polling), delegate: recorder, queue: nil)
            s.begin()
            return s
        }
        phone.settle()
        if !box.detected.isEmpty { #expect(finished.wait(timeout: .now() + 120) == .success) }
        phone.settle()
        let code = (recorder.invalidationError as? NFCReaderError)?.code.rawValue
        return (box.result, box.detected, box.apdus, code)
    }

    static func mrz(_ d: EMRTDDocument) -> PACEPassword { .mrz(keyInformation: d.mrz!.keyInformation) }

    @Test func aPassportIsReadWithBACThroughSendCommandAndEveryCheckPasses() throws {
        let r = try Self.readOnPhone(.passport, polling: .iso14443, password: Self.mrz) { $0.pace = [] }
        #expect(r.detected == ["iso7816 \(Self.eMRTD)"])
        let read = try #require(try r.result?.get())
        #expect(read.accessControl == "BAC")
        #expect(read.passed, "\(read)")
        #expect(read.passive?.sodSignature == .passed && read.passive?.documentSigner == .passed)
        #expect(read.passive?.dataGroups.values.allSatisfy { $0 == .passed } == true)
        #expect(read.chipAuthentication == .passed && read.activeAuthentication == .passed)
        #expect(read.face?.data.prefix(2) == [0xFF, 0xD8])
        #expect(r.apdus == read.apduCount && r.apdus > 10)
        #expect(r.error == NFCReaderError.Code.readerSessionInvalidationErrorUserCanceled.rawValue)
    }

    /// `.pace` polling (with `PACE` in the formats entitlement) delivers the card without any AID SELECT
    /// (`initialSelectedAID` empty, docs/DIFFERENCES.md): the app runs PACE from EF.CardAccess, then selects the eMRTD.
    @Test func aPACEOnlyIDCardIsFoundByPACEPollingAndReadWithTheCAN() throws {
        let r = try Self.readOnPhone(.idCard, polling: .pace, password: { _ in .can("123456") }) {
            $0.can = "123456"
            $0.paceOnly = true
        }
        #expect(r.detected == ["iso7816 "])
        let read = try #require(try r.result?.get())
        #expect(read.accessControl.hasPrefix("PACE "))
        #expect(read.passed, "\(read)")
    }

    @Test func aWrongMRZFailsWithTheChipsRefusalAndTheAppsMessage() throws {
        let r = try Self.readOnPhone(
            .passport, polling: .iso14443, password: { _ in .mrz(keyInformation: "L898902C<369080619406236") }
        ) {
            $0.pace = []
        }
        guard case .failure(let e)? = r.result else {
            Issue.record("a wrong MRZ was accepted: \(String(describing: r.result))")
            return
        }
        #expect(e.code == .accessDenied)
    }

    @Test func withoutTheAIDInInfoPlistThePassportIsNotAnISO7816Tag() throws {
        let r = try Self.readOnPhone(.passport, polling: .iso14443, aids: ["D2760000850101"], password: Self.mrz) {
            $0.pace = []
        }
        #expect(!r.detected.contains("iso7816 \(Self.eMRTD)"))
        #expect(r.result.map { _ in true } == nil)
    }
}
