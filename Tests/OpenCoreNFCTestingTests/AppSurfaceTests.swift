import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import Testing

// An app developer's test, written as a project outside this package writes it: only the two products are imported.
// `scripts/check-public-surface` typechecks this file from outside the package (without the package name, so `package`
// declarations are invisible): every type and member an app's test needs to configure the phone, build each virtual
// chip, inject faults and read what the user saw must be public (docs/ARCHITECTURE.md, "Public surface").
@Suite struct AppSurfaceTests {
    /// A URI record `https://example.com/a` (NDEF 1.0 §3.2, URI RTD prefix 04).
    static let message: [UInt8] = [0xD1, 0x01, 0x0E, 0x55, 0x04] + Array("example.com/a".utf8)

    static func chips() throws -> [(name: String, tag: any VirtualTag)] {
        let uid7: [UInt8] = [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60]
        return [
            ("ntag213", try Type2Tag.factory(.ntag213, uid: uid7, holding: message)),
            ("topaz512", try Type1Tag.factory(.topaz512, uid: [0x01, 0x02, 0x03, 0x04], holding: message)),
            ("type4", try Type4Tag.factory(uid: uid7, holding: message)),
            ("type4b", try Type4Tag.typeB(pupi: [0x11, 0x22, 0x33, 0x44], holding: message)),
            ("desfire-ev1", try DESFireEV1Tag.ndefFormatted(uid: uid7, holding: message)),
            ("ntag215", try TagFile.factory(chip: "ntag215", uid: uid7, holding: message)),
        ]
    }

    @Test func everyChipIsReadByAnNDEFSessionNamedOnlyThroughTheProducts() throws {
        for (name, tag) in try Self.chips() {
            let phone = VirtualPhone(configuration: AppConfiguration(profile: .iphone))
            let app = NDEFMessageRecorder()
            phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin() }
            phone.settle()
            #expect(phone.sheet.isPresented, "\(name)")
            phone.put(tag)
            #expect(app.messages.count == 1, "\(name)")
            #expect(
                app.messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/a")
            #expect(app.invalidationCode == .readerSessionInvalidationErrorFirstNDEFTagRead, "\(name)")
            #expect(TagFile.ndefMessage(of: tag) == Self.message, "\(name)")
        }
    }

    @Test func anISO15693ChipAndItsProfileAreNameable() throws {
        let tag = try ISO15693Tag.factory(
            .icodeSLIX2, uid: [0xE0, 0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06], holding: Self.message)
        #expect(tag.chip == ISO15693ChipProfile.icodeSLIX2.name)
        #expect(TagFile.ndefMessage(of: tag) == Self.message)
    }

    @Test func anAppletAnswersATagSessionUnderTheAppsSelectIdentifiers() throws {
        let aid: [UInt8] = [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05]
        let applet = ISO7816ClosureApplet(aid: aid) { command in
            command.ins == 0xCA ? ISO7816Response(data: [0x42], status: .success) : .status(.insNotSupported)
        }
        let card = try Type4Tag(
            uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06], configuration: Type4Configuration(), applets: [applet])
        let phone = VirtualPhone(configuration: AppConfiguration(iso7816SelectIdentifiers: ["F00102030405"]))
        let app = TagSessionRecorder()
        nonisolated(unsafe) var answer: [UInt8] = []
        app.onDetect = { session, tags in
            guard case .iso7816(let tObject) = tags[0] else { return }
            nonisolated(unsafe) let t = tObject
            session.connect(to: tags[0]) { _ in
                let apdu = NFCISO7816APDU(
                    instructionClass: 0x00, instructionCode: 0xCA, p1Parameter: 0, p2Parameter: 0, data: Data(),
                    expectedResponseLength: 256)
                t.sendCommand(apdu: apdu) { data, sw1, sw2, _ in
                    answer = [UInt8](data) + [sw1, sw2]
                    session.invalidate()
                }
            }
        }
        phone.run {
            NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app, queue: nil).begin()
        }
        phone.put(card)
        phone.settle()
        #expect(answer == [0x42, 0x90, 0x00])
        #expect(app.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
    }

    @Test func faultsTimeAndWhatTheUserSaw() throws {
        let phone = VirtualPhone()
        let app = NDEFMessageRecorder()
        phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin() }
        phone.inject(FaultPlan([.removeAfter(frame: 1)]))
        try phone.put(message: Self.message, chip: .ntag215)
        #expect(app.messages.isEmpty)
        phone.inject(.none)
        phone.advance(by: .seconds(60))
        #expect(app.invalidationCode == .readerSessionInvalidationErrorSessionTimeout)
        #expect(phone.sheet.glyph != SystemSheet.Glyph.scanning || !phone.sheet.isPresented)
        #expect(phone.transcript.contains { $0.kind == TranscriptEntry.Kind.user })
        #expect(phone.paymentEligibility == PaymentEligibility.eligible)
    }
}
