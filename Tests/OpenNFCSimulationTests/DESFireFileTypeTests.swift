import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import Testing

/// Card-side transcripts of the virtual DESFire EV1's backup, value and record files and their transaction
/// (MF3ICD81 functional description), natively framed; free access, so everything travels plain.
@Suite struct DESFireFileTypeTests {
    static let uid: [UInt8] = [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]

    /// An empty application 000010 (factory key settings: free creation) on a fresh card.
    func blank() throws -> DESFireEV1Tag {
        try DESFireEV1Tag(uid: Self.uid, applications: [DESFireApplication(aid: 0x10)])
    }

    @Test func createEveryFileTypeAndReadTheirSettings() throws {
        let t = try blank()
        expectTranscript(
            t,
            """
            CB 01 00 EEEE 200000 -> 9D                    # no application selected
            5A 100000 -> 00
            CB 01 00 EEEE 200000 -> 00                    # backup data file, 32 bytes
            CC 02 00 EEEE 00000000 E8030000 64000000 01 -> 00   # value 0…1000, holding 100, limited credit on
            CC 03 00 EEEE 0A000000 05000000 07000000 00 -> 9E   # lower above upper
            CC 03 00 EEEE 00000000 05000000 07000000 00 -> 9E   # value above upper
            CC 03 00 EEEE 00000000 05000000 01000000 04 -> 9E   # unknown flag bit
            CC 03 00 EEEE 00000000 05000000 01 -> 7E            # short
            C1 04 00 EEEE 100000 030000 -> 00             # linear: 3 records of 16 bytes
            C0 05 00 EEEE 080000 040000 -> 00             # cyclic: 4 (keeps 3) of 8 bytes
            C0 06 00 EEEE 080000 010000 -> 9E             # a cyclic file needs 2 records at least
            C1 06 00 EEEE 000000 010000 -> 9E             # record size 0
            C1 04 00 EEEE 100000 030000 -> DE             # duplicate
            C1 20 00 EEEE 100000 030000 -> 9E             # file number 32
            C1 07 02 EEEE 100000 030000 -> 9E             # communication byte 02
            C1 07 00 EEEE FFFFFF 030000 -> 0E             # larger than the chip
            6F -> 00 0102 0405
            F5 01 -> 00 01 00 EEEE 200000
            F5 02 -> 00 02 00 EEEE 00000000 E8030000 00000000 01
            F5 04 -> 00 03 00 EEEE 100000 030000 000000
            F5 05 -> 00 04 00 EEEE 080000 040000 000000
            6E -> 00 8C 0F 00                             # 4096 − (32 + 4 + 48 + 32) = 3980
            """)
    }

    @Test func valueFileCreditDebitCommitAndAbort() throws {
        let t = try blank()
        expectTranscript(
            t,
            """
            5A 100000 -> 00
            CC 02 00 EEEE 00000000 E8030000 64000000 01 -> 00
            6C 02 -> 00 64000000                          # 100
            0C 02 32000000 -> 00                          # credit 50: pending
            6C 02 -> 00 64000000                          # GetValue answers the committed value
            DC 02 14000000 -> 00                          # debit 20
            C7 -> 00                                      # commit: 130
            6C 02 -> 00 82000000
            F5 02 -> 00 02 00 EEEE 00000000 E8030000 14000000 01   # limited credit value = the debits: 20
            DC 02 83000000 -> BE                          # 131 would go below 0
            0C 02 67030000 -> BE                          # 130 + 871 > 1000
            0C 02 FFFFFFFF -> 9E                          # negative amount
            0C 02 05000000 -> 00
            A7 -> 00                                      # abort: the credit is gone
            C7 -> 00                                      # nothing to commit
            6C 02 -> 00 82000000
            0C 02 05 -> 7E
            6C 07 -> F0
            6C 22 -> 9E
            """)
    }

    @Test func limitedCreditFollowsTheLastDebits() throws {
        let t = try blank()
        expectTranscript(
            t,
            """
            5A 100000 -> 00
            CC 02 00 EEEE 00000000 E8030000 64000000 01 -> 00
            1C 02 01000000 -> BE                          # no debits yet: limited credit value 0
            DC 02 0A000000 -> 00
            1C 02 01000000 -> 9D                          # not with a debit in the same transaction
            C7 -> 00                                      # 90, limited credit value 10
            1C 02 0B000000 -> BE                          # above 10
            1C 02 0A000000 -> 00
            1C 02 01000000 -> 9D                          # once per transaction
            C7 -> 00
            6C 02 -> 00 64000000                          # 100 again
            F5 02 -> 00 02 00 EEEE 00000000 E8030000 00000000 01   # used up
            CC 03 00 EEEE 00000000 E8030000 00000000 00 -> 00
            1C 03 00000000 -> 9D                          # limited credit not enabled on file 3
            """)
    }

    @Test func freeGetValueAndAccessRights() throws {
        let app = DESFireApplication(
            aid: 0x10,
            files: [
                .valueFile(number: 1, accessRights: 0x1230, lower: 0, upper: 10, value: 3, freeGetValue: true),
                .valueFile(number: 2, accessRights: 0x1230, lower: 0, upper: 10, value: 3),
                .valueFile(number: 3, accessRights: 0xFFFF, lower: 0, upper: 10, value: 3),
                .recordFile(number: 4, accessRights: 0x1230, recordSize: 4, maxRecords: 2, records: [[1, 2, 3, 4]]),
            ])
        let t = try DESFireEV1Tag(uid: Self.uid, applications: [app])
        expectTranscript(
            t,
            """
            5A 100000 -> 00
            6C 01 -> 00 03000000                          # free GetValue
            6C 02 -> AE                                   # keys 1, 2 or 3
            5A 100000 -> 00
            DC 01 01000000 -> AE                          # debit is not free
            5A 100000 -> 00
            6C 03 -> 9D                                   # never
            5A 100000 -> 00
            BB 04 000000 000000 -> AE
            5A 100000 -> 00
            BD 01 000000 000000 -> 9D                     # ReadData on a value file
            5A 100000 -> 00
            6C 04 -> 9D                                   # GetValue on a record file
            5A 100000 -> 00
            3B 01 000000 010000 00 -> 9D                  # WriteRecord on a value file
            """)
    }

    @Test func linearRecordFile() throws {
        let t = try blank()
        expectTranscript(
            t,
            """
            5A 100000 -> 00
            C1 04 00 EEEE 040000 020000 -> 00             # 2 records of 4 bytes
            BB 04 000000 000000 -> BE                     # no records
            3B 04 000000 020000 AAAA -> 00
            3B 04 020000 020000 BBBB -> 00                # same record, second half
            BB 04 000000 000000 -> BE                     # not committed yet
            C7 -> 00
            BB 04 000000 000000 -> 00 AAAABBBB
            3B 04 030000 020000 CCCC -> BE                # past the 4-byte record
            3B 04 000000 010000 01 -> 00
            C7 -> 00
            F5 04 -> 00 03 00 EEEE 040000 020000 020000
            BB 04 000000 000000 -> 00 AAAABBBB 01000000   # oldest first
            BB 04 000000 010000 -> 00 01000000            # the newest
            BB 04 010000 010000 -> 00 AAAABBBB            # one older
            BB 04 010000 020000 -> BE                     # past the oldest
            BB 04 020000 000000 -> BE
            3B 04 000000 010000 02 -> BE                  # full
            EB 04 -> 00
            3B 04 000000 010000 02 -> 9D                  # not after a clear in the same transaction
            BB 04 000000 000000 -> 00 AAAABBBB 01000000   # clear pending
            C7 -> 00
            BB 04 000000 000000 -> BE
            F5 04 -> 00 03 00 EEEE 040000 020000 000000
            """)
    }

    @Test func cyclicRecordFileOverwritesTheOldest() throws {
        let t = try blank()
        var script = "5A 100000 -> 00\nC0 05 00 EEEE 010000 030000 -> 00  # keeps 2 one-byte records\n"
        for b in 1...4 { script += "3B 05 000000 010000 0\(b) -> 00\nC7 -> 00\n" }
        script += """
            BB 05 000000 000000 -> 00 0304
            F5 05 -> 00 04 00 EEEE 010000 030000 020000
            """
        expectTranscript(t, script)
    }

    @Test func backupFileWritesWaitForCommit() throws {
        let t = try blank()
        let s = expectTranscript(
            t,
            """
            5A 100000 -> 00
            CB 01 00 EEEE 040000 -> 00
            3D 01 000000 020000 1122 -> 00
            BD 01 000000 000000 -> 00 00000000            # committed contents
            3D 01 020000 020000 3344 -> 00
            C7 -> 00
            BD 01 000000 000000 -> 00 11223344
            3D 01 000000 010000 FF -> 00
            5A 100000 -> 00                               # selecting aborts
            C7 -> 00
            BD 01 000000 000000 -> 00 11223344
            3D 01 000000 010000 FF -> 00
            ACTIVATE -> UID 04010203040506 ATQA 0344 SAK 20 ATS 067577810280
            """)
        expectTranscript(
            t,
            """
            5A 100000 -> 00
            C7 -> 00                                      # re-activation aborted it
            BD 01 000000 000000 -> 00 11223344
            3D 01 000000 010000 EE -> 00
            AA 00 -> AE                                   # an authentication aborts too (DES key: AE)
            C7 -> 00
            BD 01 000000 000000 -> 00 11223344
            A7 -> 00
            5A 000000 -> 00
            C7 -> 9D                                      # no application
            A7 -> 9D
            """, session: s)
    }

    @Test func commitIsAtomicUnderTearing() throws {
        // Torn before the switch: the old values; torn after it: all new ones. Never a mix.
        for tear in [0, 1] {
            let t = try blank()
            expectTranscript(
                t,
                """
                5A 100000 -> 00
                CB 01 00 EEEE 020000 -> 00
                CC 02 00 EEEE 00000000 E8030000 64000000 00 -> 00
                C1 03 00 EEEE 010000 020000 -> 00
                3D 01 000000 020000 ABCD -> 00
                0C 02 01000000 -> 00
                3B 03 000000 010000 07 -> 00
                """)
            #expect(t.receive([0xC7], tearAfter: tear) == .silence)
            let files = t.applications[0].files
            #expect(files[0].contents == (tear == 0 ? [0, 0] : [0xAB, 0xCD]))
            #expect(files[1].value == (tear == 0 ? 100 : 101))
            #expect(files[2].records == (tear == 0 ? [] : [[7]]))
        }
        // A tear on any other frame loses the open transaction.
        let t = try blank()
        expectTranscript(
            t,
            """
            5A 100000 -> 00
            CC 02 00 EEEE 00000000 E8030000 64000000 00 -> 00
            0C 02 01000000 -> 00
            """)
        #expect(t.receive([0x6C, 0x02], tearAfter: 0) == .silence)
        #expect(t.receive([0xC7], tearAfter: nil) == .data([0x00]))
        #expect(t.applications[0].files[0].value == 100)
    }

    @Test func hostileFramesNeverTrap() throws {
        let t = try blank()
        let g = SeededRandomSource(seed: 99)
        let s = TagLineSession(tag: t)
        s.activate()
        _ = s.answer("5A100000")
        _ = s.answer("CC0200EEEE00000000E80300006400000001")
        _ = s.answer("C10400EEEE040000020000")
        _ = s.answer("CB0100EEEE040000")
        for code: UInt8 in [0xCB, 0xCC, 0xC1, 0xC0, 0x6C, 0x0C, 0xDC, 0x1C, 0x3B, 0xBB, 0xEB, 0xC7, 0xA7] {
            for n in 0..<24 {
                let frame = [code] + g.bytes(n)
                let answer = t.receive(frame, tearAfter: nil)
                guard case .data(let bytes) = answer else {
                    Issue.record("\(Hex.encode(frame)) got no answer")
                    continue
                }
                #expect(!bytes.isEmpty)
            }
        }
    }
}

/// The new file types in tag files (docs/TAG-FILES.md): a lossless round trip and clear errors.
@Suite struct DESFireFileTypeTagFileTests {
    @Test func everyFileTypeRoundTrips() throws {
        let app = DESFireApplication(
            aid: 0x10, keyCount: 0x81,
            files: [
                DESFireFile(
                    number: 1, communicationSettings: 0x01, accessRights: 0x0000, contents: [1, 2, 3], kind: .backup),
                .valueFile(
                    number: 2, communicationSettings: 0x03, accessRights: 0x1230, lower: -5, upper: 500, value: 42,
                    limitedCredit: true, freeGetValue: true, limitedCreditValue: 7),
                .recordFile(number: 3, recordSize: 2, maxRecords: 4, records: [[1, 2], [3, 4]]),
                .recordFile(number: 4, recordSize: 1, maxRecords: 3, cyclic: true, records: [[9]]),
            ], keys: [try DESFireKey(.aes, bytes: Array(0..<16), version: 3)])
        let tag = try DESFireEV1Tag(uid: DESFireFileTypeTests.uid, applications: [app])
        let text = try TagFile.encodeJSON(tag)
        #expect(text.contains("\"type\": \"cyclic-record\"") || text.contains("\"type\":\"cyclic-record\""))
        let back = try #require(try TagFile.decodeJSON(text) as? DESFireEV1Tag)
        #expect(back.applications == tag.applications)
    }

    @Test func badFileTypesAreNamed() throws {
        let head = #""format":"opennfc-tag","version":1,"uid":"04010203040506","chip":"desfire-ev1""#
        func error(_ files: String) -> String {
            do {
                _ = try TagFile.decodeJSON(
                    #"{\#(head),"desfire":{"applications":[{"aid":"000010","files":[\#(files)]}]}}"#)
                return "no error"
            } catch {
                return error.description
            }
        }
        #expect(error(#"{"number":1,"type":"purse"}"#).contains("desfire.applications[0].files[0].type"))
        #expect(
            error(#"{"number":1,"type":"value","lowerLimit":0,"upperLimit":5,"value":9}"#)
                .contains("desfire.applications[0].files[0].value"))
        #expect(
            error(#"{"number":1,"type":"cyclic-record","recordSize":2,"maxRecords":2,"records":["0102","0304"]}"#)
                .contains("2 records, the file keeps 1"))
        #expect(
            error(#"{"number":1,"type":"linear-record","recordSize":2,"maxRecords":2,"records":["010203"]}"#)
                .contains("records[0]"))
    }
}
