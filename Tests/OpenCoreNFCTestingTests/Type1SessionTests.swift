import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// Core NFC reads NDEF on Types 1–5 in NDEF reader sessions, and its tag reader session has no `NFCTag` case for a
/// Type 1 tag (docs/DIFFERENCES.md, "Type 1 tags"): a Topaz is read and written through `NFCNDEFTag`, and a tag
/// session never reports it.
@Suite struct Type1SessionTests {
    static let uri = RealStackTests.uri("topaz.example")

    @Test(arguments: Type1ChipProfile.all)
    func anNDEFSessionReadsATopaz(profile: Type1ChipProfile) throws {
        let phone = VirtualPhone()
        phone.put(try Type1Tag.factory(profile, uid: [0x11, 0x22, 0x33, 0x44], holding: Self.uri))
        let app = phone.readFirstNDEF()
        #expect(
            app.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
        #expect(app.messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://topaz.example")
    }

    @Test func anNDEFTagSessionWritesAndLocksATopaz512() throws {
        let phone = VirtualPhone()
        let topaz = try Type1Tag.factory(.topaz512, uid: [0x11, 0x22, 0x33, 0x44])
        phone.put(topaz)
        let lines = Pin.queryWriteLockQuery(phone, writing: NFCNDEFMessage(data: Data(Self.uri))!) { tag, log in
            log.append("mifare \((tag as? any NFCMiFareTag) != nil)")
        }
        #expect(lines == ["mifare false", "status 2 capacity 462", "write true", "lock true", "status 3"])
        #expect(topaz.ndefMessage == Self.uri)
        #expect(topaz.isLocked(block: 0x10) && topaz.isNDEFReadOnly)
    }

    @Test func aTagSessionDoesNotReportATopaz() throws {
        let phone = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: ["TAG"]))
        phone.put(try Type1Tag.factory(.topaz512, uid: [0x11, 0x22, 0x33, 0x44]), at: 0)
        phone.put(try Type2Tag.factory(.ntag213, uid: [4, 0xA, 0, 0, 0, 0, 1]), at: 1)
        let app = TagSessionRecorder()
        let seen = LogBox()
        app.onDetect = { session, tags in
            for tag in tags {
                if case .miFare(let t) = tag {
                    seen.append("miFare \(t.identifier.count)")
                } else {
                    seen.append("other")
                }
            }
            session.invalidate()
        }
        phone.run { NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app).begin() }
        phone.settle()
        #expect(seen.lines == ["miFare 7"])
    }
}
