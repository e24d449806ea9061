import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// The reader's SetConfiguration and ChangeFileSettings (OpenNFCTags `DESFireSecureSession+Configuration`) against
/// the virtual card (OpenNFCSimulation `DESFireMachine+Configuration`) in EV1 (AES) and legacy sessions: random ID
/// through the NFC-A activation, the real UID by GetCardUID, the user ATS, the default key, FormatPICC disabled.
@Suite struct DESFireConfigurationInteropTests {
    static let uid: [UInt8] = [0x04, 0x27, 0x18, 0x28, 0x18, 0x28, 0x45]
    static let appKey: [UInt8] = Array(0x60...0x6F)

    /// PICC master key AES zero; application 000042 (AES, key 0 zero, key 1 ``appKey``): file 1 MACed whose Change
    /// right is key 1, file 2 with a free Change right.
    static func card() throws -> DESFireEV1Tag {
        let app = DESFireApplication(
            aid: 0x42, keySettings: 0x0F, keyCount: 0x82,
            files: [
                DESFireFile(number: 1, communicationSettings: 0x01, accessRights: 0x1111, contents: Array(0..<16)),
                DESFireFile(number: 2, accessRights: 0xEEEE, contents: [9]),
            ], keys: [.zero(.aes), try DESFireKey(.aes, bytes: appKey)])
        let tag = try DESFireEV1Tag(uid: uid, applications: [app], masterKey: .zero(.aes))
        tag.random = SeededRandomSource(seed: 21)
        return tag
    }

    static func connect(_ tag: DESFireEV1Tag) throws -> (InteropBench, IdentifiedTag, DESFireSecureSession) {
        let bench = InteropBench()
        let (id, _) = try bench.connect(tag)
        let s = DESFireSecureSession(target: id.target, frontend: bench.frontend, random: SeededRandomSource(seed: 4))
        return (bench, id, s)
    }

    @Test func randomIDShowsANewUIDAtEachActivationAndGetCardUIDTheRealOne() throws {
        let tag = try Self.card()
        let (_, first, s) = try Self.connect(tag)
        #expect(first.target.identifier == Self.uid)
        try s.select(0)
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        try s.setATS([0x05, 0x75, 0x77, 0x81, 0x02])
        try s.configure(formatDisabled: false, randomID: true)
        #expect(try s.cardUID() == Self.uid)
        var seen: Set<[UInt8]> = []
        for _ in 0..<3 {
            let (_, again, s2) = try Self.connect(tag)
            let shown = again.target.identifier
            #expect(shown.count == 4 && shown[0] == 0x08, "\(shown)")
            #expect(again.target.sensRes == 0x0304)
            #expect(again.target.ats == [0x05, 0x75, 0x77, 0x81, 0x02])
            // Identification probes GetVersion behind the random UID (ISO/IEC 14443-3 §6.5.4) and finds the
            // DESFire, whose GetVersion hides the UID (zeros).
            guard case .desfire(let version) = again.kind else {
                Issue.record("a random-ID DESFire identified as \(again.kind)")
                return
            }
            #expect(version.generation == .ev1 && version.uid == [UInt8](repeating: 0, count: 7))
            seen.insert(shown)
            try s2.select(0x42)
            #expect(tagErrorCode { _ = try s2.cardUID() } == .unsupported)  // no session: refused before sending
            try s2.authenticate(keyNumber: 1, key: try DESFireCardKey(.aes, value: Self.appKey))
            #expect(try s2.cardUID() == Self.uid)  // any key's session gives the real UID
        }
        #expect(seen.count == 3)
        // The tag file keeps the real UID and the configuration.
        let saved = try TagFile.decodeJSON(try TagFile.encodeJSON(tag))
        let reloaded = try #require(saved as? DESFireEV1Tag)
        #expect(reloaded.configuration.randomID && reloaded.configuration.ats == [0x05, 0x75, 0x77, 0x81, 0x02])
        let (_, third, s3) = try Self.connect(reloaded)
        #expect(third.target.identifier.first == 0x08)
        try s3.select(0)
        try s3.authenticate(keyNumber: 0, key: .zero(.aes))
        #expect(try s3.cardUID() == Self.uid)
    }

    @Test(arguments: [false, true])
    func formatDisabledAndTheDefaultKey(legacy: Bool) throws {
        let tag = try DESFireEV1Tag(uid: Self.uid)
        tag.random = SeededRandomSource(seed: 8)
        let (_, _, s) = try Self.connect(tag)
        try s.select(0)
        try s.authenticate(keyNumber: 0, key: .zero(.des), legacy: legacy)
        let key = (0..<24).map { UInt8(0x80 + $0) }
        try s.setDefaultKey(key, version: 3)
        try s.configure(formatDisabled: true, randomID: false)
        #expect(tagErrorCode { try s.formatPICC() } == .commandRejected)
        try s.select(0)
        try s.createApplication(0x10, keySettings: 0x0F, keyCount: 0x81)
        try s.select(0x10)
        try s.authenticate(keyNumber: 0, key: try DESFireCardKey(.aes, value: Array(key.prefix(16))))
        #expect(try s.keyVersion(0) == 3)
        #expect(tag.configuration.formatDisabled && !tag.configuration.randomID)
    }

    @Test func changeFileSettingsPlainAndEnciphered() throws {
        let tag = try Self.card()
        let (_, _, s) = try Self.connect(tag)
        try s.select(0x42)
        // File 2's Change right is free: plain, no session needed.
        try s.changeFileSettings(2, communication: 0x00, accessRights: 0xE1E1, enciphered: false)
        #expect(tag.applications[0].files[1].accessRights == 0xE1E1)
        // File 1's is key 1: enciphered in its session; a wrong session is refused and nothing changes.
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        #expect(
            tagErrorCode {
                try s.changeFileSettings(1, communication: 0x03, accessRights: 0x1110, enciphered: true)
            } == .commandRejected)
        try s.select(0x42)
        try s.authenticate(keyNumber: 1, key: try DESFireCardKey(.aes, value: Self.appKey))
        try s.changeFileSettings(1, communication: 0x03, accessRights: 0x1110, enciphered: true)
        // Now enciphered, Change by key 0: the session keeps running (the IV stayed in step).
        #expect(try s.readData(file: 1, offset: 0, length: 16, communication: 0x03) == Array(0..<16))
        let now = try s.fileSettings(1)
        #expect(now.communication == 0x03 && now.accessRights == 0x1110)
    }
}
