import OpenNFCBytes
import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// The reader side (``DESFireSecureSession``) against a trace of a real card (``DESFireEV1Trace``): fed the RndAs
/// the real reader drew and the card's recorded answers, it must send the recorded frames byte for byte (tokens,
/// enciphered ChangeKey and ChangeKeySettings cryptograms) and accept every recorded CMAC — so its session keys,
/// IV chaining, CRC32s and CMACs agree with a real DESFire EV1, not only with our own virtual card.
@Suite struct DESFireTraceTests {
    static let target = RFTarget.nfcA(
        uid: DESFireEV1Trace.uid, sensRes: 0x0344, selRes: 0x20, ats: h("06 75 77 81 02 80"))

    /// The trace's native frames ISO-wrapped (`90 INS 00 00 [Lc data] 00` → `data 91 status`), as the session sends
    /// them. The session sends at most 52 parameter bytes a frame and the rest in `AF` frames (the trace's reader
    /// sent WriteData's 59 in one): the one place the framing, not the bytes, differs.
    static func steps(_ transcript: String) throws -> [ScriptedFrontend.Step] {
        var steps: [ScriptedFrontend.Step] = []
        for line in try Transcript.parse(transcript) {
            guard case .frame(let command) = line.input, case .frame(let answer) = line.answer else {
                Issue.record("line \(line.number) is not a frame exchange")
                continue
            }
            func wrap(_ ins: UInt8, _ data: ArraySlice<UInt8>) -> [UInt8] {
                [0x90, ins, 0x00, 0x00] + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0x00]
            }
            var params = command.dropFirst()
            var ins = command[0]
            while params.count > 52 {
                steps.append(.init(command: wrap(ins, params.prefix(52)), reply: .data([0x91, 0xAF])))
                params = params.dropFirst(52)
                ins = 0xAF
            }
            steps.append(
                .init(command: wrap(ins, params), reply: .data(Array(answer.dropFirst()) + [0x91, answer[0]])))
        }
        return steps
    }

    static func session(_ sections: [DESFireEV1Trace.Section]) throws -> (DESFireSecureSession, ScriptedFrontend) {
        let f = ScriptedFrontend(try sections.flatMap { try steps($0.transcript) })
        let random = FixedRandomSource(sections.flatMap(\.rndA).flatMap { $0 })
        return (DESFireSecureSession(target: target, frontend: f, random: random), f)
    }

    static func key(_ cipher: DESFireCardKey.Cipher, _ value: [UInt8]) throws -> DESFireCardKey {
        try DESFireCardKey(cipher, value: value)
    }

    @Test func piccLevelDESSessionApplicationsAndKeySettings() throws {
        let (s, f) = try Self.session([DESFireEV1Trace.picc])
        try s.select(0)
        #expect(try s.keyVersion(0) == 0)
        try s.authenticate(keyNumber: 0, key: .zero(.des))
        // GetVersion inside the session: its answer's CMAC is checked over all three frames.
        let version = try s.command(0x60, [], name: "GetVersion")
        #expect(
            version == DESFireEV1Trace.hardware + DESFireEV1Trace.software + DESFireEV1Trace.uid
                + DESFireEV1Trace.batch + [DESFireEV1Trace.production.week, DESFireEV1Trace.production.year])
        try s.formatPICC()
        for (aid, count) in [(0x00DE16, 0x02), (0x00DE24, 0x42), (0x00AE16, 0x82), (0xAABBCC, 0x01)]
            as [(UInt32, UInt8)]
        {
            try s.createApplication(aid, keySettings: 0x0F, keyCount: count)
        }
        #expect(try s.applicationIDs() == [0x00DE16, 0x00DE24, 0x00AE16, 0xAABBCC])
        _ = try s.command(0xDA, [0xCC, 0xBB, 0xAA], name: "DeleteApplication")
        #expect(try s.applicationIDs() == [0x00DE16, 0x00DE24, 0x00AE16])
        try s.select(0x00DE16)
        try s.authenticate(keyNumber: 0, key: .zero(.des))
        #expect(try s.keySettings() == (0x0F, 0x02))
        try s.changeKeySettings(0x0D)
        #expect(try s.keySettings() == (0x0D, 0x02))
        #expect(f.isComplete)
    }

    /// One DES-family section: key 0 from zeros to A, to B (version 10 in its parity bits), back to zeros (the IV of
    /// that ChangeKey: the CMAC of GetKeyVersion's answer); key 1 from zeros to A to B with key 0's session; then key 1
    /// authenticates.
    @Test(arguments: [
        (DESFireEV1Trace.tdes2, UInt32(0x00DE16), DESFireCardKey.Cipher.tdes2, DESFireCardKey.zero(.des)),
        (DESFireEV1Trace.tdes3, UInt32(0x00DE24), DESFireCardKey.Cipher.tdes3, DESFireCardKey.zero(.tdes3)),
    ])
    func tripleDESKeysChangedAndAuthenticated(
        section: DESFireEV1Trace.Section, aid: UInt32, cipher: DESFireCardKey.Cipher, zero: DESFireCardKey
    ) throws {
        let (s, f) = try Self.session([section])
        let (rawA, rawB) =
            cipher == .tdes2
            ? (DESFireEV1Trace.tdes2A, DESFireEV1Trace.tdes2B) : (DESFireEV1Trace.tdes3A, DESFireEV1Trace.tdes3B)
        let a = try Self.key(cipher, rawA)
        let b = try Self.key(cipher, rawB)
        try s.select(aid)
        try s.authenticate(keyNumber: 0, key: zero)
        try s.changeKey(0, to: a)
        #expect(s.keyNumber == nil)  // the key that authenticated changed: the session is over
        try s.authenticate(keyNumber: 0, key: a)
        try s.changeKey(0, to: b)
        try s.authenticate(keyNumber: 0, key: b)
        #expect(try s.keyVersion(0) == 0x10)
        try s.changeKey(0, to: zero)
        try s.authenticate(keyNumber: 0, key: zero)
        try s.changeKey(1, to: a, currentValue: zero.value)
        try s.changeKey(1, to: b, currentValue: rawA)
        try s.authenticate(keyNumber: 1, key: b)
        #expect(s.keyNumber == 1)
        #expect(f.isComplete)
    }

    @Test func aesKeysWithVersionsAndAPlainFileInAnAESSession() throws {
        let (s, f) = try Self.session([DESFireEV1Trace.aes])
        let a = try Self.key(.aes, DESFireEV1Trace.aesA)
        let b = try Self.key(.aes, DESFireEV1Trace.aesB)
        try s.select(0x00AE16)
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        try s.changeKey(0, to: a, version: 0x10)
        try s.authenticate(keyNumber: 0, key: a)
        try s.changeKey(0, to: b, version: 0x10)
        try s.authenticate(keyNumber: 0, key: b)
        #expect(try s.keyVersion(0) == 0x10)
        try s.changeKey(0, to: .zero(.aes), version: 0)
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        try s.changeKey(1, to: a, version: 0x10, currentValue: [UInt8](repeating: 0, count: 16))
        try s.changeKey(1, to: b, version: 0x10, currentValue: DESFireEV1Trace.aesA)
        try s.authenticate(keyNumber: 1, key: b)
        try s.createFile(5, kind: .standard(size: 80), communication: 0x00, accessRights: 0x0011)
        #expect(try s.fileIDs() == [5])
        #expect(
            try s.fileSettings(5)
                == DESFireFileSettings(kind: .standard(size: 80), communication: 0x00, accessRights: 0x0011))
        let data = DESFireEV1Trace.fileData
        try s.writeData(file: 5, offset: 0, data: Array(data[0..<52]))
        try s.writeData(file: 5, offset: 52, data: Array(data[52...]))
        #expect(try s.readData(file: 5, offset: 0, length: 48) == Array(data[0..<48]))
        #expect(try s.readData(file: 5, offset: 48, length: 32) == Array(data[48...]))
        try s.deleteFile(5)
        #expect(try s.fileIDs() == [])
        try s.select(0)
        try s.authenticate(keyNumber: 0, key: .zero(.des))
        try s.formatPICC()
        #expect(f.isComplete)
    }

    @Test func aWrongRecordedCMACIsRefused() throws {
        // The same AES section with one bit of GetKeyVersion's CMAC flipped: the session must refuse that answer.
        var section = DESFireEV1Trace.aes
        section.transcript = section.transcript.replacingOccurrences(
            of: "64 00 -> 00 10 8A8FA36F55CD210D", with: "64 00 -> 00 10 8A8FA36F55CD210C")
        #expect(section.transcript != DESFireEV1Trace.aes.transcript)
        let (s, _) = try Self.session([section])
        try s.select(0x00AE16)
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        try s.changeKey(0, to: try Self.key(.aes, DESFireEV1Trace.aesA), version: 0x10)
        try s.authenticate(keyNumber: 0, key: try Self.key(.aes, DESFireEV1Trace.aesA))
        try s.changeKey(0, to: try Self.key(.aes, DESFireEV1Trace.aesB), version: 0x10)
        try s.authenticate(keyNumber: 0, key: try Self.key(.aes, DESFireEV1Trace.aesB))
        #expect { try s.keyVersion(0) } throws: { "\($0)".contains("CMAC is wrong") == true }
        #expect(s.keyNumber == nil)
    }
}
