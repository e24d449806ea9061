import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// Core NFC reads NDEF on Types 1–5 in NDEF reader sessions: a FeliCa Lite-S holding an NDEF message is read and
/// written through `NFCNDEFTag` in an NDEF session on the virtual iPhone.
@Suite struct Type3SessionTests {
    static let uri = RealStackTests.uri("felica.example")
    static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xE4, 0x45, 0x05, 0x5B, 0x87]

    @Test func anNDEFSessionReadsALiteS() throws {
        let phone = VirtualPhone()
        phone.put(try FeliCaLiteSTag.factory(idm: Self.idm, holding: Self.uri))
        let app = phone.readFirstNDEF()
        #expect(
            app.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
        #expect(
            app.messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://felica.example")
    }

    @Test func anNDEFTagSessionWritesAndLocksALiteS() throws {
        let phone = VirtualPhone()
        let card = try FeliCaLiteSTag.factory(idm: Self.idm)
        phone.put(card)
        let lines = Pin.queryWriteLockQuery(phone, writing: NFCNDEFMessage(data: Data(Self.uri))!)
        #expect(lines == ["status 2 capacity 208", "write true", "lock true", "status 3"])
        #expect(card.ndefMessage == Self.uri)
        #expect(card.mc[2] == 0x00 && card.user[0][10] == 0x00)
    }

    /// Background tag reading reads Type 3 NDEF as it reads Types 1, 2, 4 and 5, and never writes.
    @Test func backgroundReadingReadsALiteS() throws {
        let phone = BackgroundReadingTests.phone(domains: [])
        let message: [UInt8] = [0xD1, 0x01, 0x0B, 0x55, 0x04] + Array("t3.example".utf8)
        let card = try FeliCaLiteSTag.factory(idm: Self.idm, holding: message)
        phone.put(card)
        #expect(phone.notifications.map(\.uri) == ["https://t3.example"])
        #expect(card.writeCount == 0)
    }
}
