import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// An iOS app that runs the MIFARE Plus SL3 AES authentication and a MACed read itself through
/// `sendMiFareCommand` (native frames, status byte first), as apps do against real cards: Core NFC only carries
/// the frames; the tag arrives as `NFCMiFareTag` with `mifareFamily == .plus`.
@Suite struct MIFAREPlusPhoneTests {
    static let key = [UInt8](repeating: 0x3C, count: 16)

    @Test func appAuthenticatesWithAESAndReadsAMACedBlock() throws {
        let phone = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: ["TAG"]))
        let tag = try MIFAREPlusTag(
            model: MIFAREPlusModel(generation: .ev2, is4K: false, uidLength: 7), uid: [0x04, 9, 8, 7, 6, 5, 4],
            securityLevel: 3)
        try tag.setKey(0x4000, Self.key)
        phone.put(tag)
        let recorder = TagSessionRecorder()
        let log = LogBox()
        let aes = try BlockCipher(.aes128, key: Self.key)
        let zero = [UInt8](repeating: 0, count: 16)
        let rndA = (0..<16).map { UInt8(0xA0 + $0) }
        recorder.onDetect = { session, tags in
            guard case .miFare(let mifareObject) = tags[0] else { return }
            nonisolated(unsafe) let mifare = mifareObject
            log.append("family \(mifare.mifareFamily == .plus)")
            session.connect(to: tags[0]) { _ in
                mifare.sendMiFareCommand(commandPacket: Data([0x70, 0x00, 0x40, 0x00])) { r1, _ in
                    let rndB = try! aes.decryptCBC([UInt8](r1.dropFirst()), iv: zero)
                    let part2 = try! aes.encryptCBC(rndA + rndB.dropFirst() + [rndB[0]], iv: zero)
                    mifare.sendMiFareCommand(commandPacket: Data([0x72] + part2)) { r2, _ in
                        let plain = try! aes.decryptCBC([UInt8](r2.dropFirst()), iv: zero)
                        log.append(
                            "auth \(r2.first == 0x90) \(Array(plain[4..<20]) == Array(rndA.dropFirst()) + [rndA[0]])")
                        // Unmaced plain read (36): block 0 in the clear.
                        mifare.sendMiFareCommand(commandPacket: Data([0x36, 0x00, 0x00, 0x01])) { r3, _ in
                            log.append(
                                "read \(r3.first == 0x90) \(Array(r3.dropFirst().prefix(7)) == [4, 9, 8, 7, 6, 5, 4])")
                            session.invalidate()
                        }
                    }
                }
            }
        }
        _ = phone.run {
            let s = NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: recorder, queue: nil)
            s.begin()
            return s
        }
        phone.settle()
        #expect(log.lines == ["family true", "auth true true", "read true true"])
    }

    /// `sendMiFareISO7816Command` on `.plus`: the ISO 7816-4 wrapping of GetVersion, answered `data ‖ 91 AF`
    /// (docs/DIFFERENCES.md "MIFARE Plus decisions").
    @Test func wrappedGetVersionThroughSendMiFareISO7816Command() throws {
        let phone = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: ["TAG"]))
        phone.put(
            try MIFAREPlusTag(
                model: MIFAREPlusModel(generation: .ev1, is4K: true, uidLength: 7), uid: [0x04, 1, 2, 3, 4, 5, 6],
                securityLevel: 0))
        let recorder = TagSessionRecorder()
        let log = LogBox()
        recorder.onDetect = { session, tags in
            guard case .miFare(let mifareObject) = tags[0] else { return }
            nonisolated(unsafe) let mifare = mifareObject
            session.connect(to: tags[0]) { _ in
                let apdu = NFCISO7816APDU(
                    instructionClass: 0x90, instructionCode: 0x60, p1Parameter: 0, p2Parameter: 0, data: Data(),
                    expectedResponseLength: 256)
                mifare.sendMiFareISO7816Command(apdu) { data, sw1, sw2, error in
                    log.append("\([UInt8](data)) \(sw1) \(sw2) \(error == nil)")
                    session.invalidate()
                }
            }
        }
        _ = phone.run {
            let s = NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: recorder, queue: nil)
            s.begin()
            return s
        }
        phone.settle()
        #expect(log.lines == ["[4, 2, 1, 17, 0, 24, 5] 145 175 true"])
    }
}
