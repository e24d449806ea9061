import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Card-side transcripts of the DESFire EV1 key commands in a legacy (`0A`) session (MF3ICD40 heritage, kept by
/// the MF3ICD81): ChangeKeySettings, ChangeKey and GetCardUID, their cryptograms built here from the description
/// (CRC16 = ISO/IEC 14443-3 CRC_A, the reader's "send mode" Y_i = D(X_i ⊕ Y_i−1)), and their errors.
@Suite struct DESFireLegacyKeyTests {
    static let rndB: [UInt8] = [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7]
    static let rndA: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7]
    static let desKey: [UInt8] = [0x11, 0x22, 0x35, 0x46, 0x59, 0x6A, 0x7D, 0x8E]

    static func rotated(_ b: [UInt8]) -> [UInt8] { Array(b.dropFirst()) + [b[0]] }

    static func crc16(_ data: [UInt8]) -> [UInt8] {
        let c = CRC.crcA(data)
        return [UInt8(c & 0xFF), UInt8(c >> 8)]
    }

    /// The send mode over zero-padded `plain`.
    static func send(_ plain: [UInt8], _ k: BlockCipher) throws -> [UInt8] {
        var p = plain
        while p.count % 8 != 0 { p.append(0) }
        var previous = [UInt8](repeating: 0, count: 8)
        var out: [UInt8] = []
        for i in stride(from: 0, to: p.count, by: 8) {
            previous = try k.decryptECB(zip(p[i..<i + 8], previous).map { $0 ^ $1 })
            out += previous
        }
        return out
    }

    /// A 0A authentication with `key` (`keyNo` of the selected level) as transcript lines, and the session cipher.
    static func authenticate(_ key: [UInt8], keyNo: UInt8 = 0) throws -> (String, BlockCipher) {
        let k = try BlockCipher(key.count == 8 ? .des : .tdes2, key: key)
        let challenge = try k.encryptECB(rndB)
        let d1 = try k.decryptECB(rndA)
        let d2 = try k.decryptECB(zip(rotated(rndB), d1).map { $0 ^ $1 })
        let answer = try k.encryptECB(rotated(rndA))
        let single = key.count == 8 || key[0..<8] == key[8..<16]
        let sk = Array(rndA[0..<4] + rndB[0..<4]) + (single ? [] : Array(rndA[4..<8] + rndB[4..<8]))
        let lines = """
            0A \(Hex.encode([keyNo])) -> AF \(Hex.encode(challenge))
            AF \(Hex.encode(d1 + d2)) -> 00 \(Hex.encode(answer))
            """
        return (lines, try BlockCipher(single ? .des : .tdes2, key: sk))
    }

    func card(piccKey: DESFireKey = .zero(.des), appKeys: [DESFireKey]? = nil, settings: UInt8 = 0x0F) throws
        -> DESFireEV1Tag
    {
        let keys = try appKeys ?? [DESFireKey(.tdes2, bytes: Array(0x00...0x0F)), .zero(.des)]
        let app = DESFireApplication(aid: 0x42, keySettings: settings, keyCount: UInt8(keys.count), keys: keys)
        let t = try DESFireEV1Tag(uid: testUID, applications: [app], masterKey: piccKey)
        t.random = FixedRandomSource(Array(repeating: Self.rndB, count: 8).flatMap { $0 })
        return t
    }

    @Test func theCRC16IsCRCAOfAPublicTrace() {
        // A public ChangeKeySettings trace (mifare.net DESFire forum, "the problem with ChangeKey at DesFire EV1",
        // 2016) gives the CRC16 of the settings byte 0F as 09 A9, low byte first.
        #expect(Self.crc16([0x0F]) == [0x09, 0xA9])
    }

    @Test func changeKeySettingsAndGetCardUIDAtPICCLevel() throws {
        let t = try card()
        let (auth, sk) = try Self.authenticate([UInt8](repeating: 0, count: 8))
        let settings = try Self.send([0x09] + Self.crc16([0x09]), sk)
        let badCRC = try Self.send([0x09, 0x00, 0x00], sk)
        let badPadding = try Self.send([0x09] + Self.crc16([0x09]) + [0, 0, 0, 0, 1], sk)
        var uid = testUID + Self.crc16(testUID)
        while uid.count % 8 != 0 { uid.append(0) }
        let uidAnswer = try sk.encryptCBC(uid, iv: [UInt8](repeating: 0, count: 8))
        expectTranscript(
            t,
            """
            51 -> AE                                      # GetCardUID needs a session
            54 \(Hex.encode(settings)) -> AE              # ChangeKeySettings too
            \(auth)
            54 \(Hex.encode(badCRC)) -> 1E                # wrong CRC16: integrity error, the session ends
            54 \(Hex.encode(settings)) -> AE
            \(auth)
            54 \(Hex.encode(badPadding)) -> 1E            # padding must be zero
            \(auth)
            54 00 -> 7E                                   # not one block
            \(auth)
            54 \(Hex.encode(settings)) -> 00              # legacy: no MAC on the answer
            45 -> 00 09 01
            51 -> 00 \(Hex.encode(uidAnswer))             # E-CBC(UID ‖ CRC16 ‖ zeros), zero IV
            """)
    }

    @Test func settingsNotChangeableAndNotTheMasterKey() throws {
        let t = try card(settings: 0x07)
        let (auth0, sk0) = try Self.authenticate(Array(0x00...0x0F))
        let (auth1, sk1) = try Self.authenticate([UInt8](repeating: 0, count: 8), keyNo: 1)
        expectTranscript(
            t,
            """
            5A 420000 -> 00
            \(auth1)
            54 \(Hex.encode(try Self.send([0x0F] + Self.crc16([0x0F]), sk1))) -> AE   # key 1 is not the master key
            \(auth0)
            54 \(Hex.encode(try Self.send([0x0F] + Self.crc16([0x0F]), sk0))) -> 9D   # bit 3 clear: frozen settings
            """)
    }

    @Test func changeTheAuthenticatedKeyAndAnotherKey() throws {
        let t = try card()
        let master = Array<UInt8>(0x00...0x0F)
        let (auth0, sk) = try Self.authenticate(master)
        // Key 1 (DES zero) becomes a 2K3DES key: (new ⊕ old) ‖ CRC16 of that ‖ CRC16(new), padded to 24.
        let new1 = Array<UInt8>(0x20...0x2F)
        let c1 = try Self.send(new1 + Self.crc16(new1) + Self.crc16(new1), sk)
        let wrongSecond = try Self.send(new1 + Self.crc16(new1) + [0, 0], sk)
        // Key 0 itself: new ‖ CRC16(new).
        let new0 = Self.desKey + Self.desKey
        let (authNew, _) = try Self.authenticate(Self.desKey)
        expectTranscript(
            t,
            """
            5A 420000 -> 00
            \(auth0)
            C4 01 \(Hex.encode(wrongSecond)) -> 1E        # the new key's CRC16 is missing
            \(auth0)
            C4 01 \(Hex.encode(c1.prefix(16))) -> 7E      # too short for key ‖ two CRCs
            \(auth0)
            C4 05 \(Hex.encode(c1)) -> 40                 # no key 5
            C4 01 \(Hex.encode(c1)) -> AE                 # the error ended the session
            \(auth0)
            C4 01 \(Hex.encode(c1)) -> 00
            64 01 -> 00 \(Hex.encode([Self.versionBits(new1)]))   # 55: the version rides in the parity bits
            C4 00 \(Hex.encode(try Self.send(new0 + Self.crc16(new0), sk))) -> 00
            64 00 -> 00 \(Hex.encode([Self.versionBits(Self.desKey)]))
            \(authNew)
            """)
        #expect(t.applications[0].keys[1].bytes == new1)
        #expect(t.applications[0].keys[0].bytes == Self.desKey)  // K ‖ K is stored as single DES
    }

    /// The version a DES key carries in its bytes' least significant bits (MF3ICD81).
    static func versionBits(_ k: [UInt8]) -> UInt8 { k.prefix(8).reduce(0) { $0 << 1 | $1 & 1 } }
}
