import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Sessions over the real reader procedures and virtual chips (no test doubles).
@Suite struct RealStackTests {
    static func uri(_ s: String) -> [UInt8] { uriMessage(s) }

    @Test func readsAnNTAG215InReadOnlyMode() throws {
        let phone = VirtualPhone()
        try phone.put(message: Self.uri("example.com"))
        let app = phone.readFirstNDEF()
        #expect(
            app.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
        #expect(app.messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com")
    }

    @Test func readsAType4CardAndADESFire() throws {
        for tag in [
            try Type4Tag.factory(uid: [0x02, 0x01, 0x02, 0x03], holding: Self.uri("t4.example")) as any VirtualTag,
            try DESFireEV1Tag.ndefFormatted(uid: [0x04, 1, 2, 3, 4, 5, 6], holding: Self.uri("df.example")),
        ] {
            let phone = VirtualPhone()
            phone.put(tag)
            let app = phone.readFirstNDEF()
            #expect(app.messages.count == 1, "\(tag.chip)")
            #expect([UInt8](app.messages.first?.records.first?.payload ?? Data()).count > 3)
        }
    }

    @Test func writesAndLocksAnNTAG213ThroughTheProcedures() throws {
        let phone = VirtualPhone()
        let ntag = try Type2Tag.factory(.ntag213, uid: [0x04, 9, 8, 7, 6, 5, 4])
        phone.put(ntag)
        let lines = Pin.queryWriteLockQuery(phone, writing: NFCNDEFMessage(data: Data(Self.uri("written.example")))!)
        #expect(lines == ["status 2 capacity 137", "write true", "lock true", "status 3"])
        #expect(TagFile.ndefMessage(of: ntag) == Self.uri("written.example"))
    }
}

final class LogBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _lines: [String] = []
    func append(_ s: String) { lock.withLock { _lines.append(s) } }
    var lines: [String] { lock.withLock { _lines } }
}
