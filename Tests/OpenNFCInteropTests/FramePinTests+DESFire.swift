import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// DESFire EV1 file-command frame pins (MF3ICD81), ISO-wrapped, counted at the reader's frontend after
/// SelectApplication and an AES authentication. docs/PROCEDURES.md ("DESFire EV1 files and transactions") derives
/// each minimum.
@Suite struct DESFireFramePinTests {
    @Test func valueBackupAndRecordCommands() throws {
        let tag = try DESFireTransactionInteropTests.tornCard()
        let (bench, s) = try DESFireTransactionInteropTests.session(tag)
        bench.frontend.resetCounts()
        try DESFireTransactionInteropTests.transaction(s)
        // SelectApplication 1 + Authenticate 2 + Credit 1 + WriteData of 100 MACed bytes (7 + 108 = 115 bytes in
        // 52-byte frames: 3) + WriteRecord of 8 enciphered bytes (7 + 16 = 23: 1) + CommitTransaction 1 = 9.
        #expect(bench.frames == 9)
        func count(_ body: () throws -> Void) rethrows -> Int {
            bench.frontend.resetCounts()
            try body()
            return bench.frames
        }
        var value: Int32 = 0
        #expect(try count { value = try s.getValue(file: 1, communication: 0x03) } == 1)
        #expect(value == 150)
        // Two 8-byte records enciphered: 16 + 4 CRC → 32 bytes, one frame.
        #expect(try count { _ = try s.readRecords(file: 3, recordSize: 8, communication: 0x03) } == 1)
        // 100 backup bytes + 8 CMAC = 108 answer bytes: ⌈108 ÷ 59⌉ = 2 frames.
        #expect(try count { _ = try s.readData(file: 2, offset: 0, length: 100, communication: 0x01) } == 2)
        #expect(
            try count {
                try s.debit(file: 1, amount: 1, communication: 0x03); try s.commitTransaction()
            } == 2)
    }

    @Test func legacyKeyCommandsAreOneFrameEach() throws {
        let tag = try DESFireLegacyKeyInteropTests.card(.tdes2)
        let (bench, s) = try DESFireLegacyKeyInteropTests.session(tag)
        let k0 = try DESFireCardKey(.tdes2, value: DESFireLegacyKeyInteropTests.value(.tdes2, 1))
        let k1 = try DESFireCardKey(.tdes2, value: DESFireLegacyKeyInteropTests.value(.tdes2, 2))
        try s.select(0x42)
        try s.authenticate(keyNumber: 0, key: k0, legacy: true)
        func count(_ body: () throws -> Void) rethrows -> Int {
            bench.frontend.resetCounts()
            try body()
            return bench.frames
        }
        // ChangeKey: keyNo + 24 cryptogram bytes (16 key + 2 + 2 CRC16, padded); ChangeKeySettings: 8 bytes;
        // GetCardUID: a 16-byte answer. One frame each (docs/PROCEDURES.md, DESFire EV1 security).
        #expect(try count { try s.changeKey(1, to: .zero(.tdes2), currentValue: k1.value) } == 1)
        #expect(try count { try s.changeKeySettings(0x0F) } == 1)
        #expect(try count { _ = try s.cardUID() } == 1)
    }

    @Test func configurationAndFileSettingsAreOneFrameEach() throws {
        let tag = try DESFireConfigurationInteropTests.card()
        let (bench, _, s) = try DESFireConfigurationInteropTests.connect(tag)
        func count(_ body: () throws -> Void) rethrows -> Int {
            bench.frontend.resetCounts()
            try body()
            return bench.frames
        }
        try s.select(0)
        try s.authenticate(keyNumber: 0, key: .zero(.aes))
        // docs/PROCEDURES.md (DESFire EV1 security): option ‖ the enciphered data, one frame each.
        #expect(try count { try s.setDefaultKey([UInt8](repeating: 0x42, count: 24), version: 1) } == 1)
        #expect(try count { try s.setATS([0x05, 0x75, 0x77, 0x81, 0x02]) } == 1)
        #expect(try count { try s.configure(formatDisabled: true, randomID: false) } == 1)
        try s.select(0x42)
        #expect(
            try count { try s.changeFileSettings(2, communication: 0, accessRights: 0xEEEE, enciphered: false) } == 1)
        try s.authenticate(keyNumber: 1, key: try DESFireCardKey(.aes, value: DESFireConfigurationInteropTests.appKey))
        #expect(
            try count { try s.changeFileSettings(1, communication: 3, accessRights: 0x1111, enciphered: true) } == 1)
    }

    /// Identification behind a random single-size UID (`08…`, ISO/IEC 14443-3 §6.5.4): a DESFire with random ID
    /// answers the wrapped GetVersion in 3 frames and is a DESFire; a Type 4 card with a random UID refuses it in 1
    /// frame and stays ISO 7816. docs/PROCEDURES.md ("Identification").
    @Test func randomIDIdentification() throws {
        let desfire = try DESFireEV1Tag(uid: DESFireConfigurationInteropTests.uid)
        desfire.random = SeededRandomSource(seed: 5)
        desfire.configuration.randomID = true
        let type4 = try Type4Tag(uid: [0x08, 1, 2, 3])
        for (tag, frames, isDESFire) in [(desfire as any VirtualTag, 3, true), (type4, 1, false)] {
            let bench = InteropBench()
            bench.field.place(tag)
            let first = try #require(try bench.frontend.poll([.nfcA]).first)
            let target = try bench.frontend.activate(first)
            #expect(target.identifier.count == 4 && target.identifier[0] == 0x08)
            bench.frontend.resetCounts()
            let id = try TagIdentifier.identify(target: target, frontend: bench.frontend)
            #expect(bench.frames == frames)
            if case .desfire = id.kind { #expect(isDESFire) } else { #expect(!isDESFire && id.kind == .iso7816) }
        }
    }
}
