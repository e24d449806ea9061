import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// The reader's DESFire EV1 file commands (OpenNFCTags `DESFireSecureSession+Files`) against the virtual card
/// (OpenNFCSimulation `DESFireMachine+Transaction`): backup, value and record files in every communication mode of
/// the EV1 and the legacy secure messaging, and the transaction under a tear at every frame.
@Suite struct DESFireTransactionInteropTests {
    static let uid: [UInt8] = [0x04, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]

    /// One authentication flavour: the key, how the card stores it, and whether `0A` is used.
    struct Flavour: Sendable, CustomStringConvertible {
        var cipher: DESFireCardKey.Cipher
        var legacy: Bool
        var description: String { (legacy ? "0A " : "") + cipher.rawValue }

        var value: [UInt8] { (0..<cipher.keyLength).map { UInt8(truncatingIfNeeded: 0x21 &* ($0 + 3)) } }
        var cardKey: DESFireKey {
            let type: DESFireKey.KeyType =
                switch cipher {
                case .des: .des
                case .tdes2: .tdes2
                case .tdes3: .tdes3
                case .aes: .aes
                }
            return try! DESFireKey(type, bytes: value)
        }
        var keyCount: UInt8 { cipher == .aes ? 0x81 : cipher == .tdes3 ? 0x41 : 0x01 }
    }

    static let flavours = [
        Flavour(cipher: .aes, legacy: false), Flavour(cipher: .tdes3, legacy: false),
        Flavour(cipher: .tdes2, legacy: false), Flavour(cipher: .des, legacy: true),
        Flavour(cipher: .tdes2, legacy: true),
    ]

    static func card(_ f: Flavour, files: [DESFireFile] = []) throws -> DESFireEV1Tag {
        let app = DESFireApplication(
            aid: 0x42, keySettings: 0x0F, keyCount: f.keyCount, files: files, keys: [f.cardKey])
        let tag = try DESFireEV1Tag(uid: uid, applications: [app])
        tag.random = SeededRandomSource(seed: 5)
        return tag
    }

    static func session(_ tag: DESFireEV1Tag) throws -> (InteropBench, DESFireSecureSession) {
        let bench = InteropBench()
        let (id, _) = try bench.connect(tag)
        let s = DESFireSecureSession(target: id.target, frontend: bench.frontend, random: SeededRandomSource(seed: 9))
        return (bench, s)
    }

    static func login(_ s: DESFireSecureSession, _ f: Flavour) throws {
        try s.select(0x42)
        try s.authenticate(keyNumber: 0, key: try DESFireCardKey(f.cipher, value: f.value), legacy: f.legacy)
    }

    @Test(arguments: flavours, [UInt8(0x00), 0x01, 0x03])
    func everyFileTypeInEveryMode(flavour: Flavour, mode: UInt8) throws {
        let tag = try Self.card(flavour)
        let (_, s) = try Self.session(tag)
        try Self.login(s, flavour)
        let value = DESFireFileSettings.Kind.value(
            lower: -50, upper: 1000, limitedCreditValue: 0, limitedCredit: true, freeGetValue: false)
        try s.createFile(1, kind: value, communication: mode, accessRights: 0x0000, value: 100)
        try s.createFile(2, kind: .backup(size: 70), communication: mode, accessRights: 0x0000)
        try s.createFile(
            3, kind: .cyclicRecord(recordSize: 12, maxRecords: 3, current: 0), communication: mode, accessRights: 0x0000
        )
        try s.createFile(
            4, kind: .linearRecord(recordSize: 5, maxRecords: 2, current: 0), communication: mode, accessRights: 0x0000)
        let settings = try s.fileSettings(1)
        #expect(settings.kind == value && settings.communication == mode && settings.typeName == "value")
        let backup = (0..<70).map { UInt8($0 ^ 0x5A) }
        try s.credit(file: 1, amount: 50, communication: mode)
        try s.debit(file: 1, amount: 170, communication: mode)
        try s.writeData(file: 2, offset: 0, data: backup, communication: mode)
        try s.writeRecord(file: 3, data: Array("first record".utf8), communication: mode)
        try s.writeRecord(file: 4, offset: 2, data: [7, 8, 9], communication: mode)
        // Nothing is visible before the commit.
        #expect(try s.getValue(file: 1, communication: mode) == 100)
        #expect(try s.readData(file: 2, offset: 0, length: 70, communication: mode) == [UInt8](repeating: 0, count: 70))
        try s.commitTransaction()
        #expect(try s.getValue(file: 1, communication: mode) == -20)
        #expect(try s.readData(file: 2, offset: 10, length: 60, communication: mode) == Array(backup[10...]))
        #expect(try s.readRecords(file: 3, recordSize: 12, communication: mode) == [Array("first record".utf8)])
        #expect(try s.readRecords(file: 4, count: 1, recordSize: 5, communication: mode) == [[0, 0, 7, 8, 9]])
        // The limited credit value is the last transaction's debits.
        if case .value(_, _, let limit, _, _) = try s.fileSettings(1).kind { #expect(limit == 170) }
        try s.limitedCredit(file: 1, amount: 170, communication: mode)
        try s.writeRecord(file: 3, data: Array("second recrd".utf8), communication: mode)
        try s.clearRecordFile(file: 4)
        try s.commitTransaction()
        #expect(try s.getValue(file: 1, communication: mode) == 150)
        #expect(
            try s.readRecords(file: 3, offset: 1, count: 1, recordSize: 12, communication: mode) == [
                Array("first record".utf8)
            ])
        #expect(tagErrorCode { _ = try s.readRecords(file: 4, recordSize: 5, communication: mode) } == .commandRejected)
        // The error ended the session: boundaries need a new one.
        try Self.login(s, flavour)
        #expect(tagErrorCode { try s.debit(file: 1, amount: 201, communication: mode) } == .commandRejected)
        try Self.login(s, flavour)
        try s.credit(file: 1, amount: 1, communication: mode)
        try s.abortTransaction()
        #expect(try s.getValue(file: 1, communication: mode) == 150)
        #expect(tag.applications[0].files[0].value == 150)
    }

    @Test func aWrongModeIsAnIntegrityError() throws {
        let f = Flavour(cipher: .aes, legacy: false)
        let tag = try Self.card(
            f,
            files: [
                .valueFile(number: 1, communicationSettings: 0x03, accessRights: 0x0000, lower: 0, upper: 9, value: 1)
            ])
        let (_, s) = try Self.session(tag)
        try Self.login(s, f)
        // Plain where the card expects an enciphered amount: the lengths disagree.
        #expect(tagErrorCode { try s.credit(file: 1, amount: 1, communication: 0x00) } == .commandRejected)
        try Self.login(s, f)
        #expect(tagErrorCode { try s.credit(file: 1, amount: 1, communication: 0x01) } == .commandRejected)
        #expect(tag.applications[0].files[0].value == 1)
    }

    /// What a read after a torn transaction saw: every file old, every file new, or (a failure) a mix.
    enum Outcome: Hashable { case old, new, mixed }

    static let oldBackup = [UInt8](repeating: 0x11, count: 100)
    static let newBackup = (0..<100).map { UInt8($0) }

    static func tornCard() throws -> DESFireEV1Tag {
        try card(
            Flavour(cipher: .aes, legacy: false),
            files: [
                .valueFile(
                    number: 1, communicationSettings: 0x03, accessRights: 0x0000, lower: 0, upper: 1000, value: 100),
                DESFireFile(
                    number: 2, communicationSettings: 0x01, accessRights: 0x0000, contents: oldBackup, kind: .backup),
                .recordFile(
                    number: 3, communicationSettings: 0x03, accessRights: 0x0000, recordSize: 8, maxRecords: 3,
                    cyclic: true,
                    records: [Array("old rec.".utf8)]),
            ])
    }

    static func transaction(_ s: DESFireSecureSession) throws {
        try login(s, Flavour(cipher: .aes, legacy: false))
        try s.credit(file: 1, amount: 50, communication: 0x03)
        try s.writeData(file: 2, offset: 0, data: newBackup, communication: 0x01)
        try s.writeRecord(file: 3, data: Array("new rec.".utf8), communication: 0x03)
        try s.commitTransaction()
    }

    static func classify(_ tag: DESFireEV1Tag) throws -> Outcome {
        let (_, s) = try session(tag)
        try login(s, Flavour(cipher: .aes, legacy: false))
        let value = try s.getValue(file: 1, communication: 0x03)
        let backup = try s.readData(file: 2, offset: 0, length: 100, communication: 0x01)
        let records = try s.readRecords(file: 3, recordSize: 8, communication: 0x03)
        if value == 100 && backup == oldBackup && records == [Array("old rec.".utf8)] { return .old }
        if value == 150 && backup == newBackup && records == [Array("old rec.".utf8), Array("new rec.".utf8)] {
            return .new
        }
        return .mixed
    }

    @Test func aTearAtEveryFrameNeverLosesCommittedValuesNorShowsUncommittedOnes() throws {
        var outcomes: [(frame: Int, outcome: Outcome)] = []
        var n = 1
        sweep: while n < 100 {
            let faults: [FaultPlan.Fault] = [
                .tear(frame: n, afterBytes: 0), .tear(frame: n, afterBytes: 1), .removeAfter(frame: n),
            ]
            for fault in faults {
                let tag = try Self.tornCard()
                let (bench, s) = try Self.session(tag)
                let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { try Self.transaction(s) }
                if let error = attempt.error {
                    #expect((error as? TagError)?.code == .rf, "frame \(n): \(error)")
                }
                if attempt.pastTheEnd { break sweep }
                let outcome = try Self.classify(tag)
                #expect(outcome != .mixed, "frame \(n), \(fault)")
                outcomes.append((n, outcome))
            }
            n += 1
        }
        let commit = n - 1
        #expect(commit > 6, "the transaction takes more than 6 frames")
        // Before the commit frame nothing new shows; the commit torn before its switch keeps the old values, torn
        // after it (or answered, then removed) the new ones.
        #expect(outcomes.filter { $0.frame < commit }.allSatisfy { $0.outcome == .old })
        #expect(outcomes.filter { $0.frame == commit }.map(\.outcome) == [.old, .new, .new])
    }
}
