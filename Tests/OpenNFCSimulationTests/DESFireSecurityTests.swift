import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Card-side transcripts of the virtual DESFire EV1's authentication and key commands (MF3ICD81).
@Suite struct DESFireSecurityTests {
    static let uid: [UInt8] = [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
    static let rndB = (0..<16).map { UInt8(0xB0 + $0) }

    func tag() throws -> DESFireEV1Tag {
        let app = DESFireApplication(
            aid: 0x10, keyCount: 0x82,
            files: [DESFireFile(number: 1, communicationSettings: 0x03, accessRights: 0x1FFF, contents: [7, 7])],
            keys: [.zero(.aes), try DESFireKey(.aes, bytes: Array(0x00...0x0F), version: 4)])
        let t = try DESFireEV1Tag(uid: Self.uid, applications: [app])
        t.random = FixedRandomSource(Self.rndB)
        return t
    }

    @Test func aesAuthenticationFramesAndErrors() throws {
        let t = try tag()
        let key = Array<UInt8>(0x00...0x0F)
        let aes = try BlockCipher(.aes128, key: key)
        let zero = [UInt8](repeating: 0, count: 16)
        // The card's challenge: ek(RndB) with IV 0; the reader's token: ek(RndA ‖ RndB') chained from it.
        let ekRndB = try aes.encryptCBC(Self.rndB, iv: zero)
        let rndA = [UInt8](repeating: 0xA5, count: 16)
        let token = try aes.encryptCBC(rndA + Self.rndB.dropFirst() + [Self.rndB[0]], iv: ekRndB)
        let answer = try aes.encryptCBC(Array(rndA.dropFirst()) + [rndA[0]], iv: Array(token.suffix(16)))
        expectTranscript(
            t,
            """
            AA 01 -> 40                                   # the PICC has one key
            AA 00 -> AE                                   # the PICC master key is DES: AA needs AES
            5A 100000 -> 00
            AA 05 -> 40                                   # no such key
            1A 00 -> AE                                   # an AES key needs AA
            AA 0102 -> 7E
            AA 01 -> AF \(Hex.encode(ekRndB))
            AF \(Hex.encode(token)) -> 00 \(Hex.encode(answer))
            """)
    }

    @Test func wrongTokenAndUnauthenticatedAccess() throws {
        let t = try tag()
        expectTranscript(
            t,
            """
            5A 100000 -> 00
            BD 01 000000 000000 -> AE                     # read key 1 needed
            64 01 -> 00 04                                # GetKeyVersion needs no authentication
            51 -> AE                                      # GetCardUID needs a session
            """)
        // Any 32 bytes that do not carry RndB' are refused with AE.
        let s = TagLineSession(tag: t)
        s.activate()
        _ = s.answer("5A 100000")
        #expect(s.answer("AA 01").hasPrefix("AF"))
        #expect(s.answer("AF " + String(repeating: "00", count: 32)) == "AE")
        #expect(s.answer("AF") == "1C")  // no pending exchange any more
    }
}
