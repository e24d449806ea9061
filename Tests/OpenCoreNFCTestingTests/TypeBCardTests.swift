import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// ISO-DEP on NFC-B through the public API: a virtual Type B card (ATQB with PUPI, application data and protocol
/// info; ATTRIB) carrying the Type 4 NDEF application, delivered as `NFCISO7816Tag` (parity audit T15, Type B).
@Suite struct TypeBCardTests {

    /// What the app sees of the first tag: identifier, applicationData, historicalBytes, the coding flag, the AID
    /// that selected, then the NDEF message read through the same connection.
    private func seen(_ card: Type4Tag) -> [String] {
        let phone = VirtualPhone(configuration: Pin.configuration(aids: ["D2760000850101"]))
        phone.put(card, at: 0)
        let app = TagSessionRecorder()
        let log = Shared<[String]>([])
        app.onFirstDetect { session, tags in
            guard case .iso7816(let tObject) = tags[0] else {
                log.update { $0.append("not an NFCISO7816Tag: \(tags[0])") }
                return
            }
            nonisolated(unsafe) let t = tObject
            log.update {
                $0.append(
                    "id \(hex(t.identifier)) app \(t.applicationData.map { hex($0) } ?? "nil") "
                        + "hb \(t.historicalBytes.map { hex($0) } ?? "nil") proprietary \(t.proprietaryApplicationDataCoding) "
                        + "aid \(t.initialSelectedAID)")
            }
            session.connect(to: tags[0]) { e in
                log.update { $0.append("connect \(Pin.code(e))") }
                t.readNDEF { m, e in
                    log.update { $0.append("ndef \(m?.records.first.map { $0.payload.count } ?? -1) \(Pin.code(e))") }
                }
            }
        }
        _ = Pin.beginTagSession(phone, app)
        phone.settle()
        return log.value
    }

    @Test func aTypeBCardIsAnISO7816TagWithItsATQBApplicationData() throws {
        let card = try Type4Tag.typeB(
            pupi: [0x1A, 0x2B, 0x3C, 0x4D], holding: Pin.uri("b.example"), applicationData: [0x00, 0x12, 0x34, 0x01])
        // ADC 01 in protocol info byte 3 (75): ISO/IEC 14443-3 coding, so not proprietary. No ATS: no
        // historical bytes.
        #expect(
            seen(card) == [
                "id 1A2B3C4D app 00123401 hb nil proprietary false aid D2760000850101", "connect 0", "ndef 10 0",
            ])
    }

    @Test func proprietaryApplicationDataCodingFollowsTheADCBits() throws {
        // Protocol info byte 3 = 71: FWI 7, ADC 00 (proprietary), CID supported.
        let card = try Type4Tag.typeB(
            pupi: [0x0B, 0x0C, 0x0D, 0x0E], holding: Pin.uri("p.example"), applicationData: [0xCA, 0xFE, 0x00, 0x01],
            protocolInfo: [0x00, 0x81, 0x71])
        #expect(
            seen(card) == [
                "id 0B0C0D0E app CAFE0001 hb nil proprietary true aid D2760000850101", "connect 0", "ndef 10 0",
            ])
    }
}
