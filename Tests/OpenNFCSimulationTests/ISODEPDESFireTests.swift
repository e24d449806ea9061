import OpenNFCBytes
import OpenNFCSimulation
import Testing

@Suite struct ISODEPDESFireTests {
    static func ndefCard(_ message: [UInt8] = nfcpyURIMessage) throws -> DESFireEV1Tag {
        try DESFireEV1Tag.ndefFormatted(uid: testUID, holding: message)
    }

    /// 128 bytes 00 01 … 7F in file 3 of application 123456 (free access), for chaining tests.
    static func dataCard(accessRights: UInt16 = 0xEEEE) throws -> DESFireEV1Tag {
        let file = DESFireFile(number: 3, accessRights: accessRights, contents: (0..<128).map { UInt8($0) })
        return try DESFireEV1Tag(uid: testUID, applications: [DESFireApplication(aid: 0x123456, files: [file])])
    }

    static func hexRange(_ r: Range<Int>) -> String { Hex.encode(r.map { UInt8($0) }) }

    @Test func activation() throws {
        let tag = try Self.ndefCard()
        #expect(tag.chip == "desfire-ev1")
        #expect(tag.activation.sensRes == 0x0344)
        #expect(tag.activation.selRes == 0x20)
        #expect(tag.activation.ats == [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        #expect(throws: ISODEPCardError.self) { try DESFireEV1Tag(uid: [1, 2, 3, 4]) }
    }

    /// A real EV1 4K GetVersion trace (a public DESFire unit-test trace; layout NXP MF3ICD81 §9), ISO-wrapped.
    @Test func getVersionWrappedMatchesTheRealTrace() throws {
        let tag = try DESFireEV1Tag(uid: testUID)
        playISODEP(
            tag,
            """
            9060000000 -> 04 01 01 01 00 18 05 91AF                           # GetVersion: hardware
            90AF000000 -> 04 01 01 01 04 18 05 91AF                           # AdditionalFrame: software
            90AF000000 -> 04 1F 5B 92 DA 2C 80 BA 34 98 BA D0 29 12 9100      # AdditionalFrame: UID, batch, date
            90AF000000 -> 911C                                                # nothing pending
            905A00000300000000 -> 9100                                        # SelectApplication PICC
            """)
    }

    @Test func getVersionNative() throws {
        let tag = try DESFireEV1Tag.ndefFormatted(uid: testUID, holding: [], storage: .size8K)
        playISODEP(
            tag,
            """
            60   -> AF 04 01 01 01 00 1A 05                                   # GetVersion (8K storage byte 1A)
            AF   -> AF 04 01 01 01 04 1A 05                                   # software
            AF   -> 00 04 1F 5B 92 DA 2C 80 BA 34 98 BA D0 29 12              # production
            6000 -> 7E                                                        # GetVersion with a parameter
            """)
    }

    @Test func applicationsAndFiles() throws {
        let tag = try Self.ndefCard()
        playISODEP(
            tag,
            """
            6A           -> 00 010000                  # GetApplicationIDs: 000001 (LE)
            6F           -> 9D                         # GetFileIDs at PICC level
            45           -> 00 0F01                    # GetKeySettings of the PICC
            5A 020000    -> A0                         # SelectApplication of a missing AID
            5A 0100      -> 7E                         # AID of 2 bytes
            5A 010000    -> 00                         # SelectApplication 000001
            6A           -> 9D                         # GetApplicationIDs inside an application
            6F           -> 00 0102                    # GetFileIDs
            45           -> 00 0F21                    # GetKeySettings: 0F, one key + ISO ids
            F5 01        -> 00 00 00 EEEE 0F0000       # GetFileSettings CC: std, plain, free, 15 bytes
            F5 02        -> 00 00 00 EEEE 001000       # GetFileSettings NDEF: 4096 bytes
            F5 07        -> F0                         # no file 7
            F5 20        -> 9E                         # file number 32
            F5           -> 7E                         # missing file number
            BD 01 000000 000000 -> 00 000F 20 003B 0034 0406 E104 1000 0000 # ReadData CC, whole file
            BD 02 000000 100000 -> 00 000E D1010A55036E666370792E6F7267   # ReadData NDEF, 16 bytes
            """)
    }

    @Test func getApplicationIDsChainsAfter19() throws {
        let apps = (1...20).map { DESFireApplication(aid: UInt32($0)) }
        let tag = try DESFireEV1Tag(uid: testUID, applications: apps)
        let first = (1...19).map { Hex.encode([UInt8($0), 0, 0]) }.joined()
        playISODEP(
            tag,
            """
            6A -> AF \(first)          # 19 AIDs
            AF -> 00 140000            # the 20th
            """)
    }

    @Test func readDataChainsIn59ByteFrames() throws {
        let tag = try Self.dataCard()
        playISODEP(
            tag,
            """
            BD 03 000000 000000 -> 9D                                        # no application selected
            5A 563412           -> 00                                        # SelectApplication 123456
            BD 03 000000 000000 -> AF \(Self.hexRange(0..<59))               # ReadData whole file: frame 1
            AF                  -> AF \(Self.hexRange(59..<118))             # frame 2
            AF                  -> 00 \(Self.hexRange(118..<128))            # last frame
            AF                  -> 1C                                        # chain finished
            BD 03 7F0000 000000 -> 00 7F                                     # last byte, length 0 = to the end
            BD 03 800000 000000 -> BE                                        # offset = size
            BD 03 7F0000 020000 -> BE                                        # runs past the end
            BD 04 000000 000000 -> F0                                        # no file 4
            BD 03 000000 0000   -> 7E                                        # parameters too short
            BD 03 000000 3C0000 -> AF \(Self.hexRange(0..<59))               # 60 bytes: frame 1
            AF 00               -> 7E                                        # AF with data while reading
            AF                  -> 1C                                        # the chain was abandoned
            """)
        let wrapped = try Self.dataCard()
        playISODEP(
            wrapped,
            """
            905A00000356341200          -> 9100                               # SelectApplication, wrapped
            90BD000007030000003C000000  -> \(Self.hexRange(0..<59)) 91AF      # ReadData 60 bytes, wrapped
            90AF000000                  -> 3B 9100                            # last byte
            90BD000107030000003C000000  -> 6A86                               # P1-P2 not 0000
            90BD000007030000003C000001  -> 6700                               # Le not 00
            90BD0000070300000000000000  -> \(Self.hexRange(0..<59)) 91AF      # whole file
            905A0000035634120000        -> 6700                               # malformed (two bytes after data)
            90AF00000000                -> 6700                               # 6 bytes: malformed
            90AF000000                  -> \(Self.hexRange(59..<118)) 91AF    # the chain survived malformed frames
            """)
    }

    @Test func writeDataSingleAndChained() throws {
        let tag = try Self.dataCard()
        let fiftyTwo = Self.hexRange(100..<152)
        playISODEP(
            tag,
            """
            5A 563412                   -> 00                                # SelectApplication 123456
            3D 03 000000 040000 A1A2A3A4 -> 00                               # WriteData 4 bytes in one frame
            BD 03 000000 040000         -> 00 A1A2A3A4                       # read back
            3D 03 100000 400000 \(fiftyTwo) -> AF                            # 64 bytes: 52 in the first frame
            AF 0102030405060708090A0B0C -> 00                                # the last 12 bytes
            BD 03 4C0000 040000         -> 00 090A0B0C                       # committed
            3D 03 000000 020000 B1B2B3  -> 7E                                # more data than length
            3D 03 7E0000 030000 C1C2C3  -> BE                                # past the end
            3D 03 000000 000000         -> 7E                                # length 0
            3D 03 000000 040000 D1D2    -> AF                                # half of it
            60                          -> AF 04 01 01 01 00 18 05           # another command abandons the write
            BD 03 000000 040000         -> 00 A1A2A3A4                       # nothing committed
            3D 03 000000 020000 E1      -> AF                                # one of two bytes
            AF E2E3                     -> 7E                                # too many in the continuation
            BD 03 000000 020000         -> 00 A1A2                           # nothing committed
            """)
    }

    @Test func accessRightsWithoutAuthentication() throws {
        // Read key 0, Write free, Read&Write key 0, Change key 0.
        let keyed = try Self.dataCard(accessRights: 0x0E00)
        playISODEP(
            keyed,
            """
            5A 563412                    -> 00                       # SelectApplication 123456
            BD 03 000000 010000          -> AE                       # reading needs key 0
            3D 03 000000 010000 FF       -> 00                       # writing is free
            """)
        let never = try Self.dataCard(accessRights: 0xFFFF)
        playISODEP(
            never,
            """
            5A 563412                    -> 00                       # SelectApplication 123456
            BD 03 000000 010000          -> 9D                       # never readable
            3D 03 000000 010000 FF       -> 9D                       # never writable
            """)
    }

    @Test func unemulatedCommands() throws {
        let tag = try Self.ndefCard()
        playISODEP(
            tag,
            """
            AA00           -> AE                   # AuthenticateAES: the PICC master key is DES
            0A05           -> 40                   # no key 5 at PICC level
            51             -> AE                   # GetCardUID needs authentication
            C4 00          -> AE                   # ChangeKey needs authentication
            FC             -> AE                   # FormatPICC needs authentication
            6C 01          -> 9D                   # GetValue needs an application selected
            90AA0000010000 -> 91AE                 # wrapped AuthenticateAES
            """)
        #expect(tag.receive([], tearAfter: nil) == .data([0x7E]))  // an empty INF: length error
    }

    /// The NDEF mapping reached over ISO 7816-4 exactly like a Type 4 tag (NFC Forum T4T 2.0 §5.4 procedure), and
    /// the shared storage seen from both sides.
    @Test func ndefMappingOverISO7816() throws {
        let tag = try Self.ndefCard()
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000                                    # SELECT NDEF application
            6F                         -> 00 0102                                 # native GetFileIDs: same selection
            00A4000C02E103             -> 9000                                    # SELECT CC
            00B000000F                 -> 000F 20 003B 0034 0406 E104 1000 0000 9000 # READ BINARY CC
            00A4000C02E104             -> 9000                                    # SELECT NDEF file
            00B0000002                 -> 000E 9000                               # NLEN
            00B000020E                 -> D1010A55036E666370792E6F7267 9000       # message
            00D6000002 0003            -> 9000                                    # UPDATE BINARY NLEN 3
            BD 02 000000 020000        -> 00 0003                                 # native ReadData sees it
            3D 02 000000 020000 000E   -> 00                                      # native WriteData
            00B0000002                 -> 000E 9000                               # ISO sees it
            5A 000000                  -> 00                                      # native select PICC
            00B0000002                 -> 6986                                    # no current EF any more
            00A4000C02E105             -> 9000                                    # SELECT DF by ISO id E105
            00A4020C02E104             -> 9000                                    # EF under it
            00B0000002                 -> 000E 9000                               # NLEN
            00A4080C04E105E103         -> 9000                                    # path from MF to the CC
            00B0000002                 -> 000F 9000                               # CCLEN
            00A4000C02E106             -> 6A82                                    # unknown file
            00CA000000                 -> 6D00                                    # unknown INS
            """)
        #expect(tag.ndefMessage == nfcpyURIMessage)
    }

    @Test func isoAccessRightsAreEnforced() throws {
        let file = DESFireFile(number: 1, isoFileID: 0xE104, accessRights: 0x0E00, contents: [1, 2, 3, 4])
        let app = DESFireApplication(
            aid: 0x000001, keyCount: 0x21, isoFileID: 0xE105, dfName: Type4Configuration.ndefApplicationNameV2,
            files: [file])
        let tag = try DESFireEV1Tag(uid: testUID, applications: [app])
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000      # SELECT application by DF name
            00A4000C02E104             -> 9000      # SELECT file by ISO id
            00B0000004                 -> 6982      # read needs key 0
            00D6000001 09              -> 9000      # write is free
            """)
        #expect(tag.applications[0].files[0].contents == [9, 2, 3, 4])
    }

    @Test func resetAbandonsChainsAndSelection() throws {
        let tag = try Self.ndefCard()
        playISODEP(
            tag,
            """
            5A 010000 -> 00                         # SelectApplication 000001
            60        -> AF 04 01 01 01 00 18 05    # GetVersion frame 1
            """)
        tag.reset()
        playISODEP(
            tag,
            """
            AF        -> 1C                         # the chain is gone
            6F        -> 9D                         # back at PICC level
            """)
    }

    /// A 6-byte WriteData torn after 0…6 bytes: the file holds exactly the committed prefix, no answer.
    @Test(arguments: 0...6) func tearingWriteData(committed: Int) throws {
        let tag = try Self.dataCard()
        playISODEP(tag, "5A 563412 -> 00  # SelectApplication 123456")
        let data: [UInt8] = [0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6]
        #expect(tag.receive([0x3D, 0x03, 0x10, 0, 0, 0x06, 0, 0] + data, tearAfter: committed) == .silence)
        var expected = (0..<128).map { UInt8($0) }
        expected.replaceSubrange(0x10..<0x10 + committed, with: data.prefix(committed))
        #expect(tag.applications[0].files[0].contents == expected)
    }

    /// A chained WriteData torn on its last frame commits the first `tearAfter` bytes of the whole write; torn on
    /// an earlier frame it commits nothing.
    @Test func tearingAChainedWriteData() throws {
        let tag = try Self.dataCard()
        playISODEP(tag, "5A 563412 -> 00  # SelectApplication 123456")
        let first: [UInt8] = [0x3D, 0x03, 0, 0, 0, 0x04, 0, 0, 0xA1, 0xA2]
        #expect(tag.receive(first, tearAfter: 1) == .silence)
        #expect(tag.applications[0].files[0].contents.prefix(4) == [0, 1, 2, 3])
        tag.reset()
        playISODEP(tag, "5A 563412 -> 00  # SelectApplication 123456")
        #expect(tag.receive(first, tearAfter: nil) == .data([0xAF]))
        #expect(tag.receive([0xAF, 0xA3, 0xA4], tearAfter: 3) == .silence)
        #expect(tag.applications[0].files[0].contents.prefix(4) == [0xA1, 0xA2, 0xA3, 3])
    }

    @Test func ndefMessageTooLongIsRefused() {
        #expect(throws: ISODEPCardError.self) {
            try DESFireEV1Tag.ndefFormatted(uid: testUID, holding: Array(repeating: 0, count: 2047), storage: .size2K)
        }
        #expect(throws: ISODEPCardError.self) {
            try DESFireEV1Tag(uid: testUID, applications: [DESFireApplication(aid: 1), DESFireApplication(aid: 1)])
        }
        #expect(throws: ISODEPCardError.self) {
            try DESFireEV1Tag(
                uid: testUID,
                applications: [DESFireApplication(aid: 1, files: [DESFireFile(number: 32, contents: [])])])
        }
    }
}

@Suite struct ISODEPDESFireDirectoryTests {
    /// Android's NDEF formatting of an EV1, APDU for APDU (NXP AN11004; AOSP rw_t4t.c), on a blank card:
    /// the result equals ``DESFireEV1Tag/ndefFormatted(uid:holding:storage:ndefFileSize:)``.
    @Test func androidFormattingProducesTheNDEFMapping() throws {
        let tag = try DESFireEV1Tag(uid: testUID)
        playISODEP(
            tag,
            """
            6A                                                       -> 00       # GetApplicationIDs: none
            905A00000300000000                                       -> 9100     # select PICC
            90CA00000E 010000 0F 21 05E1 D2760000850101 00           -> 9100     # CreateApplication 000001
            905A00000301000000                                       -> 9100     # select it
            90CD000009 01 03E1 00 EEEE 0F0000 00                     -> 9100     # CreateStdDataFile CC
            90CD000009 02 04E1 00 EEEE 001000 00                     -> 9100     # CreateStdDataFile NDEF, 4096
            903D000016 01 000000 0F0000 000F20003B00340406E104100000 00 00 -> 9100 # WriteData CC
            903D000009 02 000000 020000 0000 00                      -> 9100     # WriteData NLEN 0
            00A4040007D276000085010100                               -> 9000     # SELECT NDEF application
            00A4000C02E103                                           -> 9000     # SELECT CC
            00B000000F      -> 000F 20 003B 0034 0406 E104 1000 0000 9000         # READ BINARY CC
            """)
        let reference = try DESFireEV1Tag.ndefFormatted(uid: testUID, holding: [])
        #expect(tag.applications == reference.applications)
        #expect(tag.ndefMessage == [])
    }

    @Test func directoryCommandsAndTheirErrors() throws {
        let tag = try DESFireEV1Tag.ndefFormatted(uid: testUID, holding: nfcpyURIMessage)
        playISODEP(
            tag,
            """
            6D                          -> 00 010000 05E1 D2760000850101   # GetDFNames
            61                          -> 9D                              # GetISOFileIDs at PICC level
            CA 010000 0F 21 06E1        -> DE                              # AID 000001 exists
            CA 020000 0F 21 05E1        -> DE                              # ISO DF id E105 taken
            CA 020000 0F 01 06E1        -> 7E                              # ISO id without the 0x20 flag
            CA 020000 0F 00             -> 9E                              # no keys
            CA 000000 0F 01             -> 9E                              # AID 000000 is the PICC
            CA 020000 0B 01             -> 00                              # AID 000002, no free file creation
            6A                          -> 00 010000 020000                # GetApplicationIDs
            5A 020000                   -> 00                              # select 000002
            CA 030000 0F 01             -> 9D                              # CreateApplication inside an app
            CD 01 00 EEEE 100000        -> AE                              # key settings 0B: files need the key
            5A 010000                   -> 00                              # select 000001
            61                          -> 00 03E1 04E1                    # GetISOFileIDs
            CD 03 06E1 00 EEEE 100000   -> 00                              # CreateStdDataFile 3, ISO E106
            CD 03 07E1 00 EEEE 100000   -> DE                              # file 3 exists
            CD 04 06E1 00 EEEE 100000   -> DE                              # ISO id E106 taken
            CD 04 00 EEEE 100000        -> 7E                              # ISO id missing in an ISO application
            CD 04 07E1 02 EEEE 100000   -> 9E                              # communication 02 undefined
            CD 20 07E1 00 EEEE 100000   -> 9E                              # file number 32
            CD 04 07E1 00 EEEE 011000   -> 0E                              # 4097 bytes on a 4 KiB chip
            F5 03                       -> 00 00 00 EEEE 100000            # GetFileSettings of the new file
            00A4000C02E106              -> 9000                            # ISO sees it
            00B0000010                  -> 00000000000000000000000000000000 9000 # zero-filled
            DF 03                       -> 00                              # DeleteFile 3
            DF 03                       -> F0                              # gone
            00B0000001                  -> 6986                            # the current EF went with it
            6F                          -> 00 0102                         # GetFileIDs
            DA 030000                   -> A0                              # DeleteApplication of a missing AID
            DA 020000                   -> 00                              # DeleteApplication 000002
            6F                          -> 9D                              # deleting moved to PICC level
            6A                          -> 00 010000                       # one application left
            """)
        let full = try DESFireEV1Tag(uid: testUID, applications: (1...28).map { DESFireApplication(aid: UInt32($0)) })
        playISODEP(full, "CA 1D0000 0F 01 -> CE  # a 29th application")
    }
}
