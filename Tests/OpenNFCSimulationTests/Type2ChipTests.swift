import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import Testing

/// Transcripts every Type 2 profile must pass, parameterised by the chip table, plus the per-chip ones.
@Suite struct Type2ChipTests {
    /// The chips without sectors (NTAG I2C plus reads, wraps and ships differently: NTAGI2CPlusTests).
    static let unsectored = Type2ChipProfile.all.filter { !$0.hasSectors }

    @Test(arguments: unsectored)
    func memoryMapAndFactoryState(_ p: Type2ChipProfile) {
        let tag = factoryTag(p)
        #expect(tag.memory.count == p.pageCount * 4)
        #expect(Array(tag.memory[0..<12]) == [0x04, 0x01, 0x02, 0x8F, 0x03, 0x04, 0x05, 0x06, 0x04, 0x48, 0, 0])
        #expect(Array(tag.memory[12..<16]) == p.ndefCC)
        #expect(tag.ndefMessage == nil && tag.isNDEFFormatted && !tag.isNDEFReadOnly)
        #expect(tag.tlvs.map(\.type).suffix(2) == [0x03, 0xFE])
        #expect(16 + p.dataAreaSize <= (p.lastUserPage + 1) * 4)
        let last = p.pageCount - 1
        let lastHex = Hex.encode([UInt8(last)])
        let beyondHex = Hex.encode([UInt8(p.pageCount)])
        // The last page reads, then wraps to page 0; the page after it is out of range.
        // PACK (configuration chips) and the Ultralight C key pages read as zeros.
        let lastPage =
            p.configPage != nil || p.family == .ultralightC
            ? "00000000" : Hex.encode(tag.memory[last * 4..<last * 4 + 4])
        expectTranscript(
            tag,
            """
            30 \(lastHex) -> \(lastPage) 0401028F 03040506 04480000   # READ last page wraps to 0
            30 \(beyondHex) -> NAK 0                                   # READ out of range
            30 00 -> TIMEOUT                                           # mute after NAK
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 \(beyondHex) 01020304 -> NAK 0                          # WRITE out of range
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 \(Hex.encode([UInt8(p.lastUserPage)])) 01020304 -> ACK   # WRITE last user page
            A2 04 CAFEF00D -> ACK
            30 04 -> CAFEF00D \(Hex.encode(tag.memory[20..<32]))
            50 00 -> TIMEOUT                                           # HLTA: no answer
            30 04 -> TIMEOUT                                           # halted
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 04 -> CAFEF00D \(Hex.encode(tag.memory[20..<32]))
            """)
    }

    @Test(arguments: unsectored)
    func unformattedFactoryStateHasZeroCC(_ p: Type2ChipProfile) {
        let tag = factoryTag(p, formatted: false)
        #expect(Array(tag.memory[12..<16]) == [0, 0, 0, 0])
        #expect(!tag.isNDEFFormatted && tag.tlvs.isEmpty)
        #expect(p.shippedFormatted == (p.family == .ntag21x))
    }

    @Test(arguments: Type2ChipProfile.all)
    func tearingAtEveryPageOfAWriteSequence(_ p: Type2ChipProfile) throws {
        // Write pages 4…7 in order; tear at frame n with 0…4 bytes committed: earlier pages are written, page n is
        // whole or untouched, later pages untouched.
        let data: [[UInt8]] = (0..<4).map { i in [0xA0 + UInt8(i), 0xB0, 0xC0, 0xD0 + UInt8(i)] }
        for frame in 1...4 {
            for bytes in 0...4 {
                let tag = factoryTag(p)
                let before = tag.memory
                let field = VirtualField(clock: VirtualClockForTests.make(), timing: .instant)
                let fe = VirtualFieldFrontend(field: field)
                field.place(tag)
                _ = try fe.activate(try fe.poll([.nfcA])[0])
                field.faultPlan = FaultPlan([.tear(frame: frame, afterBytes: bytes)])
                for (i, d) in data.enumerated() {
                    let r = Result { () throws(RFError) in try fe.exchange([0xA2, UInt8(4 + i)] + d) }
                    if i + 1 < frame { #expect(try r.get() == .ack) }
                    if i + 1 == frame { #expect(throws: RFError.self) { try r.get() } }
                    if i + 1 >= frame { break }
                }
                for i in 0..<4 {
                    let page = Array(tag.memory[(4 + i) * 4..<(5 + i) * 4])
                    let old = Array(before[(4 + i) * 4..<(5 + i) * 4])
                    let written = i + 1 < frame || (i + 1 == frame && bytes >= 4)
                    #expect(
                        page == (written ? data[i] : old), "chip \(p.name) frame \(frame) bytes \(bytes) page \(4 + i)")
                }
            }
        }
    }

    @Test func ultralightHasOnlyTheBasicCommands() {
        expectTranscript(
            factoryTag(.ultralight),
            """
            30 00 -> 0401028F 03040506 04480000 E1100600
            30 0F -> 00000000 0401028F 03040506 04480000    # 16 pages: wraps after 0Fh
            60 -> TIMEOUT                                   # no GET_VERSION
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3A 00 01 -> TIMEOUT                             # no FAST_READ
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B FF FF FF FF -> TIMEOUT                       # no PWD_AUTH
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3C 00 -> TIMEOUT                                # no READ_SIG
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            39 00 -> TIMEOUT                                # no READ_CNT
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A0 0F -> ACK                                    # COMPATIBILITY WRITE
            01020304 00000000 00000000 00000000 -> ACK
            A2 02 00 00 00 80 -> ACK                        # L15
            A2 0F 01 02 03 04 -> NAK 0
            """)
    }

    @Test func ultralightEV1Counters() {
        expectTranscript(
            factoryTag(.ultralightEV1_48),
            """
            60 -> 0004030101000B03                          # GET_VERSION MF0UL11
            30 10 -> 000000FF 00050000 00000000 00000000    # CFG0, CFG1 (VCTID 05), PWD, PACK read as zero
            39 00 -> 000000                                 # READ_CNT 0
            A5 00 01 00 00 00 -> ACK                        # INCR_CNT 0 by 1
            A5 00 FF 00 00 7F -> ACK                        # by 255 (byte 4 ignored)
            39 00 -> 000100
            A5 02 FF FF FF 00 -> ACK
            39 02 -> FFFFFF
            3E 02 -> BD                                     # CHECK_TEARING_EVENT: valid
            A5 02 01 00 00 00 -> NAK 4                      # overflow
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            39 02 -> FFFFFF
            39 03 -> NAK 0                                  # no counter 3
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A5 03 01 00 00 00 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3E 03 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            4B 00112233445566778899AABBCCDDEEFF 00000000 -> 05   # VCSL answers VCTID
            3C 00 -> \(type2Zeros(32))
            1B FF FF FF FF -> 0000
            30 13 -> 00000000 0401028F 03040506 04480000    # 20 pages: wraps after 13h
            """)
    }

    @Test func ultralightEV1CounterTearingIsFlagged() throws {
        let tag = factoryTag(.ultralightEV1_128)
        let field = VirtualField(clock: VirtualClockForTests.make(), timing: .instant)
        let fe = VirtualFieldFrontend(field: field)
        field.place(tag)
        _ = try fe.activate(try fe.poll([.nfcA])[0])
        field.faultPlan = FaultPlan([.tear(frame: 1, afterBytes: 2)])
        #expect(throws: RFError.self) { try fe.exchange([0xA5, 0x01, 0x05, 0x00, 0x00, 0x00]) }
        expectTranscript(
            tag,
            """
            39 01 -> 000000       # the torn increment kept the old value
            3E 01 -> 00           # and flagged the tearing event
            A5 01 05 00 00 00 -> ACK
            3E 01 -> BD
            39 01 -> 050000
            """)
    }

    @Test func ultralightEV1PasswordAndDynamicLock() {
        expectTranscript(
            factoryTag(.ultralightEV1_128),
            """
            60 -> 0004030101000E03                          # GET_VERSION MF0UL21
            30 24 -> 00000000 000000FF 00050000 00000000    # dyn. lock, CFG0, CFG1, PWD
            A2 24 03 00 00 00 -> ACK                        # lock pages 16-19
            A2 12 01 02 03 04 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 27 AA BB CC DD -> ACK                        # PWD
            A2 28 12 34 00 00 -> ACK                        # PACK
            A2 26 81 05 00 00 -> ACK                        # PROT, AUTHLIM 1
            A2 25 00 00 00 20 -> ACK                        # AUTH0 20h
            30 20 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 1F -> 00000000 0401028F 03040506 04480000    # wraps at AUTH0
            1B AA BB CC DD -> 1234
            30 20 -> \(type2Zeros(16))
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 00 00 00 00 -> NAK 0                         # AUTHLIM 1 exhausted
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B AA BB CC DD -> NAK 0
            """)
    }

    @Test(arguments: [Type2ChipProfile.ntag215, .ntag216])
    func largeNTAGDynamicLockAndVersion(_ p: Type2ChipProfile) {
        let lock = p.dynamicLock!
        let version = Hex.encode(p.version!)
        // Lock bit 1 covers pages 32-47 (16 pages per bit).
        expectTranscript(
            factoryTag(p),
            """
            60 -> \(version)
            30 \(Hex.encode([UInt8(lock.page)])) -> 000000BD 040000FF 00050000 00000000
            A2 \(Hex.encode([UInt8(lock.page)])) 02 00 00 00 -> ACK
            A2 1F 01 02 03 04 -> ACK     # page 31 (bit 0) writable
            A2 20 01 02 03 04 -> NAK 0   # page 32 locked
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 2F 01 02 03 04 -> NAK 0   # page 47 locked
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 30 01 02 03 04 -> ACK     # page 48 writable
            A2 \(Hex.encode([UInt8(p.lastUserPage)])) 01 02 03 04 -> ACK
            A2 \(Hex.encode([UInt8(lock.page)])) 00 \(lock.lockBits > 8 ? "20" : "00") 00 00 -> ACK
            """)
        let tag = factoryTag(p)
        let s = TagLineSession(tag: tag)
        s.activate()
        // Setting every lock bit locks the last user page but never the configuration pages.
        _ = s.answer("A2 \(Hex.encode([UInt8(lock.page)])) FF FF FF 00")
        #expect(s.answer("A2 \(Hex.encode([UInt8(p.lastUserPage)])) 01 02 03 04") == "NAK 0")
        s.activate()
        #expect(s.answer("A2 \(Hex.encode([UInt8(p.configPage!)])) 04 00 00 FF") == "ACK")
        #expect(tag.memory[lock.page * 4 + 2] == UInt8((1 << lock.blockBits) - 1))
    }
}

enum VirtualClockForTests {
    static func make() -> OpenNFCRF.VirtualClock { OpenNFCRF.VirtualClock() }
}

/// The command table of every chip with the EV1/NTAG command set, driven by the profile's addresses.
@Suite struct Type2CommandTableTests {
    static let passwordChips = Type2ChipProfile.all.filter { $0.configPage != nil && !$0.hasSectors }

    func hex(_ p: Int) -> String { Hex.encode([UInt8(p)]) }

    @Test(arguments: passwordChips)
    func everyCommandAndErrorPath(_ p: Type2ChipProfile) {
        let c = p.configPage!
        let tag = factoryTag(p)
        let cfg = Hex.encode(p.factoryConfig)
        let counterIndex = p.family == .ntag21x ? "02" : "00"
        let counterAnswer = p.family == .ntag21x ? "NAK 0" : "000000"  // NTAG: NFC counter disabled
        expectTranscript(
            tag,
            """
            60 -> \(Hex.encode(p.version!))                           # GET_VERSION
            60 00 -> TIMEOUT                                          # GET_VERSION with a stray byte: malformed
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3A \(hex(c)) \(hex(c + 3)) -> \(cfg) 00000000 00000000    # FAST_READ config, PWD/PACK as zero
            3A 03 03 -> \(Hex.encode(p.ndefCC))                       # FAST_READ one page
            3C 00 -> \(type2Zeros(32))                                # READ_SIG
            3C 02 -> NAK 0                                            # READ_SIG bad address
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            39 \(counterIndex) -> \(counterAnswer)                    # READ_CNT
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            39 03 -> NAK 0                                            # READ_CNT bad counter
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B FF FF FF FF -> 0000                                    # PWD_AUTH, factory password
            1B FF FF FF FE -> NAK 0                                   # wrong password
            1B FF FF FF FF -> TIMEOUT                                 # mute after NAK
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B FF FF FF -> TIMEOUT                                    # PWD_AUTH too short: malformed
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A0 \(hex(c + 2)) -> ACK                                   # COMPATIBILITY WRITE of PWD
            01020304 05060708 090A0B0C 0D0E0F10 -> ACK
            A2 \(hex(c + 3)) 99 88 00 00 -> ACK                       # WRITE PACK
            1B 01 02 03 04 -> 9988
            A2 \(hex(c + 1)) 03 \(p.family == .ntag21x ? "00" : "05") 00 00 -> ACK   # AUTHLIM 3
            A2 \(hex(c)) \(Hex.encode(p.factoryConfig[0..<3])) 04 -> ACK              # AUTH0 = 4: writes need the password
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            30 04 -> \(Hex.encode(tag.memory[16..<32]))               # PROT 0: reads stay free
            A2 04 00 00 00 00 -> NAK 0                                # protected write
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A0 04 -> NAK 0                                            # protected COMPATIBILITY WRITE
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 03 00 00 00 00 -> ACK                                  # below AUTH0: allowed
            1B 00 00 00 00 -> NAK 0                                   # failure 1
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 00 00 00 00 -> NAK 0                                   # failure 2
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 01 02 03 04 -> 9988                                    # right password resets the count
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 00 00 00 00 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 00 00 00 00 -> NAK 0
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 00 00 00 00 -> NAK 0                                   # third failure: AUTHLIM 3 reached
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 01 02 03 04 -> NAK 0                                   # locked out for good
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 04 00 00 00 00 -> NAK 0                                # the protected area stays closed
            """)
        #expect(tag.failedAuthentications == 3)
    }

    @Test func constructorsRejectBadSizes() {
        #expect(throws: Type2Tag.FactoryError("NTAG213 has 180 bytes of memory, not 4")) {
            try Type2Tag(profile: .ntag213, memory: [0, 0, 0, 0])
        }
        #expect(throws: Type2Tag.FactoryError("a signature has 32 bytes, not 3")) {
            try factoryTag(.ntag213).setSignature([1, 2, 3])
        }
        #expect(throws: Type2Tag.FactoryError("UID0 88h is the cascade tag and cannot start a UID")) {
            try Type2Tag.factory(.ntag213, uid: [0x88, 1, 2, 3, 4, 5, 6])
        }
    }
}
