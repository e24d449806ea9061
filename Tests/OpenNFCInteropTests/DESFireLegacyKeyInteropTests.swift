import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// The reader's key commands in a legacy (`0A`) session (OpenNFCTags `DESFireSecureSession`) against the virtual
/// card (OpenNFCSimulation `DESFireMachine+Security`): ChangeKey of the authenticated and of another key,
/// ChangeKeySettings and GetCardUID with DES and 2K3DES keys, and ChangeKey torn at every frame.
@Suite struct DESFireLegacyKeyInteropTests {
    static let uid: [UInt8] = [0x04, 0x31, 0x41, 0x59, 0x26, 0x53, 0x58]

    static func value(_ cipher: DESFireCardKey.Cipher, _ seed: UInt8) -> [UInt8] {
        (0..<cipher.keyLength).map { UInt8(truncatingIfNeeded: Int(seed) &* 7 &+ $0 &* 13) }
    }

    static func cardKey(_ k: DESFireCardKey) -> DESFireKey {
        try! DESFireKey(k.cipher == .des ? .des : .tdes2, bytes: k.value)
    }

    /// Application 000042 with key 0 and key 1 of `cipher` (ChangeKey access: the master key), the PICC master
    /// key of `cipher` too.
    static func card(_ cipher: DESFireCardKey.Cipher) throws -> DESFireEV1Tag {
        let k0 = try DESFireCardKey(cipher, value: value(cipher, 1))
        let k1 = try DESFireCardKey(cipher, value: value(cipher, 2))
        let app = DESFireApplication(
            aid: 0x42, keySettings: 0x0F, keyCount: 0x02, keys: [cardKey(k0), cardKey(k1)])
        let tag = try DESFireEV1Tag(uid: uid, applications: [app], masterKey: cardKey(k0))
        tag.random = SeededRandomSource(seed: 11)
        return tag
    }

    static func session(_ tag: DESFireEV1Tag) throws -> (InteropBench, DESFireSecureSession) {
        let bench = InteropBench()
        let (id, _) = try bench.connect(tag)
        let s = DESFireSecureSession(target: id.target, frontend: bench.frontend, random: SeededRandomSource(seed: 3))
        return (bench, s)
    }

    @Test(arguments: [DESFireCardKey.Cipher.des, .tdes2])
    func changeKeysSettingsAndReadTheUID(cipher: DESFireCardKey.Cipher) throws {
        let tag = try Self.card(cipher)
        let (_, s) = try Self.session(tag)
        let k0 = try DESFireCardKey(cipher, value: Self.value(cipher, 1))
        let k1 = try DESFireCardKey(cipher, value: Self.value(cipher, 2))
        try s.select(0x42)
        try s.authenticate(keyNumber: 0, key: k0, legacy: true)
        #expect(try s.cardUID() == Self.uid)
        // Another key: the cryptogram carries new ⊕ old, so the current value is needed.
        let new1 = try DESFireCardKey(.tdes2, value: Self.value(.tdes2, 9))
        try s.changeKey(1, to: new1, currentValue: k1.value)
        try s.changeKeySettings(0x0B)
        #expect(try s.keySettings().settings == 0x0B)
        // The authenticated key: the session ends.
        let new0 = try DESFireCardKey(.des, value: Self.value(.des, 5))
        try s.changeKey(0, to: new0)
        #expect(s.keyNumber == nil)
        #expect(tagErrorCode { try s.authenticate(keyNumber: 0, key: k0, legacy: true) } == .commandRejected)
        try s.select(0x42)
        try s.authenticate(keyNumber: 0, key: new0, legacy: true)
        try s.authenticate(keyNumber: 1, key: new1, legacy: true)
        #expect(tag.applications[0].keys[1].bytes == new1.value)
        #expect(tag.applications[0].keySettings == 0x0B)
        // The PICC master key, in a legacy session too; then an ISO session sees the same key.
        try s.select(0)
        try s.authenticate(keyNumber: 0, key: k0, legacy: true)
        try s.changeKey(0, to: new1)
        try s.select(0)
        try s.authenticate(keyNumber: 0, key: new1)
        #expect(try s.cardUID() == Self.uid)
    }

    @Test func aWrongCurrentValueIsRefusedAndTheKeyStays() throws {
        let tag = try Self.card(.tdes2)
        let (_, s) = try Self.session(tag)
        try s.select(0x42)
        try s.authenticate(keyNumber: 0, key: try DESFireCardKey(.tdes2, value: Self.value(.tdes2, 1)), legacy: true)
        let wrong = [UInt8](repeating: 0x55, count: 16)
        #expect(
            tagErrorCode {
                try s.changeKey(1, to: .zero(.tdes2), currentValue: wrong)
            } == .commandRejected)
        #expect(tag.applications[0].keys[1].bytes == Self.value(.tdes2, 2))
    }

    enum Outcome: Sendable, Hashable { case old, new, third }

    /// Authenticate 0A, ChangeKey 1 then ChangeKey 0, torn at every frame: each key is afterwards its old or its new
    /// value (tried by authenticating), never a third, and key 1 is new whenever key 0 is.
    @Test(arguments: [DESFireCardKey.Cipher.des, .tdes2])
    func aTearAtEveryFrameOfChangeKeyLeavesTheOldOrTheNewKey(cipher: DESFireCardKey.Cipher) throws {
        let old0 = try DESFireCardKey(cipher, value: Self.value(cipher, 1))
        let old1 = try DESFireCardKey(cipher, value: Self.value(cipher, 2))
        let new0 = try DESFireCardKey(cipher, value: Self.value(cipher, 7))
        let new1 = try DESFireCardKey(cipher, value: Self.value(cipher, 8))
        func change(_ s: DESFireSecureSession) throws {
            try s.select(0x42)
            try s.authenticate(keyNumber: 0, key: old0, legacy: true)
            try s.changeKey(1, to: new1, currentValue: old1.value)
            try s.changeKey(0, to: new0)
        }
        func which(_ s: DESFireSecureSession, _ number: UInt8, _ old: DESFireCardKey, _ new: DESFireCardKey)
            throws -> Outcome
        {
            try s.select(0x42)
            if (try? s.authenticate(keyNumber: number, key: old, legacy: true)) != nil { return .old }
            try s.select(0x42)
            if (try? s.authenticate(keyNumber: number, key: new, legacy: true)) != nil { return .new }
            return .third
        }
        var seen: Set<[Outcome]> = []
        var n = 1
        sweep: while n < 40 {
            for fault: FaultPlan.Fault in [
                .tear(frame: n, afterBytes: 0), .tear(frame: n, afterBytes: 1), .removeAfter(frame: n),
            ] {
                let tag = try Self.card(cipher)
                let (bench, s) = try Self.session(tag)
                let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { try change(s) }
                if let error = attempt.error {
                    #expect((error as? TagError)?.code == .rf, "frame \(n): \(error)")
                }
                if attempt.pastTheEnd { break sweep }
                let (_, check) = try Self.session(tag)
                let outcome = [try which(check, 1, old1, new1), try which(check, 0, old0, new0)]
                #expect(!outcome.contains(.third), "frame \(n), \(fault): \(outcome)")
                #expect(outcome != [.old, .new], "frame \(n), \(fault): key 0 changed before key 1")
                seen.insert(outcome)
            }
            n += 1
        }
        #expect(n > 5, "select, authenticate (2), two ChangeKeys")
        #expect(seen == [[.old, .old], [.new, .old], [.new, .new]])
    }
}
