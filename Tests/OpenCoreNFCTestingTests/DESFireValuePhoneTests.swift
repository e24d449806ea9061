import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// An iOS app's own DESFire EV1 AES session over ISO-wrapped frames (`90 CMD 00 00 Lc data 00` → `data 91 status`)
/// through `sendMiFareISO7816Command`, reading an enciphered value file, then Debit + CommitTransaction natively
/// through `sendMiFareCommand` (MF3ICD81), as against a real card.
@Suite struct DESFireValuePhoneTests {
    static let key: [UInt8] = Array(0x70...0x7F)

    @Test func appAuthenticatesISOWrappedReadsAnEncipheredValueAndDebitsIt() throws {
        let phone = VirtualPhone(configuration: AppConfiguration(readerSessionFormats: ["TAG"]))
        let card = try DESFireEV1Tag(
            uid: [0x04, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46],
            applications: [
                DESFireApplication(
                    aid: 0x0A_0B_0C, keyCount: 0x81,
                    files: [
                        .valueFile(
                            number: 2, communicationSettings: 0x03, accessRights: 0x0000, lower: 0, upper: 500,
                            value: 321)
                    ],
                    keys: [try DESFireKey(.aes, bytes: Self.key)])
            ])
        phone.put(card)
        let recorder = TagSessionRecorder()
        let log = LogBox()
        let aes = try BlockCipher(.aes128, key: Self.key)
        let rndA = (0..<16).map { UInt8(0x30 + $0) }
        let zero = [UInt8](repeating: 0, count: 16)
        @Sendable func wrapped(_ code: UInt8, _ data: [UInt8]) -> NFCISO7816APDU {
            NFCISO7816APDU(
                instructionClass: 0x90, instructionCode: code, p1Parameter: 0, p2Parameter: 0, data: Data(data),
                expectedResponseLength: 256)
        }
        recorder.onDetect = { session, tags in
            guard case .miFare(let tagObject) = tags[0] else { return }
            nonisolated(unsafe) let tag = tagObject
            session.connect(to: tags[0]) { _ in
                tag.sendMiFareISO7816Command(wrapped(0x5A, [0x0C, 0x0B, 0x0A])) { _, sw1, sw2, _ in
                    log.append("select \(sw1 == 0x91 && sw2 == 0x00)")
                    tag.sendMiFareISO7816Command(wrapped(0xAA, [0x00])) { r1, _, s1, _ in
                        let ekRndB = [UInt8](r1)
                        let rndB = try! aes.decryptCBC(ekRndB, iv: zero)
                        let token = try! aes.encryptCBC(rndA + rndB.dropFirst() + [rndB[0]], iv: ekRndB)
                        tag.sendMiFareISO7816Command(wrapped(0xAF, token)) { r2, _, s2, _ in
                            let a = try! aes.decryptCBC([UInt8](r2), iv: Array(token.suffix(16)))
                            log.append("mutual \(s1 == 0xAF && s2 == 0x00 && a == Array(rndA.dropFirst()) + [rndA[0]])")
                            let sk = Array(rndA[0..<4] + rndB[0..<4] + rndA[12..<16] + rndB[12..<16])
                            let mac = try! CMAC(.aes128, key: sk)
                            let cipher = try! BlockCipher(.aes128, key: sk)
                            // GetValue: the command's CMAC moves the IV; the answer is value ‖ CRC32 enciphered.
                            let iv1 = try! mac.tag([0x6C, 0x02], iv: zero)
                            tag.sendMiFareISO7816Command(wrapped(0x6C, [0x02])) { r3, _, s3, _ in
                                let c = [UInt8](r3)
                                let plain = try! cipher.decryptCBC(c, iv: iv1)
                                let value = Int32(
                                    bitPattern: plain[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                                let crcOK = Array(plain[4..<8]) == DESFireCRC32.bytes(Array(plain[0..<4]) + [0])
                                log.append("value \(s3 == 0x00) \(value) \(crcOK)")
                                // Debit 21 natively: amount ‖ CRC32(DC 02 amount) enciphered with the IV.
                                let iv2 = Array(c.suffix(16))
                                let amount: [UInt8] = [21, 0, 0, 0]
                                var p = amount + DESFireCRC32.bytes([0xDC, 0x02] + amount)
                                p += [UInt8](repeating: 0, count: 16 - p.count)
                                let debit = try! cipher.encryptCBC(p, iv: iv2)
                                tag.sendMiFareCommand(commandPacket: Data([0xDC, 0x02] + debit)) { r4, _ in
                                    tag.sendMiFareCommand(commandPacket: Data([0xC7])) { r5, _ in
                                        log.append("debit \(r4.first == 0x00) commit \(r5.first == 0x00)")
                                        session.invalidate()
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        DESFirePhoneTests.runISO14443Session(phone, recorder)
        #expect(log.lines == ["select true", "mutual true", "value true 321 true", "debit true commit true"])
        #expect(card.applications[0].files[0].value == 300)
    }
}
