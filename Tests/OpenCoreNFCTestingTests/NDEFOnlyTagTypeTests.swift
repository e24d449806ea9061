import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import Testing

/// `__NFCTag.type` of the tag objects an NDEF session hands out for tags no tag protocol reaches (docs/DIFFERENCES.md
/// "Tag objects of NDEF sessions"): the technology the tag answered on — FeliCa (2) for Type 3, MIFARE (4) for an
/// NFC-A Type 1 tag — while every `as…Tag()` cast stays nil.
@Suite struct NDEFOnlyTagTypeTests {
    /// The type and the casts of the first tag a read-write NDEF session delivers for `tag`.
    func delivered(_ tag: any VirtualTag) -> String {
        let phone = VirtualPhone()
        phone.put(tag)
        let app = NDEFTagRecorder()
        let line = Shared("none")
        app.onDetect = { session, tags in
            if let t = tags.first as? any __NFCTag {
                let casts = [
                    t.asNFCMiFareTag() != nil, t.asNFCFeliCaTag() != nil, t.asNFCISO7816Tag() != nil,
                    t.asNFCISO15693Tag() != nil,
                ]
                line.value = "type \(t.type.rawValue) casts \(casts.filter { $0 }.count)"
            }
            session.invalidate()
        }
        Pin.beginNDEFSession(phone, app)
        phone.settle()
        return line.value
    }

    @Test func aType3TagIsAFeliCaTagWithoutTheFeliCaProtocol() throws {
        let lite = try FeliCaLiteSTag.factory(idm: [0x01, 0x2E, 0x4C, 0xE4, 0x45, 0x05, 0x5B, 0x87])
        #expect(delivered(lite) == "type 2 casts 0")
    }

    @Test func aType1TagIsAnNFCATagWithoutTheMiFareProtocol() throws {
        let topaz = try Type1Tag.factory(.topaz512, uid: [0x01, 0x02, 0x03, 0x04], holding: Pin.uri("t1.example"))
        #expect(delivered(topaz) == "type 4 casts 0")
    }

    @Test func tagsWithAProtocolKeepTheirType() throws {
        // Type 2 is an NFCMiFareTag (4), Type 5 an NFCISO15693Tag (1), each castable to its protocol.
        #expect(delivered(Pin.ntag(holding: Pin.uri("t2.example"))) == "type 4 casts 1")
        let t5 = try ISO15693Tag.factory(.icodeSLIX2, uid: ISO15693TagTests.uid(.icodeSLIX2))
        #expect(delivered(t5) == "type 1 casts 1")
    }
}
