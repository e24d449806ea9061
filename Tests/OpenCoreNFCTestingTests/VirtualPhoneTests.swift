import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// The testing product's own API: field, time, user, transcript, configuration files.
@Suite struct VirtualPhoneTests {
    static let message: [UInt8] = [0xD1, 0x01, 0x05, 0x55, 0x04] + Array("a.io".utf8)

    @Test func aTagArrivingLaterOnTheVirtualClockIsRead() throws {
        let phone = VirtualPhone()
        let app = NDEFMessageRecorder()
        phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin() }
        phone.system.synchronized {
            phone.field.place(
                try! Type2Tag.factory(.ntag213, uid: [4, 1, 2, 3, 4, 5, 6], holding: Self.message), after: .seconds(30))
        }
        phone.advance(by: .seconds(29))
        #expect(app.messages.isEmpty)
        phone.advance(by: .seconds(1))
        #expect(
            app.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
        #expect(phone.clock.now >= NFCInstant(nanoseconds: 30_000_000_000), "read at 30 s plus air time")
    }

    @Test func movingTagsChangesTheOrderTheyAreReported() throws {
        let phone = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: ["TAG"]))
        let a = phone.put(try Type2Tag.factory(.ntag213, uid: [4, 0xA, 0, 0, 0, 0, 1]), at: 0)
        phone.put(try Type2Tag.factory(.ntag215, uid: [4, 0xB, 0, 0, 0, 0, 2]), at: 1)
        phone.move(a, to: 5)
        let app = TagSessionRecorder()
        let uids = LogBox()
        app.onDetect = { _, tags in
            for case .miFare(let t) in tags { uids.append(String(t.identifier[1], radix: 16)) }
        }
        phone.run { NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app).begin() }
        phone.settle()
        #expect(uids.lines == ["b", "a"])
    }

    @Test func transcriptRecordsFramesWhenAsked() throws {
        let phone = VirtualPhone(recordsFrames: true)
        try phone.put(message: Self.message)
        _ = phone.readFirstNDEF()
        let rf = phone.transcript.filter { $0.kind == .rf }.map(\.text)
        #expect(rf.contains("→ 60"))  // GET_VERSION during identification
        #expect(rf.contains { $0.hasPrefix("→ 30 ") })  // READ
        #expect(phone.transcriptText([.sheet]).contains("sheet: closed"))
    }

    @Test func configurationFromPlistFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vphone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let info = dir.appendingPathComponent("Info.plist")
        let ent = dir.appendingPathComponent("App.entitlements")
        try Data(PropertyList.dictionary([("NFCReaderUsageDescription", .string("Scans."))]).xmlEncoded).write(to: info)
        try Data(
            PropertyList.dictionary([("com.apple.developer.nfc.readersession.formats", .array([.string("NDEF")]))])
                .binaryEncoded
        ).write(to: ent)
        let phone = try VirtualPhone(infoPlist: info.path, entitlements: ent.path)
        #expect(phone.system.configuration.readerSessionFormats == ["NDEF"])
        let app = TagSessionRecorder()
        phone.run { NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app).begin() }
        phone.settle()
        #expect(app.events == [.invalidated(.readerErrorSecurityViolation)])
    }

    @Test func desktopProfileDeliversISODEPCardsUnselectedWithoutDeclaredAIDs() throws {
        let phone = VirtualPhone(configuration: .empty(.desktop))
        phone.put(try Type4Tag(uid: [0x02, 1, 2, 3]))
        let app = TagSessionRecorder()
        let aids = LogBox()
        app.onDetect = { _, tags in
            for case .iso7816(let t) in tags { aids.append("[\(t.initialSelectedAID)]") }
        }
        phone.run { NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app).begin() }
        phone.settle()
        #expect(aids.lines == ["[]"])
    }

    @Test func sheetTextFollowsTheActiveSession() {
        let phone = VirtualPhone()
        #expect(phone.sheetText == "")
        let app = NDEFMessageRecorder()
        let s = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true) }
        s.alertMessage = "Scan the poster."
        s.begin()
        #expect(phone.sheetText == "Scan the poster.")
        #expect(phone.sheet.description == "[Ready to Scan] Scan the poster.")
        phone.tapCancel()
        #expect(phone.sheetText == "")
        #expect(app.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
    }
}

/// The first package's habits: `put(message:)` takes an `NFCNDEFMessage` too, and refuses bytes that are no NDEF
/// message, naming the offset, instead of making a tag the app never hears about.
@Suite struct VirtualPhoneMessageTests {
    @Test func malformedBytesThrowNamingTheOffset() throws {
        let phone = VirtualPhone()
        // A short record whose PAYLOAD_LENGTH (0x0D) runs one byte past the 17 bytes given.
        let bytes: [UInt8] = [0xD1, 0x01, 0x0D, 0x55, 0x04] + Array("example.co".utf8)
        #expect(throws: VirtualPhone.MalformedMessage.self) { try phone.put(message: bytes) }
        do {
            try phone.put(message: bytes)
        } catch let e as VirtualPhone.MalformedMessage {
            #expect(e.description.hasPrefix("not a valid NDEF message: "))
            #expect(e.description.contains("at byte \(e.offset)"))
        }
        #expect(try phone.put(message: []) >= 0)
    }

    @Test func anNFCNDEFMessageWithTheMessageLabel() throws {
        let phone = VirtualPhone()
        let payload = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com"))
        #expect(try phone.put(message: NFCNDEFMessage(records: [payload])) >= 0)
    }
}
