import OpenNFCSimulation
import Testing

/// Exact command/response transcripts for NTAG213 (NTAG213/215/216 datasheet §10), UID 04 01 02 03 04 05 06:
/// BCC0 = 88 ⊕ 04 ⊕ 01 ⊕ 02 = 8F, BCC1 = 03 ⊕ 04 ⊕ 05 ⊕ 06 = 04.
@Suite struct NTAG213Tests {
    @Test func factoryStateAndReads() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            30 00 -> 0401028F 03040506 04480000 E1101200   # READ page 0: UID, BCC, internal 48, CC
            30 04 -> 0103A00C 340300FE 00000000 00000000   # READ page 4: Lock Control TLV, empty NDEF TLV
            30 28 -> 000000BD 040000FF 00050000 00000000   # READ 28h: dyn. lock, CFG0, CFG1 (VCTID 05), PWD reads 0
            30 2B -> 00000000 00000000 0401028F 03040506   # READ 2Bh: PWD, PACK read 0, wraps to page 0
            30 2C -> 00000000 0401028F 03040506 04480000   # READ 2Ch: last page then pages 0-2
            60 -> 0004040201000F03                         # GET_VERSION
            3A 00 01 -> 0401028F 03040506                  # FAST_READ 0-1
            3A 2C 2C -> 00000000                           # FAST_READ of PACK reads 0
            3C 00 -> \(type2Zeros(32))                          # READ_SIG (default all zero)
            """)
    }

    @Test func readErrorsMuteUntilReactivated() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            30 2D -> NAK 0          # READ beyond the last page (2Ch)
            30 00 -> TIMEOUT        # mute after NAK
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3A 2C 2D -> NAK 0       # FAST_READ end beyond the last page
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3A 05 04 -> NAK 0       # FAST_READ start after end
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3C 01 -> NAK 0          # READ_SIG address must be 00
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            39 02 -> NAK 0          # READ_CNT with NFC_CNT_EN = 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            C2 FF -> TIMEOUT        # SECTOR_SELECT: not an NTAG213 command, no answer
            30 00 -> TIMEOUT        # and mute
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A5 00 01 00 00 00 -> TIMEOUT  # INCR_CNT is Ultralight EV1 only
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 -> TIMEOUT           # malformed READ
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 00 -> 0401028F 03040506 04480000 E1101200
            """)
    }

    @Test func writeAndCompatibilityWrite() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            A2 04 DE AD BE EF -> ACK                       # WRITE page 4
            30 04 -> DEADBEEF 340300FE 00000000 00000000
            A2 27 01 02 03 04 -> ACK                       # WRITE last user page
            A0 05 -> ACK                                   # COMPATIBILITY WRITE part 1
            11223344 55555555 66666666 77777777 -> ACK     # part 2: only the first 4 bytes are stored
            30 05 -> 11223344 00000000 00000000 00000000
            A2 00 01 02 03 04 -> NAK 0                     # UID pages are read-only
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 01 01 02 03 04 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 2D 01 02 03 04 -> NAK 0                     # beyond the last page
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A0 2D -> NAK 0                                 # COMPATIBILITY WRITE to a bad page
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A0 06 -> ACK
            01 02 03 04 -> NAK 0                           # part 2 must carry 16 bytes
            30 06 -> TIMEOUT
            """)
    }

    @Test func otpPageOnlySetsBits() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            A2 03 00 00 00 0F -> ACK     # CC3 |= 0F (read-only access)
            30 03 -> E110120F 0103A00C 340300FE 00000000
            A2 03 00 00 00 00 -> ACK     # clearing OTP bits is accepted but changes nothing
            30 03 -> E110120F 0103A00C 340300FE 00000000
            A2 03 00 00 00 F0 -> ACK
            30 03 -> E11012FF 0103A00C 340300FE 00000000
            """)
    }

    @Test func staticLockBitsAndBlockLockBits() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            A2 02 FF FF 10 00 -> ACK     # L4; bytes 0-1 of page 2 are ignored
            30 02 -> 04481000 E1101200 0103A00C 340300FE
            A2 04 01 02 03 04 -> NAK 0   # page 4 locked
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 05 01 02 03 04 -> ACK     # page 5 not locked
            A2 02 00 00 02 00 -> ACK     # BL 9-4: freezes L4..L9
            A2 02 00 00 20 03 -> ACK     # L5, L8, L9 can no longer be set
            30 02 -> 04481200 E1101200 0103A00C 01020304
            A2 08 01 02 03 04 -> ACK     # page 8 still writable
            A2 02 00 00 08 FC -> ACK     # L-CC and L10..L15 (not frozen)
            30 02 -> 04481AFC E1101200 0103A00C 01020304
            A2 03 00 00 00 0F -> NAK 0   # CC locked
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 0A 01 02 03 04 -> NAK 0   # page 10 locked
            """)
    }

    @Test func dynamicLockBits() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            A2 28 01 00 00 00 -> ACK     # lock bit 0: pages 16-17
            A2 10 01 02 03 04 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 11 01 02 03 04 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 12 01 02 03 04 -> ACK     # page 18 not locked
            A2 28 00 00 01 00 -> ACK     # block-lock bit 0 freezes lock bits 0-1 (pages 16-19)
            A2 28 02 08 00 FF -> ACK     # bit 1 frozen; bit 11 (pages 38-39) set; RFUI byte ignored
            30 28 -> 010801BD 040000FF 00050000 00000000
            A2 13 01 02 03 04 -> ACK     # page 19 still writable
            A2 26 01 02 03 04 -> NAK 0   # page 38 locked
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 29 04 00 00 FF -> ACK     # configuration pages are not covered by lock bits
            """)
    }

    @Test func passwordProtectionAndAuthLimit() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            1B FF FF FF FF -> 0000       # PWD_AUTH with the factory password answers the factory PACK
            A2 2B 12 34 56 78 -> ACK     # PWD
            A2 2C AB CD 00 00 -> ACK     # PACK
            A2 2A 82 00 00 00 -> ACK     # ACCESS: PROT, AUTHLIM 2
            A2 29 04 00 00 10 -> ACK     # AUTH0 = 10h
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 0F -> 00000000 0401028F 03040506 04480000   # READ wraps at AUTH0 while protected
            30 10 -> NAK 0               # protected read
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3A 0E 10 -> NAK 0            # FAST_READ into the protected area
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 10 01 02 03 04 -> NAK 0   # protected write
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 12 34 56 78 -> ABCD       # PWD_AUTH answers PACK
            A2 10 01 02 03 04 -> ACK
            30 10 -> 01020304 00000000 00000000 00000000
            30 2B -> 00000000 00000000 0401028F 03040506   # PWD/PACK still read as zero
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 10 -> NAK 0               # re-activation forgets the authentication
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 00 00 00 00 -> NAK 0      # wrong password (1 of 2)
            1B 12 34 56 78 -> TIMEOUT    # mute after the NAK
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 00 00 00 00 -> NAK 0      # wrong password (2 of 2): AUTHLIM reached
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 12 34 56 78 -> NAK 0      # even the right password fails now
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 04 -> 0103A00C 340300FE 00000000 00000000   # the unprotected area stays readable
            """)
    }

    @Test func configurationLock() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            A2 2A 40 00 00 00 -> ACK     # CFGLCK
            A2 29 04 00 00 10 -> NAK 0   # CFG0 locked
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 2A 00 00 00 00 -> NAK 0   # CFG1 locked
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 2B 11 22 33 44 -> ACK     # PWD stays writable
            A2 2C 55 66 00 00 -> ACK     # PACK too
            1B 11 22 33 44 -> 5566
            """)
    }

    @Test func nfcCounter() {
        expectTranscript(
            factoryTag(.ntag213),
            """
            A2 2A 10 00 00 00 -> ACK     # NFC_CNT_EN
            39 02 -> 000000              # no READ since it was enabled
            30 04 -> 0103A00C 340300FE 00000000 00000000
            39 02 -> 010000              # first READ after power-up counted
            3A 04 04 -> 0103A00C
            39 02 -> 010000              # only the first
            REMOVE -> REMOVED
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3A 04 04 -> 0103A00C         # FAST_READ counts too
            39 02 -> 020000
            39 00 -> NAK 0               # NTAG21x has only counter 2
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 2A 18 00 00 00 -> ACK     # NFC_CNT_PWD_PROT
            39 02 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B FF FF FF FF -> 0000
            39 02 -> 020000
            """)
    }

    @Test func uidAndCounterMirror() {
        let tag = factoryTag(.ntag213)
        expectTranscript(
            tag,
            """
            A2 2A 10 00 00 00 -> ACK     # NFC_CNT_EN
            A2 29 C4 00 05 FF -> ACK     # MIRROR_CONF 11 (UID and counter), MIRROR_BYTE 0, MIRROR_PAGE 05h
            REMOVE -> REMOVED
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 05 -> 30343031303230333034303530367830   # "04010203040506x0": the first READ counted, then mirrored
            30 09 -> 3030303031 000000 00000000 00000000 # "00001", then memory
            3A 04 04 -> 0103A00C                        # pages before the mirror are untouched
            A2 29 54 00 06 FF -> ACK     # MIRROR_CONF 01 (UID only), MIRROR_BYTE 1, MIRROR_PAGE 06h
            3A 06 06 -> 00303430                        # memory byte 0, then "040"
            A2 29 84 00 27 FF -> ACK     # counter mirror would run past the last user page: no mirror
            30 27 -> 00000000 000000BD 840027FF 10000000
            """)
        #expect(tag.memory[20..<24] == [0x34, 0x03, 0x00, 0xFE])  // memory itself is unchanged
    }
}
