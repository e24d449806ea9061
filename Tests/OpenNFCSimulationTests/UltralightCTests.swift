import OpenNFCCrypto
import OpenNFCTestSupport
import Testing

@testable import OpenNFCSimulation

/// Card-side transcripts of MIFARE Ultralight C (MF0ICU2 rev. 3.3).
@Suite struct UltralightCTests {
    func tag(random: [UInt8] = []) -> Type2Tag {
        let t = factoryTag(.ultralightC, formatted: false)
        t.random = FixedRandomSource(random)
        return t
    }

    @Test func factoryMemoryAndWriteOnlyKeyPages() {
        let t = tag()
        // MF0ICU2 Table 13: AUTH0 30h, AUTH1 00h, key pages "BREA" "KMEI" "FYOU" "CAN!"; the key reads as zeros.
        expectTranscript(
            t,
            """
            30 28 -> 00000000 00000000 30000000 00000000   # lock, counter, AUTH0, AUTH1
            30 2C -> \(type2Zeros(8)) \(type2Zeros(8))      # key pages never read back
            30 2E -> \(type2Zeros(8)) 0401028F 03040506    # rolls over to page 0 after 2Fh
            60 -> TIMEOUT                                  # no GET_VERSION
            """)
        #expect(
            t.ultralightCKeyPages == [
                0x49, 0x45, 0x4D, 0x4B, 0x41, 0x45, 0x52, 0x42, 0x21, 0x4E, 0x41, 0x43, 0x55, 0x4F, 0x59, 0x46,
            ])
    }

    @Test func publishedAuthenticationVector() {
        // Factory key, RndB = EF BD 44 F3 61 F2 58 FB, reader RndA = 00 01 … 07: the exchange of nfcpy's
        // tests/test_tag_tt2_nxp.py (Ultralight C authenticate), recomputed with OpenSSL.
        let t = tag(random: [0xEF, 0xBD, 0x44, 0xF3, 0x61, 0xF2, 0x58, 0xFB])
        expectTranscript(
            t,
            """
            1A 00 -> AF F7DFC7FA617C7F1D
            AF AB7EFBE63F40394010D04F018F8F48C3 -> 00 0355F3C176DCD1B1
            """)
        #expect(t.isAuthenticated)
    }

    @Test func wrongTokenIsANakAndMutes() {
        let t = tag(random: [0xEF, 0xBD, 0x44, 0xF3, 0x61, 0xF2, 0x58, 0xFB])
        expectTranscript(
            t,
            """
            1A 00 -> AF F7DFC7FA617C7F1D
            AF 00000000000000000000000000000000 -> NAK 0
            30 04 -> TIMEOUT                        # mute until re-activated
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1A 01 -> NAK 0                          # the argument must be 00
            """)
        #expect(!t.isAuthenticated)
    }

    @Test func anotherCommandDropsTheChallenge() {
        let t = tag(random: [0xEF, 0xBD, 0x44, 0xF3, 0x61, 0xF2, 0x58, 0xFB])
        expectTranscript(
            t,
            """
            1A 00 -> AF F7DFC7FA617C7F1D
            30 2A -> 30000000 \(type2Zeros(12))
            AF AB7EFBE63F40394010D04F018F8F48C3 -> TIMEOUT   # AF without a challenge is no command
            """)
    }

    @Test func auth0AndAuth1ProtectWritesThenReads() throws {
        let t = tag(random: [UInt8](repeating: 0x11, count: 8))
        // AUTH1 = 01: only writes from AUTH0 = 10h need authentication.
        expectTranscript(
            t,
            """
            A2 2B 01000000 -> ACK
            A2 2A 10000000 -> ACK
            A2 0F 01020304 -> ACK
            A2 10 01020304 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 10 -> \(type2Zeros(16))
            A2 2B 00000000 -> NAK 0                       # 2Bh lies past AUTH0 too
            """)
        // AUTH1 = 00 (reads too): READ of a protected page NAKs, READ below AUTH0 wraps at AUTH0.
        t.memory[0x2B * 4] = 0x00
        expectTranscript(
            t,
            """
            30 10 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 0E -> 00000000 01020304 0401028F 03040506   # pages 0Eh, 0Fh, then 00h, 01h
            """)
    }

    @Test func authenticationOpensProtectedPages() throws {
        let t = tag(random: [0xEF, 0xBD, 0x44, 0xF3, 0x61, 0xF2, 0x58, 0xFB])
        t.memory[0x2A * 4] = 0x04
        expectTranscript(
            t,
            """
            30 04 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1A 00 -> AF F7DFC7FA617C7F1D
            AF AB7EFBE63F40394010D04F018F8F48C3 -> 00 0355F3C176DCD1B1
            A2 04 DEADBEEF -> ACK
            30 04 -> DEADBEEF \(type2Zeros(12))
            """)
    }

    @Test func newKeyCountsFromTheNextActivation() throws {
        let t = tag()
        let key: [UInt8] = Array(0x00...0x0F)
        // Table 11: key 00 01 … 0F is stored 07 06 05 04 | 03 02 01 00 | 0F 0E 0D 0C | 0B 0A 09 08.
        let s = expectTranscript(
            t,
            """
            A2 2C 07060504 -> ACK
            A2 2D 03020100 -> ACK
            A2 2E 0F0E0D0C -> ACK
            A2 2F 0B0A0908 -> ACK
            """)
        #expect(t.ultralightCKeyPages == key)
        #expect(t.ultralightCKey == UltralightCTests.factoryKey)
        _ = s.answer("ACTIVATE")
        #expect(t.ultralightCKey == key)
    }

    static let factoryKey: [UInt8] = [
        0x49, 0x45, 0x4D, 0x4B, 0x41, 0x45, 0x52, 0x42, 0x21, 0x4E, 0x41, 0x43, 0x55, 0x4F, 0x59, 0x46,
    ]

    @Test func sixteenBitCounter() {
        let t = tag()
        // §7.5.11: the first WRITE sets the value; later ones add their low nibble at the next RF reset.
        expectTranscript(
            t,
            """
            A2 29 00000000 -> NAK 0              # 0000h is no initial value
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 29 FEFF0000 -> ACK                # FFFEh
            A2 29 F1AB0000 -> ACK                # + 1 (only the low nibble of byte 0 counts)
            30 29 -> FEFF0000 30000000 00000000 00000000
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 29 -> FFFF0000 30000000 00000000 00000000
            A2 29 01000000 -> NAK 0              # past FFFFh
            """)
        #expect(t.ultralightCCounter == 0xFFFF)
    }

    @Test func lock2LocksFourPagesABitAndBlockBitsFreeze() {
        let t = tag()
        expectTranscript(
            t,
            """
            A2 28 02000000 -> ACK                # bit 1: pages 10h–13h
            A2 13 01020304 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 14 01020304 -> ACK
            A2 28 10000000 -> ACK                # bit 4 freezes bits 5–7
            A2 28 E0000000 -> ACK
            30 28 -> 12000000 \(type2Zeros(4)) 30000000 00000000
            A2 1C 01020304 -> ACK                # pages 1Ch–27h stay writable
            """)
        #expect(t.isLocked(0x10) && t.isLocked(0x13) && !t.isLocked(0x14) && !t.isLocked(0x1C))
    }

    @Test func tagFileStoresTheKey() throws {
        let t = tag()
        try t.setUltralightCKey(Array(0x00...0x0F))
        let text = try TagFile.encodeJSON(t)
        #expect(text.contains("\"key\": \"00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F\""))
        let back = try #require(try TagFile.decodeJSON(text) as? Type2Tag)
        #expect(back.memory == t.memory)
        // The key field overrides the key pages; a short key says which field.
        let edited = text.replacingOccurrences(of: "00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F", with: "AA BB")
        #expect(throws: TagFileError.self) { try TagFile.decodeJSON(edited) }
        do {
            _ = try TagFile.decodeJSON(edited)
        } catch {
            #expect("\(error)".contains("type2.key"))
        }
    }
}
