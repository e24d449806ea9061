import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Card-side transcripts of SetConfiguration `5C` and ChangeFileSettings `5F` (MF3ICD81), with the cryptograms of a
/// legacy session built here (``DESFireLegacyKeyTests``'s helpers), and random ID seen through the NFC-A
/// anticollision of the virtual field.
@Suite struct DESFireConfigurationTests {
    typealias L = DESFireLegacyKeyTests
    static let zeroDES = [UInt8](repeating: 0, count: 8)

    func card() throws -> DESFireEV1Tag {
        let app = DESFireApplication(
            aid: 0x42, keySettings: 0x0F, keyCount: 0x02,
            files: [
                DESFireFile(number: 1, accessRights: 0xEEEE, contents: [1, 2, 3]),
                DESFireFile(number: 2, accessRights: 0xEEE1, contents: [4, 5]),
                DESFireFile(number: 3, accessRights: 0xEEEF, contents: [6]),
            ], keys: [.zero(.des), try DESFireKey(.des, bytes: L.desKey)])
        let t = try DESFireEV1Tag(uid: testUID, applications: [app])
        t.random = FixedRandomSource(Array(repeating: L.rndB, count: 12).flatMap { $0 })
        return t
    }

    /// Option ‖ send-mode cryptogram of data ‖ CRC16(data).
    static func option(_ o: UInt8, _ data: [UInt8], _ sk: BlockCipher, crc: [UInt8]? = nil) throws -> String {
        Hex.encode([o] + (try L.send(data + (crc ?? L.crc16(data)), sk)))
    }

    @Test func setConfigurationStatusCodesAndRandomIDAtEachActivation() throws {
        let t = try card()
        let (auth, sk) = try L.authenticate(Self.zeroDES)
        let uidPlain = testUID + L.crc16(testUID) + [UInt8](repeating: 0, count: 7)
        let uidAnswer = try sk.encryptCBC(uidPlain, iv: [UInt8](repeating: 0, count: 8))
        let s = expectTranscript(
            t,
            """
            ACTIVATE -> UID 041F5B92DA2C80 ATQA 0344 SAK 20 ATS 067577810280
            5C \(try Self.option(0, [0x02], sk)) -> AE    # needs the PICC master key's session
            \(auth)
            5C \(try Self.option(3, [0x02], sk)) -> 9E    # no option 3
            \(auth)
            5C \(try Self.option(0, [0x02], sk, crc: [0, 0])) -> 1E   # wrong CRC16
            \(auth)
            5C \(try Self.option(0, [0x04], sk)) -> 9E    # bits 2-7 are RFU
            \(auth)
            5C 00 -> 7E                                       # no cryptogram
            \(auth)
            5C \(try Self.option(2, [0x05, 0x75, 0x77, 0x81, 0x02], sk)) -> 00   # user ATS, TL first
            5C \(try Self.option(2, [0x01], sk)) -> 9E    # an ATS of TL alone
            \(auth)
            5C \(try Self.option(0, [0x02], sk)) -> 00    # random ID
            5C \(try Self.option(0, [0x00], sk)) -> 00    # a clear bit changes nothing
            60 -> AF 04010101001805
            AF -> AF 04010101041805
            AF -> 00 00000000000000 BA3498BAD0 2912          # GetVersion hides the UID
            5A 420000 -> 00
            5C \(try Self.option(0, [0x01], sk)) -> AE    # the selection ended the session
            """)
        // The next power-up draws the random UID: single size (ATQA 0304), 08 first (ISO/IEC 14443-3 §6.5.4).
        t.random = FixedRandomSource([0x11, 0x22, 0x33])
        expectTranscript(
            t,
            """
            REMOVE -> REMOVED
            ACTIVATE -> UID 08112233 ATQA 0304 SAK 20 ATS 0575778102
            ACTIVATE -> UID 08112233 ATQA 0304 SAK 20 ATS 0575778102
            """, session: s)
        t.random = FixedRandomSource([0x44, 0x55, 0x66] + L.rndB)
        expectTranscript(
            t,
            """
            REMOVE -> REMOVED
            ACTIVATE -> UID 08445566 ATQA 0304 SAK 20 ATS 0575778102
            51 -> AE                                          # the real UID needs a session
            \(auth)
            51 -> 00 \(Hex.encode(uidAnswer))                 # GetCardUID: the real UID
            """, session: s)
    }

    @Test func formatDisabledAndSettingsFrozen() throws {
        let t = try card()
        let (auth, sk) = try L.authenticate(Self.zeroDES)
        expectTranscript(
            t,
            """
            \(auth)
            5C \(try Self.option(0, [0x01], sk)) -> 00    # FormatPICC disabled
            FC -> 9D
            \(auth)
            54 \(Hex.encode(try L.send([0x07] + L.crc16([0x07]), sk))) -> 00   # configuration no longer changeable
            5C \(try Self.option(1, [UInt8](repeating: 0x11, count: 24) + [0x01], sk)) -> 9D
            """)
    }

    @Test func defaultKeyGoesToNewApplications() throws {
        let t = try card()
        let (auth, sk) = try L.authenticate(Self.zeroDES)
        let key = Array<UInt8>(0x30...0x47)
        expectTranscript(
            t,
            """
            \(auth)
            5C \(try Self.option(1, key + [0x05], sk)) -> 00
            CA 010000 0F 81 -> 00                             # an AES application
            CA 020000 0F 42 -> 00                             # a 3K3DES application with two keys
            5A 010000 -> 00
            64 00 -> 00 05
            """)
        #expect(t.applications[1].keys == [try DESFireKey(.aes, bytes: Array(key.prefix(16)), version: 5)])
        #expect(t.applications[2].keys.map(\.bytes) == [key, key])
    }

    @Test func changeFileSettingsInTheModeTheChangeRightSays() throws {
        let t = try card()
        let (auth1, sk1) = try L.authenticate(L.desKey, keyNo: 1)
        let (auth0, _) = try L.authenticate(Self.zeroDES)
        let enciphered = try L.send([0x03, 0xE1, 0xEE] + L.crc16([0x03, 0xE1, 0xEE]), sk1)
        expectTranscript(
            t,
            """
            5F 01 03 EE EE -> 9D                              # no application selected
            5A 420000 -> 00
            5F 01 01 1E E1 -> 00                              # Change free (E): plain
            F5 01 -> 00 00 01 1EE1 030000
            5F 01 02 EE EE -> 9E                              # communication 02 is no mode
            5F 01 01 EE -> 7E
            5F 03 00 EE EE -> 9D                              # Change never (F)
            5F 09 00 EE EE -> F0
            5F 02 00 EE EE -> AE                              # Change key 1: its session needed
            \(auth0)
            5F 02 \(Hex.encode(enciphered)) -> AE             # key 0 is not key 1
            \(auth1)
            5F 02 \(Hex.encode(try L.send([0x03, 0xE1, 0xEE, 0, 0], sk1))) -> 1E   # wrong CRC16
            \(auth1)
            5F 02 03 E1 EE -> 7E                              # plain bytes are no cryptogram
            \(auth1)
            5F 02 \(Hex.encode(enciphered)) -> 00             # enciphered with key 1's session
            F5 02 -> 00 00 03 E1EE 020000
            """)
        #expect(t.applications[0].files[1].accessRights == 0xEEE1)
    }
}
