import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// An iOS app that authenticates to a MIFARE Ultralight C itself (its own 3DES, MF0ICU2 §7.5.5) through
/// `sendMiFareCommand`, as it would on an iPhone: Core NFC only carries the frames.
@Suite struct UltralightCPhoneTests {
    static let key: [UInt8] = Array(0x20...0x2F)

    @Test func appAuthenticatesWithItsOwn3DESAndReadsProtectedPages() throws {
        let phone = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: ["TAG"]))
        let chip = try Type2Tag.factory(.ultralightC, uid: [0x04, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56])
        try chip.setUltralightCKey(Self.key)
        try chip.setUltralightCAccess(auth0: 0x04, protectReads: true)
        phone.put(chip)

        let app = TagSessionRecorder()
        let log = LogBox()
        let cipher = try BlockCipher(.tdes2, key: Self.key)
        let rndA: [UInt8] = [0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8]
        let detections = LogBox()
        app.onDetect = { session, tags in
            guard case .miFare(let tagObject) = tags[0] else { return }
            nonisolated(unsafe) let tag = tagObject
            detections.append("detected")
            guard detections.lines.count > 1 else {
                // First discovery: the protected page NAKs, which mutes the chip; the app polls again and the
                // re-activation wakes it.
                log.append("family \(tag.mifareFamily == .ultralight)")
                session.connect(to: tags[0]) { _ in
                    tag.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) { data, error in
                        // Refused: a NAK (the platform reports it as an error or as the byte 00), never the 16 page bytes.
                        log.append("read before refused: \(data.count != 16 || error != nil)")
                        session.restartPolling()
                    }
                }
                return
            }
            session.connect(to: tags[0]) { _ in
                tag.sendMiFareCommand(commandPacket: Data([0x1A, 0x00])) { part1, error in
                    guard error == nil, part1.count == 9, part1[0] == 0xAF else {
                        log.append("part 1 failed: \(String(describing: error))")
                        return
                    }
                    let ekRndB = [UInt8](part1.dropFirst())
                    let rndB = try! cipher.decryptCBC(ekRndB, iv: [UInt8](repeating: 0, count: 8))
                    let token = try! cipher.encryptCBC(rndA + rndB.dropFirst() + [rndB[0]], iv: ekRndB)
                    tag.sendMiFareCommand(commandPacket: Data([0xAF] + token)) { part2, error in
                        let rotatedA = try! cipher.decryptCBC([UInt8](part2.dropFirst()), iv: Array(token.suffix(8)))
                        log.append(
                            "mutual: \(error == nil && part2.first == 0x00 && rotatedA == rndA.dropFirst() + [rndA[0]])"
                        )
                        tag.sendMiFareCommand(commandPacket: Data([0x30, 0x03])) { data, error in
                            // Page 3 (the CC), then the empty NDEF TLV and Terminator of page 4 (protected).
                            log.append(
                                "read after: \([UInt8](data.prefix(7)) == [0xE1, 0x10, 0x12, 0x00, 0x03, 0x00, 0xFE]) \(error == nil)"
                            )
                            session.invalidate()
                        }
                    }
                }
            }
        }
        _ = phone.run {
            let s = NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app, queue: nil)
            s.begin()
            return s
        }
        phone.settle()
        #expect(log.lines == ["family true", "read before refused: true", "mutual: true", "read after: true true"])
    }
}
