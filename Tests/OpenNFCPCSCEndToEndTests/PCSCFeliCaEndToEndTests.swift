import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCBytes
import OpenNFCDevices
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

extension EndToEndSuite {
    /// FeliCa through the real pcscd: `opennfc emulate`'s card server presents a FeliCa card on the vpcd reader, the
    /// PC/SC frontend finds it by its ATR (`… 11 00 3B …`), probes the ACR122U pass-through (InListPassiveTarget),
    /// and a Core NFC tag session polling `.iso18092` gets it as an `NFCFeliCaTag` on the declared system code.
    @Suite struct PCSCFeliCaEndToEndTests {
        static let idm: [UInt8] = [0x01, 0x01, 0x0A, 0x10, 0x8E, 0x1B, 0xAD, 0x39]

        @Test func theFrontendFindsTheIDmAndCarriesFeliCaFrames() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let card = ScriptedFeliCaCard([.init(code: [0x12, 0xFC], idm: Self.idm)])
            card.answers[0x04] = [0x00]
            let slot = try EmulatedSlot(card)
            defer { try? slot.remove() }

            let frontend = PCSCFrontend(context: try PCSCContext(), reader: slot.reader)
            let target = try #require(try frontend.poll([.nfcF]).first)
            #expect(target.nfcF?.idm == Self.idm)
            #expect(frontend.card(for: target)?.kind == .storage(standard: 0x11, cardName: 0x003B))
            _ = try frontend.activate(target)
            defer { frontend.deactivate() }
            #expect(frontend.activeProfile is ACR122UFeliCaProfile)
            #expect(
                try frontend.exchange([0x00, 0x12, 0xFC, 0x01, 0x00])
                    == .frame([0x01] + Self.idm + card.pmm + [0x12, 0xFC]))
            #expect(try frontend.exchange([0x04] + Self.idm) == .frame([0x05] + Self.idm + [0x00]))
            #expect {
                try frontend.exchange([0x0C] + Self.idm)
            } throws: { ($0 as? RFError)?.code == .timeout }
        }

        @Test func aTagSessionGetsTheFeliCaTagOnTheDeclaredSystemCode() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let block = Array(0x30..<0x40).map { UInt8($0) }
            let card = ScriptedFeliCaCard([.init(code: [0x12, 0xFC], idm: Self.idm)])
            card.answers = [0x06: [0x00, 0x00, 0x01] + block, 0x08: [0x00, 0x00]]
            let slot = try EmulatedSlot(card, slot: 1)
            defer { try? slot.remove() }

            let opened = try DeviceRegistry.open("pcsc:\(slot.reader)")
            let system = NFCSystem.make(
                opened, configuration: AppConfiguration(readerSessionFormats: ["TAG"], felicaSystemCodes: ["12FC"]),
                idleJumps: false)
            let app = TagSessionRecorder()
            let ended = Ended()
            app.onInvalidate = { _, _ in ended.signal() }
            let answers = Answers()
            app.onDetect = { session, tags in
                guard case .feliCa(let tag) = tags[0] else { return session.invalidate(errorMessage: "not FeliCa") }
                answers.append([UInt8](tag.currentSystemCode) + [UInt8](tag.currentIDm))
                session.connect(to: tags[0]) { _ in
                    tag.readWithoutEncryption(serviceCodeList: [Data([0x0B, 0x00])], blockList: [Data([0x80, 0x01])]) {
                        sf1, sf2, blocks, _ in
                        answers.append([UInt8(sf1), UInt8(sf2)] + (blocks.first.map { [UInt8]($0) } ?? []))
                        tag.writeWithoutEncryption(
                            serviceCodeList: [Data([0x09, 0x00])], blockList: [Data([0x80, 0x01])],
                            blockData: [Data(block)]
                        ) { sf1, sf2, error in
                            answers.append([UInt8(sf1), UInt8(sf2), error == nil ? 0 : 1])
                            session.invalidate()
                        }
                    }
                }
            }
            NFCSystem.$current.withValue(system) {
                NFCTagReaderSession(configuration: .init(pollingOption: .iso18092), delegate: app, queue: nil).begin()
            }
            _ = try ended.wait(app.invalidationError)
            #expect(answers.all == [[0x12, 0xFC] + Self.idm, [0x00, 0x00] + block, [0x00, 0x00, 0x00]])
            // Through pcscd and vpcd the card received exactly Core NFC's frames: the delivery's Polling for 12FC, the
            // read, the write (the frontend's probe is the wildcard Polling, filtered out).
            let idm = Self.idm.hexString
            #expect(
                card.frames.map(\.hexString) == [
                    "0012FC0000", "06\(idm)010B00018001", "08\(idm)010900018001" + block.hexString,
                ])
        }
    }
}
