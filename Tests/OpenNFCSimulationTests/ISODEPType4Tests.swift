import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

@Suite struct ISODEPType4Tests {
    /// The nfcpy detection card: CC `000F 20 003B 0034 04 06 E104 0040 00 00` (NFC Forum T4T 2.0 §5.4).
    static let nfcpyConfiguration = Type4Configuration(ndefFileSize: 0x40, mle: 0x3B, mlc: 0x34)

    @Test func activationIsISODEPWithDocumentedATS() throws {
        let tag = try Type4Tag(uid: testUID)
        #expect(tag.chip == "type4")
        #expect(tag.activation.uid == testUID)
        #expect(tag.activation.sensRes == 0x0344)
        #expect(tag.activation.selRes == 0x20)
        #expect(tag.activation.ats == [0x06, 0x77, 0x77, 0x71, 0x02, 0x80])
        #expect(try Type4Tag(uid: [1, 2, 3, 4]).activation.sensRes == 0x0304)
    }

    @Test func factoryDefaultsMatchTheIssue() throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: [])
        #expect(tag.capabilityContainerFile == h("000F 20 00FF 00FF 0406 E104 1000 00 00"))
        #expect(tag.ndefFile.count == 4096)
        #expect(tag.ndefFile.allSatisfy { $0 == 0 })
        #expect(tag.ndefMessage.isEmpty)
    }

    /// The NFC Forum detection procedure as nfcpy runs it (NFC Forum T4T 2.0 §5.4, nfcpy tests/test_tag_tt4.py),
    /// ISO-DEP block headers stripped.
    @Test func nfcpyDetectionTrace() throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage, configuration: Self.nfcpyConfiguration)
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000                                   # SELECT NDEF application (v2)
            00A4000C02E103             -> 9000                                   # SELECT CC file
            00B0000002                 -> 000F 9000                              # READ BINARY CCLEN
            00B000020D                 -> 20 003B 0034 04 06 E104 0040 00 00 9000 # READ BINARY rest of CC
            00A4000C02E104             -> 9000                                   # SELECT NDEF file
            00B0000002                 -> 000E 9000                              # READ BINARY NLEN
            00B000020E                 -> D1010A55036E666370792E6F7267 9000      # READ BINARY message
            """)
    }

    @Test func version1CardAndNames() throws {
        let v2Only = try Type4Tag.factory(
            uid: testUID, holding: nfcpyURIMessage, configuration: Type4Configuration(answersBothNDEFNames: false))
        playISODEP(
            v2Only,
            """
            00A4040007D2760000850100   -> 6A82   # SELECT v1 name on a 2.0-only card: not found
            00A4040007D276000085010100 -> 9000   # SELECT v2 name
            """)
        // The default 2.0 card answers the mapping 1.0 name too, with the 1.0 forms.
        let both = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage)
        playISODEP(
            both,
            """
            00A4040007D2760000850100   -> 9000          # SELECT v1 name, no Le (v1 form): the NDEF application
            00A4000002E103             -> 9000          # SELECT CC by file id, P2=00 (v1 form)
            00B000000F                 -> 000F 20 00FF 00FF 0406 E104 1000 0000 9000 # READ BINARY CC
            00A4000002E104             -> 9000          # SELECT NDEF file, P2=00
            00B0000002                 -> 000E 9000     # READ BINARY NLEN
            """)
        let v1 = try Type4Tag.factory(
            uid: testUID, holding: nfcpyURIMessage,
            configuration: Type4Configuration(
                mappingVersion: 0x10, ndefFileSize: 0x40, mle: 0x3B, mlc: 0x34, answersBothNDEFNames: false))
        playISODEP(
            v1,
            """
            00A4040007D276000085010100 -> 6A82                                     # v2 name on a 1.0-only card
            00A4040007D2760000850100   -> 9000                                     # SELECT v1 name, no Le (v1 form)
            00A4000002E103             -> 9000                                     # SELECT CC, P2=00 (v1 form)
            00B000000F                 -> 000F 10 003B 0034 0406 E104 0040 0000 9000 # READ BINARY CC
            """)
    }

    /// Mapping 3.0 (NFC Forum T4T 1.0 (2017)): a 17-byte CC with the ENDEF File Control TLV, a 4-byte ENLEN, and
    /// offsets past 7FFF through the odd-INS READ / UPDATE BINARY with a 3-byte offset data object.
    @Test func mapping3CardWithAnENDEFFileOf40000Bytes() throws {
        let tag = try Type4Tag.factory(
            uid: testUID, holding: nfcpyURIMessage,
            configuration: Type4Configuration(mappingVersion: 0x30, ndefFileSize: 40_000))
        #expect(tag.capabilityContainerFile == (try Hex.decode("0011 30 00FF 00FF 0608 E104 00009C40 00 00")))
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000                              # SELECT NDEF application
            00A4000C02E103             -> 9000                              # SELECT CC
            00B000000F                 -> 0011 30 00FF 00FF 0608 E104 00009C40 9000 # CCLEN 17, ENDEF TLV: size 40000
            00B0000F02                 -> 0000 9000                         # its access bytes
            00A4000C02E104             -> 9000                              # SELECT the ENDEF file
            00B0000004                 -> 0000000E 9000                     # ENLEN 14
            00B000040E                 -> D1010A55036E666370792E6F7267 9000 # the message
            00B1000005540300800004     -> 5302 0000 9000                    # odd READ at 8000h: 53 object of 2 bytes
            00D700000854030080005301AB -> 9000                              # odd UPDATE at 8000h: one byte
            00B1000005540300800003     -> 5301AB 9000                       # read back
            00B1000005540300000410     -> 530E D1010A55036E666370792E6F7267 9000 # odd READ below 8000h too (Le counts 53 0E)
            00B1000005540300 9C3F04    -> 5301 00 6282                      # the last byte, then end of file
            00B1000005540300 9C4003    -> 6B00                              # offset 40000: past the end
            00D6800001AB               -> 6A86                              # even INS, P1 bit 8: SFI 0 is no SFI
            """)
        #expect(tag.ndefMessage == nfcpyURIMessage)
        #expect(tag.ndefLength == 14)
        #expect(tag.ndefFile[0x8000] == 0xAB)
        // A 4-byte ENLEN takes the rest of the file: 39996 bytes fit, 39997 do not.
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag.factory(
                uid: testUID, holding: [UInt8](repeating: 0, count: 39_997),
                configuration: Type4Configuration(mappingVersion: 0x30, ndefFileSize: 40_000))
        }
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag(
                uid: testUID, configuration: Type4Configuration(mappingVersion: 0x30, ndefFileSize: 0x100_0001))
        }
    }

    @Test func selectVariants() throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage, configuration: Self.nfcpyConfiguration)
        playISODEP(
            tag,
            """
            00A40000023F00             -> 9000      # SELECT MF by 3F00
            00A4000C00                 -> 9000      # 5 bytes = case 2S (Le 00): SELECT MF, P2=0C sends no data
            00A4000C                   -> 9000      # SELECT MF: P1-P2 0000-style, no data
            00A4020C02E104             -> 6A82      # P1=02 EF under current DF, but the MF is current
            00A4030C                   -> 6A82      # P1=03 parent of the MF: none
            00A4040C07D276000085010100 -> 9000      # SELECT by name, P2=0C no response data
            00A4020C02E104             -> 9000      # P1=02 EF under current DF
            00B0000002                 -> 000E 9000 # it is current
            00A4090C02E103             -> 9000      # P1=09 path from current DF
            00B0000002                 -> 000F 9000 # CC is current
            00A4030C                   -> 9000      # P1=03 parent DF: back to the MF
            00B0000002                 -> 6986      # no current EF
            00A4010C02E104             -> 6A82      # P1=01 child DF E104: no such DF
            00A4080C02E104             -> 6A82      # P1=08 path from MF: E104 is not a child of the MF
            00A4040007D276000085010100 -> 9000      # SELECT by name, P2=00 (FCI): T4T answers 9000 only
            00A4000402E10400           -> 620B 8002 0040 820101 8302 E104 9000 # P2=04: FCP of the NDEF file
            00A4000402E104             -> 9000      # P2=04 without Le: no response data
            00A4000802E104             -> 6A86      # P2=08 (FMD) not supported
            00A4000D02E104             -> 6A86      # P2 occurrence "last" with a file id
            00A4001C02E104             -> 6A86      # P2 b5 set (RFU)
            00A4050C02E104             -> 6A86      # P1=05 not defined
            00A4000C03E10400           -> 6700      # file id of 3 bytes
            00A4000C02E105             -> 6A82      # no such file
            00A4040011D276000085010100112233445566778899 -> 6700 # DF name of 17 bytes
            00A4040007A000000003101000 -> 6A82      # unknown AID
            00B0000002                 -> 000E 9000 # failed SELECTs kept the last good one (NDEF file) current
            """)
    }

    @Test func readBinaryErrorPaths() throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage, configuration: Self.nfcpyConfiguration)
        playISODEP(
            tag,
            """
            00B0000002                 -> 6986      # READ BINARY with no EF selected
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00B0000002                 -> 6986      # an application but no current EF
            00A4000C02E104             -> 9000      # SELECT NDEF file (64 bytes)
            00B0004000                 -> 6B00      # offset 0x40 = file size: beyond the end
            00B07FFF01                 -> 6B00      # largest 15-bit offset
            00B0003E04                 -> 0000 6282 # explicit Le 4 at offset 62: 2 bytes then end of file
            00B0003E00                 -> 0000 9000 # Le 00 (maximum): what is left, 90 00
            00B000003C                 -> 6700      # Le 60 above MLe 59
            00B0000000                 -> 000E D1010A55036E666370792E6F7267 \(String(repeating: "00", count: 43)) 9000 # Le 00: MLe bytes
            00B00000                   -> 6700      # no Le (case 1)
            00B000000102               -> 6700      # Lc 01 + data (case 3) is not a READ BINARY
            00B00000010200             -> 6700      # case 4 is not a READ BINARY
            00B0810002                 -> 6A82      # SFI 1: the NDEF file has no short id
            00B0A10002                 -> 6A86      # P1 = 101xxxxx: b7-b6 must be 0
            00B0800002                 -> 6A86      # SFI 0 is not a short identifier
            00B00000000002             -> 6700      # extended Le on a short-only card
            00B000000002               -> 6700      # 6 bytes: a truncated extended Le (malformed)
            00B1000002                 -> 6A80      # odd INS B1 without its offset data object
            00CA000000                 -> 6D00      # GET DATA: unknown INS
            80B0000002                 -> 6E00      # proprietary CLA
            FFB0000002                 -> 6E00      # CLA FF (invalid)
            01B0000002                 -> 6881      # logical channel 1
            40B0000002                 -> 6881      # further interindustry class (channels 4-19)
            10B0000002                 -> 6884      # command chaining bit
            0CB0000002                 -> 6882      # secure messaging
            00B000                     -> 6700      # shorter than a header
            00B0000002                 -> 000E 9000 # the errors left the NDEF file current
            """)
    }

    @Test func updateBinaryAndErrorPaths() throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage, configuration: Self.nfcpyConfiguration)
        let full = String(repeating: "AB", count: 0x35)
        playISODEP(
            tag,
            """
            00D6000002 0000            -> 6986      # UPDATE BINARY with no EF selected
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00A4000C02E103             -> 9000      # SELECT CC file
            00D6000E01 00              -> 6982      # write the (read-only) CC
            00A4000C02E104             -> 9000      # SELECT NDEF file
            00D6000002 0000            -> 9000      # NLEN := 0 (T4T write procedure step 1)
            00B0000002                 -> 0000 9000 # read it back
            00D6000035 \(full)         -> 6700      # Lc 53 above MLc 52
            00D6003E03 010203          -> 6B00      # 3 bytes at offset 62 of a 64-byte file
            00D6004001 01              -> 6B00      # offset = file size
            00D60000                   -> 6700      # no data (case 1)
            00D6000002 000000          -> 6700      # Le present (case 4)
            00D6000003 0000            -> 6700      # Lc 3 with 2 data bytes (malformed)
            00D7000002 0000            -> 6A80      # odd INS D7 without data objects
            00D6003E02 C0DE            -> 9000      # last two bytes of the file
            00B0003E02                 -> C0DE 9000 # read them back
            00D6000002 000E            -> 9000      # NLEN restored
            """)
        #expect(tag.ndefMessage == nfcpyURIMessage)
        #expect(tag.ndefFile.suffix(2) == [0xC0, 0xDE])
    }

    @Test func accessBytes() throws {
        let readOnly = try Type4Tag.factory(
            uid: testUID, holding: nfcpyURIMessage,
            configuration: Type4Configuration(ndefFileSize: 0x40, writeAccess: 0xFF))
        playISODEP(
            readOnly,
            """
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00A4000C02E103             -> 9000      # SELECT CC
            00B000000F                 -> 000F 20 00FF 00FF 0406 E104 0040 00 FF 9000 # CC says read-only
            00A4000C02E104             -> 9000      # SELECT NDEF file
            00D6000002 0000            -> 6982      # write to a read-only file
            00B0000002                 -> 000E 9000 # reading is allowed and nothing changed
            """)
        let proprietary = try Type4Tag.factory(
            uid: testUID, holding: nfcpyURIMessage,
            configuration: Type4Configuration(ndefFileSize: 0x40, readAccess: 0x80, writeAccess: 0xFE))
        playISODEP(
            proprietary,
            """
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00A4000C02E104             -> 9000      # SELECT NDEF file
            00B0000002                 -> 6982      # proprietary read access: not granted by the virtual card
            00D6000002 0000            -> 6982      # proprietary write access: not granted
            """)
        #expect(proprietary.capabilityContainerFile.suffix(2) == [0x80, 0xFE])
    }

    /// With a writable CC, the Android way of making a T4T read-only (`00 D6 00 0E 01 FF`)
    /// locks the NDEF file.
    @Test func writableCapabilityContainerLocksTheNDEFFile() throws {
        let tag = try Type4Tag.factory(
            uid: testUID, holding: nfcpyURIMessage,
            configuration: Type4Configuration(ndefFileSize: 0x40, ccWriteAccess: 0x00))
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00A4000C02E104             -> 9000      # SELECT NDEF file
            00D6000002 000E            -> 9000      # writable
            00A4000C02E103             -> 9000      # SELECT CC
            00D6000E01 FF              -> 9000      # CC write access := FF
            00B0000E01                 -> FF 9000   # stored
            00A4000C02E104             -> 9000      # SELECT NDEF file
            00D6000002 000E            -> 6982      # now read-only
            """)
        #expect(tag.ndefAccess.write == 0xFF)
    }

    @Test func extendedLength() throws {
        let message = (0..<1000).map { UInt8($0 & 0xFF) }
        let tag = try Type4Tag.factory(
            uid: testUID, holding: message,
            configuration: Type4Configuration(mle: 0x0400, mlc: 0x0300, extendedLength: true))
        #expect(tag.capabilityContainerFile == h("000F 20 0400 0300 0406 E104 1000 00 00"))
        var transcript = """
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00A4000C02E104             -> 9000      # SELECT NDEF file
            00B00000000200             -> \(Hex.encode([0x03, 0xE8] + message.prefix(510))) 9000 # extended Le 512
            00B0000000                 -> \(Hex.encode([0x03, 0xE8] + message.prefix(254))) 9000 # short Le 00: 256
            00B00000000401             -> 6700      # extended Le 1025 above MLe 1024
            00B00000000000             -> \(Hex.encode([0x03, 0xE8] + message + Array(repeating: 0, count: 22))) 9000 # Le 0000: MLe
            """
        transcript +=
            "\n00D60002000301" + String(repeating: "55", count: 0x301) + " -> 6700 # extended Lc 769 above MLc"
        transcript += "\n00D60002000300" + String(repeating: "55", count: 0x300) + " -> 9000 # extended Lc 768"
        playISODEP(tag, transcript)
        #expect(tag.ndefFile[2..<0x302].allSatisfy { $0 == 0x55 })
    }

    @Test func resetClearsSelection() throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage)
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00A4000C02E104             -> 9000      # SELECT NDEF file
            """)
        tag.reset()
        playISODEP(tag, "00B0000002 -> 6986  # after reset: no current EF")
        #expect(tag.ndefMessage == nfcpyURIMessage)
    }

    /// An UPDATE BINARY of 6 bytes torn after every byte count 0…6: the file holds exactly the committed prefix and
    /// the card does not answer.
    @Test(arguments: 0...6) func tearingAnUpdateBinary(committed: Int) throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage, configuration: Self.nfcpyConfiguration)
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00A4000C02E104             -> 9000      # SELECT NDEF file
            """)
        let before = tag.ndefFile
        let data: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        let answer = tag.receive([0x00, 0xD6, 0x00, 0x04, 0x06] + data, tearAfter: committed)
        #expect(answer == .silence)
        var expected = before
        expected.replaceSubrange(4..<4 + committed, with: data.prefix(committed))
        #expect(tag.ndefFile == expected)
    }

    @Test func tearingARefusedCommandChangesNothing() throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage)
        let before = tag.ndefFile
        #expect(tag.receive(h("00D6000002 0000"), tearAfter: 1) == .silence)  // no current EF
        #expect(tag.ndefFile == before)
    }

    @Test func invalidConfigurationsAreRefused() {
        #expect(throws: ISODEPCardError.self) { try Type4Tag(uid: [1, 2, 3]) }
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag(uid: testUID, configuration: Type4Configuration(mappingVersion: 0x40))
        }
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag(uid: testUID, configuration: Type4Configuration(ndefFileID: 0xE103))
        }
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag(uid: testUID, configuration: Type4Configuration(ndefFileSize: 4))
        }
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag(uid: testUID, configuration: Type4Configuration(mle: 0x200))
        }
        #expect(throws: ISODEPCardError.self) { try Type4Tag(uid: testUID, configuration: Type4Configuration(mlc: 0)) }
        #expect(throws: ISODEPCardError.self) { try Type4Tag(uid: testUID, ndefFile: [0, 0]) }
        do {
            _ = try Type4Tag.factory(
                uid: testUID, holding: Array(repeating: 0, count: 63),
                configuration: Type4Configuration(ndefFileSize: 64))
            Issue.record("a 63-byte message fits no 64-byte NDEF file")
        } catch {
            #expect(error.code == .messageTooLong)
        }
        #expect(throws: Never.self) {
            try Type4Tag.factory(
                uid: testUID, holding: Array(repeating: 0, count: 62),
                configuration: Type4Configuration(ndefFileSize: 64))
        }
    }

    /// Odd-INS READ/UPDATE BINARY (ISO/IEC 7816-4 §11.3.3/§11.3.5) reach past offset 7FFF of a 40000-byte file.
    @Test func oddINSReachesLargeFiles() throws {
        var file = [UInt8](repeating: 0, count: 40000)
        file[0x9000] = 0xAB
        file[39999] = 0xEF
        let tag = try Type4Tag(uid: testUID, configuration: Type4Configuration(ndefFileSize: 40000), ndefFile: file)
        let tail = "53 10 " + String(repeating: "00 ", count: 15) + "EF"
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000          # SELECT NDEF application
            00B1000005 5403000000 04   -> 6986          # B1 on the current EF, but none is selected
            00B1000000                 -> 6A80          # B1 without its offset data object
            00B1E10405 5403009000 04   -> 5302 AB00 9000 # B1 by file id E104, offset 9000h: 2 data bytes in Ne 4
            00B1000005 5403008000 00   -> 53 81 FC \(String(repeating: "00", count: 252)) 9000 # Le 00: MLe 255 = 53 81 FC + 252
            00B1000005 5403009C30 12   -> \(tail) 9000 # last 16 bytes exactly
            00B1000005 5403009C30 20   -> \(tail) 6282 # Ne 32 past the end: what is there, 62 82
            00B1000005 5403009C40 04   -> 6B00          # offset 40000 = size
            00B1000005 5403009000 02   -> 6700          # Ne 2 leaves no room for data
            00B1000005 5303009000 04   -> 6A80          # not an offset data object
            00B1000006 540400009000 04 -> 6A80          # 4-byte offset
            00B1000006 5403009000AA 04 -> 6A80          # trailing byte
            00B1E10505 5403009000 04   -> 6A82          # no file E105
            00D700000A 5403009001 5303 112233 -> 9000   # D7: 3 bytes at 9001h
            00B1000005 5403009000 06   -> 5304 AB112233 9000 # read them back
            00D7000008 5403009C3F 5301 01 -> 9000       # the last byte
            00D7000009 5403009C3F 5302 0102 -> 6B00     # one byte past the end
            00D7000007 5403009C3F 5300 -> 6A80          # empty data object
            00D7000008 5403009C3F 5302 01 -> 6A80       # data object longer than the field
            00D700000A 5403009001 5303 112233 00 -> 6700 # Le present
            """)
        #expect(tag.ndefFile[0x9000..<0x9004] == [0xAB, 0x11, 0x22, 0x33])
        #expect(tag.ndefFile[39999] == 0x01)
    }

    @Test(arguments: 0...3) func tearingAnOddUpdateBinary(committed: Int) throws {
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage)
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000      # SELECT NDEF application
            00A4000C02E104             -> 9000      # SELECT NDEF file
            """)
        let before = tag.ndefFile
        #expect(tag.receive(h("00D700000A 5403000100 5303 A1A2A3"), tearAfter: committed) == .silence)
        var expected = before
        expected.replaceSubrange(0x100..<0x100 + committed, with: [0xA1, 0xA2, 0xA3].prefix(committed))
        #expect(tag.ndefFile == expected)
    }
}
