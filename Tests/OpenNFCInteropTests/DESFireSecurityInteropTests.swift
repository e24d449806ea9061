import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// The reader's DESFire EV1 security procedures (OpenNFCTags `DESFireSecureSession`) against the virtual card
/// (OpenNFCSimulation `DESFireEV1Tag`): authentication with every key type, CMAC and enciphered messaging, keys.
@Suite struct DESFireSecurityInteropTests {
    static let uid: [UInt8] = [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60]
    static let aesKey1: [UInt8] = Array(0x40...0x4F)
    static let secret = Array("the enciphered file's contents, 48 bytes long!!!".utf8)

    /// An application 000042 with two AES keys (0: zero, 1: ``aesKey1``): file 1 enciphered (read key 1, write
    /// key 0), file 2 MACed (read/write key 1), file 3 plain with key 1, file 4 free.
    static func card() throws -> DESFireEV1Tag {
        let keys = [DESFireKey.zero(.aes), try DESFireKey(.aes, bytes: aesKey1, version: 7)]
        let app = DESFireApplication(
            aid: 0x42, keySettings: 0x0B, keyCount: 0x82,
            files: [
                DESFireFile(number: 1, communicationSettings: 0x03, accessRights: 0x1000, contents: secret),
                DESFireFile(number: 2, communicationSettings: 0x01, accessRights: 0x1110, contents: Array(0..<20)),
                DESFireFile(number: 3, communicationSettings: 0x00, accessRights: 0x1110, contents: Array(0..<70)),
                DESFireFile(number: 4, accessRights: 0xEEEE, contents: [1, 2, 3]),
            ], keys: keys)
        let tag = try DESFireEV1Tag(uid: uid, applications: [app])
        tag.random = SeededRandomSource(seed: 42)
        return tag
    }

    static func session(_ tag: DESFireEV1Tag) throws -> (InteropBench, DESFireSecureSession) {
        let bench = InteropBench()
        let (id, _) = try bench.connect(tag)
        let s = DESFireSecureSession(target: id.target, frontend: bench.frontend, random: SeededRandomSource(seed: 7))
        return (bench, s)
    }

    @Test func aesAuthenticationThenEncipheredMACedAndPlainReads() throws {
        let tag = try Self.card()
        let (bench, s) = try Self.session(tag)
        try s.select(0x42)
        #expect(
            tagErrorCode { _ = try s.readData(file: 1, offset: 0, length: 48, communication: 0x03) } == .commandRejected
        )
        try s.authenticate(keyNumber: 1, key: try DESFireCardKey(.aes, value: Self.aesKey1))
        bench.frontend.resetCounts()
        #expect(try s.readData(file: 1, offset: 0, length: 48, communication: 0x03) == Self.secret)
        #expect(bench.frames == 2)  // 48 + 4 CRC → 64 enciphered bytes: two frames of ≤ 59
        #expect(try s.readData(file: 2, offset: 4, length: 10, communication: 0x01) == Array(4..<14))
        #expect(try s.readData(file: 3, offset: 0, length: 70) == Array(0..<70))
        #expect(try s.keyVersion(1) == 7)
        let settings = try s.keySettings()
        #expect(settings.settings == 0x0B && settings.keyCount == 0x82)
        #expect(try s.readData(file: 4, offset: 0, length: 3) == [1, 2, 3])
        #expect(try s.cardUID() == Self.uid)
    }

    @Test func encipheredAndMACedWritesLand() throws {
        let tag = try Self.card()
        let (_, s) = try Self.session(tag)
        try s.select(0x42)
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        let new = Array("written enciphered".utf8)
        try s.writeData(file: 1, offset: 5, data: new, communication: 0x03)
        #expect(Array(tag.applications[0].files[0].contents[5..<23]) == new)
        try s.authenticate(keyNumber: 1, key: try DESFireCardKey(.aes, value: Self.aesKey1))
        try s.writeData(file: 2, offset: 0, data: [9, 9, 9], communication: 0x01)
        try s.writeData(file: 3, offset: 60, data: Array(repeating: 0xAB, count: 10))
        #expect(Array(tag.applications[0].files[1].contents.prefix(3)) == [9, 9, 9])
        #expect(Array(tag.applications[0].files[2].contents.suffix(10)) == Array(repeating: 0xAB, count: 10))
        // A long plain write (chained frames) keeps the IV in step: the next answer's CMAC still checks.
        try s.writeData(file: 3, offset: 0, data: Array(repeating: 0x5A, count: 70))
        #expect(try s.keyVersion(0) == 0)
    }

    @Test func wrongKeyIsAnAuthenticationError() throws {
        let tag = try Self.card()
        let (_, s) = try Self.session(tag)
        try s.select(0x42)
        let e = tagErrorCode { try s.authenticate(keyNumber: 1, key: .zero(.aes)) }
        #expect(e == .commandRejected)
        #expect(tagErrorCode { try s.authenticate(keyNumber: 5, key: .zero(.aes)) } == .commandRejected)
        #expect(tagErrorCode { try s.authenticate(keyNumber: 0, key: .zero(.tdes2)) } == .commandRejected)
    }

    @Test(arguments: [DESFireCardKey.Cipher.des, .tdes2, .tdes3])
    func isoAuthenticationWithTheDESFamily(cipher: DESFireCardKey.Cipher) throws {
        let value = (0..<cipher.keyLength).map { UInt8(truncatingIfNeeded: 0x11 &* ($0 + 1)) }
        let keyCount: UInt8 = cipher == .tdes3 ? 0x41 : 0x01
        let type: DESFireKey.KeyType = cipher == .des ? .des : cipher == .tdes2 ? .tdes2 : .tdes3
        let app = DESFireApplication(
            aid: 0x77, keyCount: keyCount,
            files: [DESFireFile(number: 0, communicationSettings: 0x03, accessRights: 0x0000, contents: Array(0..<33))],
            keys: [try DESFireKey(type, bytes: value)])
        let tag = try DESFireEV1Tag(uid: Self.uid, applications: [app])
        let (_, s) = try Self.session(tag)
        try s.select(0x77)
        try s.authenticate(keyNumber: 0, key: try DESFireCardKey(cipher, value: value))
        #expect(try s.readData(file: 0, offset: 0, length: 33, communication: 0x03) == Array(0..<33))
        #expect(try s.keyVersion(0) == 0)
    }

    @Test func legacyAuthenticationWithTheFactoryPICCKeyFormatsTheCard() throws {
        let tag = try Self.card()
        let (_, s) = try Self.session(tag)
        try s.select(0)
        #expect(tagErrorCode { try s.formatPICC() } == .commandRejected)
        try s.select(0)
        try s.authenticate(keyNumber: 0, key: .zero(.des), legacy: true)
        #expect(try s.freeMemory() == 4096 - (48 + 20 + 70 + 3))  // EV1 4K less the file bytes
        try s.formatPICC()
        #expect(tag.applications.isEmpty)
    }

    @Test func changeKeysThenAuthenticateWithTheNewOnes() throws {
        let tag = try Self.card()
        let (_, s) = try Self.session(tag)
        try s.select(0x42)
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        // Key 1 with key 0 (another key: XOR with the current value, two CRCs).
        let newKey1 = try DESFireCardKey(.aes, value: Array(0xA0...0xAF))
        try s.changeKey(1, to: newKey1, version: 9, currentValue: Self.aesKey1)
        #expect(try s.keyVersion(1) == 9)
        // Key 0 itself: the session ends.
        let newKey0 = try DESFireCardKey(.aes, value: Array(0xB0...0xBF))
        try s.changeKey(0, to: newKey0, version: 1)
        #expect(s.keyNumber == nil)
        #expect(tagErrorCode { try s.authenticate(keyNumber: 0, key: .zero(.aes)) } == .commandRejected)
        try s.authenticate(keyNumber: 0, key: newKey0)
        try s.authenticate(keyNumber: 1, key: newKey1)
        #expect(try s.readData(file: 1, offset: 0, length: 48, communication: 0x03) == Self.secret)
        #expect(tag.applications[0].keys[1].version == 9)
        // The PICC master key becomes AES (key number 80h: AES in bits 7–6), after an ISO authentication.
        try s.select(0)
        try s.authenticate(keyNumber: 0, key: .zero(.des))
        try s.changeKey(0x80, to: .zero(.aes), version: 3)
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        #expect(try s.keyVersion(0) == 3)
        try s.changeKeySettings(0x09)
        #expect(try s.keySettings().settings == 0x09)
    }
}
