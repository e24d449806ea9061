import OpenNFCBytes
import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// An ICODE SLIX2 UID (MSB first) and as it travels (LSB first).
private let uid = "E004010812345678"
private let lsb = "78563412080104E0"

/// Scripted transcripts of the Type 5 memory reader and the vendor commands (ISO/IEC 15693-3 §10.4; NXP SL2S2602
/// §9.5; ST25DV04K §7.6): every command byte exact, `22` = high data rate + addressed.
@Suite struct Type5MemoryReaderTests {
    func link(_ transcript: String, uid: String = uid, maxResponseSize: Int = 256) -> (Type5Link, ScriptedFrontend) {
        let f = ScriptedFrontend(maxResponseSize: maxResponseSize, technologies: [.nfcV], transcript: transcript)
        return (Type5Link(frontend: f, uid: h(uid)), f)
    }

    @Test func readsSystemInformationEveryBlockAndTheLockState() throws {
        let (l, f) = link(
            """
            22 2B \(lsb) -> 00 0F \(lsb) 01 3D 03 03 01              # GET SYSTEM INFORMATION: 4 blocks of 4
            22 23 \(lsb) 00 03 -> 00 00112233 44556677 8899AABB CCDDEEFF  # READ MULTIPLE BLOCKS 0–3
            22 2C \(lsb) 00 03 -> 00 00 01 00 00                      # GET MULTIPLE BLOCK SECURITY STATUS 0–3
            """)
        let image = try Type5MemoryReader.read(l)
        #expect(f.isComplete)
        #expect(image.blockCount == 4 && image.blockSize == 4)
        #expect(image.info.dsfid == 0x01 && image.info.afi == 0x3D && image.info.icReference == 0x01)
        #expect(image.memory == h("00112233 44556677 8899AABB CCDDEEFF"))
        #expect(image.locked == [1])
    }

    @Test func readsInRunsTheFrontendCanCarry() throws {
        // Answers of at most 9 bytes: flags + 2 blocks of 4.
        let (l, f) = link(
            """
            22 23 \(lsb) 00 01 -> 00 00112233 44556677               # READ MULTIPLE BLOCKS 0–1
            22 23 \(lsb) 02 00 -> 00 8899AABB                        # READ MULTIPLE BLOCKS 2–2
            """, maxResponseSize: 9)
        let run = Type5MemoryReader.run(f, blockSize: 4)
        #expect(run == 2)
        #expect(
            try Type5MemoryReader.readBlocks(l, 0, count: 3, blockSize: 4, run: run) == h("00112233 44556677 8899AABB"))
        #expect(f.isComplete)
    }

    @Test func theExtendedSystemInformationGivesALargeMemory() throws {
        let (l, f) = link(
            """
            22 2B \(lsb) -> 00 0B \(lsb) 00 00 26                    # GET SYSTEM INFORMATION without memory size
            22 3B \(lsb) 0F -> 00 0F \(lsb) 00 00 FF 07 03 26         # EXTENDED GET SYSTEM INFORMATION: 2048 blocks of 4
            """)
        let info = try Type5MemoryReader.systemInfo(l)
        #expect(info.blockCount == 2048 && info.blockSize == 4 && info.icReference == 0x26)
        #expect(f.isComplete)
    }

    @Test func anErrorAnswerCarriesTheTagsCode() throws {
        let (l, f) = link(
            """
            22 21 \(lsb) 05 01020304 -> 01 12                        # WRITE SINGLE BLOCK 5: block locked
            """)
        #expect {
            try Type5MemoryReader.writeBlock(l, 5, h("01020304"))
        } throws: { ($0 as? TagError)?.iso15693Error == 0x12 }
        #expect(f.isComplete)
    }

    @Test func tiWritesCarryTheOptionFlag() throws {
        let ti = "E007800012345678"
        let (l, f) = link(
            """
            62 21 78563412008007E0 00 01020304 -> 00                 # WRITE SINGLE BLOCK 0 with Option (TI)
            """, uid: ti)
        try Type5MemoryReader.writeBlock(l, 0, h("01020304"))
        #expect(f.isComplete)
    }

    @Test func nxpPasswordIsXoredWithAFreshRandomNumber() throws {
        let (l, f) = link(
            """
            22 B2 04 \(lsb) -> 00 AB CD                              # GET RANDOM NUMBER (NXP)
            22 B3 04 \(lsb) 02 EF FE 89 DC -> 00                     # SET PASSWORD write: 11223344 LSB first, XOR ABCD
            """)
        try l.nxpPresentPassword(ISO15693Request.NXPPassword.write, h("11223344"))
        #expect(f.isComplete)
    }

    @Test func nxpSystemInformationAndSignature() throws {
        let signature = (0..<32).map { UInt8($0) }
        let (l, f) = link(
            """
            22 AB 04 \(lsb) -> 00 10 30 00 0F 31 00 00               # GET NXP SYSTEM INFORMATION
            22 BD 04 \(lsb) -> 00 \(signature.hexString)              # READ SIGNATURE
            """)
        let info = try #require(l.nxpSystemInfo())
        #expect(info.protectionPointer == 16 && info.protectionCondition == 0x30 && info.locked.isEmpty)
        #expect(
            info.features == [
                "page protection", "counter", "EAS ID", "EAS password", "originality signature", "privacy", "destroy",
            ])
        #expect(try l.nxpSignature() == signature)
        #expect(f.isComplete)
    }

    @Test func st25AreaRegistersByReadConfiguration() throws {
        let st = "E002240012345678"
        let st25 = "78563412002402E0"
        let (l, f) = link(
            """
            22 A0 02 \(st25) 05 -> 00 0F                             # READ CONFIGURATION ENDA1 (is it an ST25DV?)
            22 A0 02 \(st25) 05 -> 00 0F                             # ENDA1
            22 A0 02 \(st25) 07 -> 00 1F                             # ENDA2
            22 A0 02 \(st25) 09 -> 00 3F                             # ENDA3
            22 A0 02 \(st25) 04 -> 00 03                             # RFA1SS
            22 A0 02 \(st25) 06 -> 00 03                             # RFA2SS
            22 A0 02 \(st25) 08 -> 00 03                             # RFA3SS
            22 A0 02 \(st25) 0A -> 00 03                             # RFA4SS
            """, uid: st)
        let regs = try #require(try l.st25AreaConfiguration())
        #expect(regs.map(\.name) == ["ENDA1", "ENDA2", "ENDA3", "RFA1SS", "RFA2SS", "RFA3SS", "RFA4SS"])
        #expect(regs.map(\.value) == [0x0F, 0x1F, 0x3F, 0x03, 0x03, 0x03, 0x03])
        #expect(f.isComplete)
    }

    @Test func framesAreAddressedUnlessSelected() {
        let u = h(uid)
        // Addressed: the Address flag set, the Inventory flag cleared, the UID LSB first after the command.
        #expect(ISO15693Request.readSingleBlock(5).frame(flags: 0x06, uid: u) == h("22 20 \(lsb) 05"))
        // Selected: no Address flag, no UID.
        #expect(ISO15693Request.readSingleBlock(5).frame(flags: 0x12, uid: u) == h("12 20 05"))
        // A custom command carries the manufacturer code after its code, before the UID.
        #expect(ISO15693Request.custom(0xA2, []).frame(flags: 0x02, uid: u) == h("22 A2 04 \(lsb)"))
        #expect(ISO15693Request.custom(0xA2, []).frame(flags: 0x12, uid: u) == h("12 A2 04"))
        // Extended block numbers and ranges: two bytes each, LSB first.
        #expect(
            ISO15693Request.readMultipleBlocks(first: 0x123, count: 0x10, extended: true).frame(flags: 0x02, uid: u)
                == h("22 33 \(lsb) 2301 0F00"))
    }

    @Test func traceNamesISO15693AndVendorCommands() {
        #expect(
            FrameDescription.describe(command: h("22 2B \(lsb)"), mode: .nfcV)
                == "GET SYSTEM INFORMATION (addressed to \(uid))")
        #expect(
            FrameDescription.describe(command: h("22 B2 04 \(lsb)"), mode: .nfcV)
                == "GET RANDOM NUMBER (NXP) (addressed to \(uid))")
        #expect(
            FrameDescription.describe(response: .frame(h("01 12")), to: h("22 21 \(lsb) 05"), mode: .nfcV)
                == "error 12: block locked, content cannot change")
    }
}
