import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// `NFCFeliCaTag` against the virtual FeliCa Lite-S (OpenNFCSimulation/Type3, written from the card side): delivery on
/// its NDEF system code 12FC or its native 88B4, in declaration order, and the commands it has, with its own status
/// flags (FeliCa Lite-S User's Manual §5.3) and its silence for the ones it lacks.
@Suite struct FeliCaLiteSPhoneTests {
    static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xE4, 0x45, 0x05, 0x5B, 0x87]
    typealias Step = FeliCaPhoneTests.Step

    func run(_ codes: [String], _ card: FeliCaLiteSTag, _ steps: [Step]) -> [String] {
        let phone = VirtualPhone(configuration: FeliCaPhoneTests.configuration(codes))
        phone.put(card, at: 0)
        let app = TagSessionRecorder()
        let log = Shared<[String]>([])
        app.onFirstDetect { session, tags in
            guard case .feliCa(let tagObject) = tags[0] else { return log.update { $0.append("not FeliCa") } }
            nonisolated(unsafe) let tag = tagObject
            log.update { $0.append("feliCa \(hex(tag.currentSystemCode))") }
            session.connect(to: tags[0]) { _ in
                @Sendable func next(_ k: Int) {
                    guard k < steps.count else { return }
                    steps[k](tag) { line in
                        log.update { $0.append(line) }
                        next(k + 1)
                    }
                }
                next(0)
            }
        }
        Pin.beginTagSession(phone, app, .iso18092)
        phone.settle()
        return log.value
    }

    @Test func anNDEFFormattedLiteSIsDeliveredOnTheFirstDeclaredCodeItAnswers() throws {
        #expect(run(["8008", "12FC", "88B4"], try FeliCaLiteSTag.factory(idm: Self.idm), []) == ["feliCa 12FC"])
        #expect(run(["88B4", "12FC"], try FeliCaLiteSTag.factory(idm: Self.idm), []) == ["feliCa 88B4"])
        // Without NDEF formatting the card answers only its native system code.
        #expect(run(["12FC"], try FeliCaLiteSTag.factory(idm: Self.idm, ndefFormatted: false), []).isEmpty)
    }

    @Test func readWriteAndTheCardsOwnStatusFlags() throws {
        let card = try FeliCaLiteSTag.factory(idm: Self.idm)
        let data = Data((0..<16).map { UInt8($0) })
        let lines = run(
            ["12FC"], card,
            [
                { t, done in
                    t.writeWithoutEncryption(
                        serviceCodeList: [Data([0x09, 0x00])], blockList: [Data([0x80, 0x01])], blockData: [data]
                    ) { sf1, sf2, e in done("write \(sf1) \(sf2) \(Pin.code(e))") }
                },
                { t, done in
                    t.readWithoutEncryption(
                        serviceCodeList: [Data([0x0B, 0x00])],
                        blockList: [Data([0x80, 0x01]), Data([0x00, 0x01, 0x00])]
                    ) { sf1, sf2, blocks, e in
                        done("read \(sf1) \(sf2) \(blocks.count) \(blocks.first == data) \(Pin.code(e))")
                    }
                },
                { t, done in
                    // Two blocks in one write: the Lite-S writes one block per command (SF2 A2).
                    t.writeWithoutEncryption(
                        serviceCodeList: [Data([0x09, 0x00])], blockList: [Data([0x80, 0x01]), Data([0x80, 0x02])],
                        blockData: [data, data]
                    ) { sf1, sf2, e in done("write2 \(sf1) \(String(sf2, radix: 16)) \(Pin.code(e))") }
                },
                { t, done in t.requestResponse { mode, e in done("mode \(mode) \(Pin.code(e))") } },
                { t, done in
                    t.requestSystemCode { codes, e in done("systems \(codes.map { hex($0) }) \(Pin.code(e))")
                    }
                },
                // Reset Mode is a FeliCa Standard command: the Lite-S stays silent.
                { t, done in t.resetMode { _, _, e in done("reset \(Pin.code(e))") } },
            ])
        #expect(
            lines == [
                "feliCa 12FC", "write 0 0 0", "read 0 0 2 true 0", "write2 255 a2 0", "mode 0 0",
                "systems [\"88B4\", \"12FC\"] 0", "reset 102",
            ])
        #expect(Array(card.user[1]) == [UInt8](data))
    }

    @Test func ndefOperationsOnADeliveredFeliCaTagRunTheType3Procedure() throws {
        let card = try FeliCaLiteSTag.factory(idm: Self.idm, holding: Pin.uri("felica.example"))
        nonisolated(unsafe) let message = NFCNDEFMessage(records: [
            NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://t3.example")!
        ])
        let lines = run(
            ["12FC"], card,
            [
                { t, done in
                    t.queryNDEFStatus { status, capacity, e in
                        done("status \(status.rawValue) \(capacity) \(Pin.code(e))")
                    }
                },
                { t, done in t.readNDEF { m, e in done("read \(Pin.host(m)) \(Pin.code(e))") } },
                { t, done in t.writeNDEF(message) { e in done("write \(Pin.code(e))") } },
                { t, done in t.readNDEF { m, e in done("reread \(Pin.host(m)) \(Pin.code(e))") } },
                { t, done in t.writeLock { e in done("lock \(Pin.code(e))") } },
                { t, done in t.queryNDEFStatus { status, _, e in done("status \(status.rawValue) \(Pin.code(e))") } },
            ])
        // 13 user blocks after the attribute block: 208 bytes (NFC Forum T3T §7.1, Nmaxb × 16).
        #expect(
            lines == [
                "feliCa 12FC", "status 2 208 0", "read felica.example 0", "write 0", "reread t3.example 0", "lock 0",
                "status 3 0",
            ])
    }
}
