import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// An iOS app that does its own DESFire EV1 AES authentication and secure messaging (MF3ICD81) through
/// `sendMiFareCommand` (native frames: status byte first), as against a real card: Core NFC only carries frames.
@Suite struct DESFirePhoneTests {
    static let key: [UInt8] = Array(0x60...0x6F)
    static let secret = Array("an enciphered secret".utf8)

    /// Begins an ISO 14443 tag reader session with `recorder` as its delegate and runs `phone` until it settles.
    static func runISO14443Session(_ phone: VirtualPhone, _ recorder: TagSessionRecorder) {
        _ = phone.run {
            let s = NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: recorder, queue: nil)
            s.begin()
            return s
        }
        phone.settle()
    }

    @Test func appAuthenticatesWithAESAndReadsAnEncipheredFile() throws {
        let phone = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: ["TAG"]))
        let app = DESFireApplication(
            aid: 0x01_02_03, keyCount: 0x81,
            files: [DESFireFile(number: 5, communicationSettings: 0x03, accessRights: 0x0FFF, contents: Self.secret)],
            keys: [try DESFireKey(.aes, bytes: Self.key)])
        phone.put(try DESFireEV1Tag(uid: [0x04, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36], applications: [app]))

        let recorder = TagSessionRecorder()
        let log = LogBox()
        let aes = try BlockCipher(.aes128, key: Self.key)
        let rndA = (0..<16).map { UInt8(0xC0 + $0) }
        let zero = [UInt8](repeating: 0, count: 16)
        recorder.onDetect = { session, tags in
            guard case .miFare(let tagObject) = tags[0] else { return }
            nonisolated(unsafe) let tag = tagObject
            log.append("family \(tag.mifareFamily == .desfire)")
            session.connect(to: tags[0]) { _ in
                tag.sendMiFareCommand(commandPacket: Data([0x5A, 0x03, 0x02, 0x01])) { r, _ in
                    log.append("select \([UInt8](r))")
                    tag.sendMiFareCommand(commandPacket: Data([0xAA, 0x00])) { r1, _ in
                        let ekRndB = [UInt8](r1.dropFirst())
                        let rndB = try! aes.decryptCBC(ekRndB, iv: zero)
                        let token = try! aes.encryptCBC(rndA + rndB.dropFirst() + [rndB[0]], iv: ekRndB)
                        tag.sendMiFareCommand(commandPacket: Data([0xAF] + token)) { r2, _ in
                            let a = try! aes.decryptCBC([UInt8](r2.dropFirst()), iv: Array(token.suffix(16)))
                            log.append("mutual \(r2.first == 0x00 && a == Array(rndA.dropFirst()) + [rndA[0]])")
                            // Session key A0–3 B0–3 A12–15 B12–15; the IV starts at zero and takes the command's CMAC.
                            let sk = Array(rndA[0..<4] + rndB[0..<4] + rndA[12..<16] + rndB[12..<16])
                            let command: [UInt8] = [0xBD, 0x05, 0, 0, 0, UInt8(Self.secret.count), 0, 0]
                            let iv = try! CMAC(.aes128, key: sk).tag(command, iv: zero)
                            tag.sendMiFareCommand(commandPacket: Data(command)) { r3, _ in
                                let c = [UInt8](r3.dropFirst())
                                let plain = try! BlockCipher(.aes128, key: sk).decryptCBC(c, iv: iv)
                                let data = Array(plain.prefix(Self.secret.count))
                                let crc = Array(plain[Self.secret.count..<Self.secret.count + 4])
                                log.append(
                                    "read \(r3.first == 0x00) \(data == Self.secret) \(crc == DESFireCRC32.bytes(data + [0]))"
                                )
                                session.invalidate()
                            }
                        }
                    }
                }
            }
        }
        Self.runISO14443Session(phone, recorder)
        #expect(log.lines == ["family true", "select [0]", "mutual true", "read true true true"])
    }

    /// A DESFire with random ID (SetConfiguration option 00 bit 1) shows a fresh single-size UID `08…` (ISO/IEC
    /// 14443-3 §6.5.4) at each power-up: the phone still identifies it by GetVersion and delivers `NFCMiFareTag`
    /// `.desfire` whose `identifier` is that power-up's random UID, not the real one.
    @Test func randomIDDESFireArrivesAsDESFireWithThePowerUpsRandomUID() throws {
        let phone = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: ["TAG"]))
        let real: [UInt8] = [0x04, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36]
        let card = try DESFireEV1Tag(uid: real)
        card.random = SeededRandomSource(seed: 15)
        card.configuration.randomID = true
        phone.put(card)

        let recorder = TagSessionRecorder()
        let log = LogBox()
        let seen = LogBox()
        recorder.onDetect = { session, tags in
            guard case .miFare(let tagObject) = tags[0] else {
                log.append("not a MIFARE tag")
                session.invalidate()
                return
            }
            nonisolated(unsafe) let tag = tagObject
            log.append("family \(tag.mifareFamily == .desfire)")
            seen.append(Data(tag.identifier).map { String(format: "%02X", $0) }.joined())
            session.connect(to: tags[0]) { _ in
                // GetVersion, native: the hardware part (status AF, more frames) as from any DESFire EV1.
                tag.sendMiFareCommand(commandPacket: Data([0x60])) { r, _ in
                    log.append("version \(r.first == 0xAF && r.count == 8 && r[r.startIndex + 4] == 0x01)")
                    session.invalidate()
                }
            }
        }
        Self.runISO14443Session(phone, recorder)
        #expect(log.lines == ["family true", "version true"])
        let shown = card.activation.uid
        #expect(shown.count == 4 && shown[0] == 0x08)
        #expect(seen.lines == [shown.map { String(format: "%02X", $0) }.joined()])
    }
}
