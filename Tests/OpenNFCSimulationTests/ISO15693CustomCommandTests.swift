import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The card side of the NXP ICODE (SL2S2002, SL2S2602 §9) and ST25DV (datasheet §7.6) custom commands: every
/// command, its refusals and the protection it enforces on the ISO/IEC 15693-3 commands.
@Suite struct ISO15693CustomCommandTests {
    static let slixUID = h("E0 04 01 50 12 34 56 78")
    static let slix2UID = h("E0 04 01 08 12 34 56 78")
    static let dvUID = h("E0 02 24 00 12 34 56 78")

    func slix() throws -> ISO15693Tag { try ISO15693Tag.factory(.icodeSLIX, uid: Self.slixUID) }
    func slix2() throws -> ISO15693Tag { try ISO15693Tag.factory(.icodeSLIX2, uid: Self.slix2UID) }
    func dv() throws -> ISO15693Tag { try ISO15693Tag.factory(.st25dv04k, uid: Self.dvUID) }

    /// `flags cmd mfg UID params` with the Address flag and high data rate (request flags 22, Option 40).
    func custom(_ tag: ISO15693Tag, _ command: UInt8, _ p: [UInt8] = [], option: Bool = false) -> [UInt8] {
        [0x22 | (option ? 0x40 : 0), command, tag.uid[1]] + tag.uid.reversed() + p
    }

    func send(_ tag: ISO15693Tag, _ frame: [UInt8]) -> VirtualAnswer { tag.receive(frame, tearAfter: nil) }

    /// GET RANDOM NUMBER, then the password (MSB first) XORed with it as it travels (LSB first).
    func xored(_ tag: ISO15693Tag, _ password: [UInt8]) throws -> [UInt8] {
        guard case .data(let r) = send(tag, custom(tag, 0xB2)), r.count == 3, r[0] == 0 else {
            Issue.record("GET RANDOM NUMBER did not answer")
            return []
        }
        return password.reversed().enumerated().map { i, b in b ^ r[1 + i % 2] }
    }

    func present(_ tag: ISO15693Tag, _ id: UInt8, _ password: [UInt8]) throws -> VirtualAnswer {
        send(tag, custom(tag, 0xB3, [id] + (try xored(tag, password))))
    }

    @Test func easSetResetAlarmProtectAndLockOnTheSLIX() throws {
        let tag = try slix()
        let air = Hex.encode(Array(tag.uid.reversed()))
        expectTranscript(
            tag,
            """
            22A504\(air) -> TIMEOUT              # EAS ALARM while EAS is reset: silent
            22A204\(air) -> 00                   # SET EAS
            22A504\(air) -> 00\(Hex.encode(ISO15693Tag.easSequence))  # EAS ALARM: the EAS sequence
            62A504\(air)00 -> 0103              # the EAS ID form is SLIX2 only: option not supported
            22A304\(air) -> 00                   # RESET EAS
            22A504\(air) -> TIMEOUT
            22A604\(air) -> 010F                 # PASSWORD PROTECT EAS without the EAS/AFI password
            22A704\(air)1234 -> 0101             # WRITE EAS ID: SLIX2 only
            22AB04\(air) -> 0101                 # GET NXP SYSTEM INFORMATION: SLIX2 only
            22A202\(air) -> 0101                 # another manufacturer's code
            02A2 -> 0102                         # no manufacturer code
            22A204\(air)00 -> 0102               # a parameter SET EAS does not take
            """)
        #expect(try present(tag, 0x10, h("00 00 00 00")) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA6)) == .data([0x00]))  // EAS now needs the password: presented
        #expect(send(tag, custom(tag, 0xA6, option: true)) == .data([0x00]))  // AFI too
        #expect(tag.nxp.easProtected && tag.nxp.afiProtected)
        #expect(send(tag, custom(tag, 0xA2)) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA4)) == .data([0x00]))  // LOCK EAS
        #expect(send(tag, custom(tag, 0xA3)) == .data(h("01 0F")))  // locked: RESET EAS refused
        #expect(tag.nxp.eas && tag.nxp.easLocked)
        // After a power cycle the password is no longer presented: AFI writes are refused.
        tag.powerOn()
        #expect(send(tag, [0x22, 0x27] + tag.uid.reversed() + [0x07]) == .data(h("01 0F")))
        #expect(try present(tag, 0x10, h("00 00 00 00")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x27] + tag.uid.reversed() + [0x07]) == .data([0x00]))
        #expect(tag.afi == 0x07)
        // The SLIX has only the EAS/AFI password.
        #expect(send(tag, custom(tag, 0xB3, [0x01, 0, 0, 0, 0])) == .data(h("01 0F")))
        #expect(send(tag, custom(tag, 0xBA, [0, 0, 0, 0])) == .data(h("01 01")))
    }

    @Test func passwordsAreXoredWithTheRandomNumberWrittenLockedAndAWrongOneMutesTheChip() throws {
        let tag = try slix2()
        // SET PASSWORD before any GET RANDOM NUMBER cannot be right: the chip goes mute until power-on.
        #expect(send(tag, custom(tag, 0xB3, [0x01, 0, 0, 0, 0])) == .silence)
        #expect(send(tag, [0x22, 0x20] + tag.uid.reversed() + [0x00]) == .silence)
        tag.powerOn()
        #expect(try present(tag, 0x01, h("00 00 00 00")) == .data([0x00]))
        // WRITE PASSWORD (plain, LSB first) needs that password presented; then it must be presented again.
        #expect(send(tag, custom(tag, 0xB4, h("02 44 33 22 11"))) == .data(h("01 0F")))
        #expect(send(tag, custom(tag, 0xB4, h("01 44 33 22 11"))) == .data([0x00]))
        #expect(tag.nxp.passwords[0x01] == h("11 22 33 44"))
        #expect(send(tag, custom(tag, 0xB5, [0x01])) == .data(h("01 0F")))  // not presented since the write
        // WRITE PASSWORD only in addressed or selected mode.
        #expect(try present(tag, 0x01, h("11 22 33 44")) == .data([0x00]))
        #expect(send(tag, [0x02, 0xB4, 0x04] + h("01 00 00 00 00")) == .data(h("01 0F")))
        #expect(send(tag, custom(tag, 0xB5, [0x01])) == .data([0x00]))
        #expect(try present(tag, 0x01, h("11 22 33 44")) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xB4, h("01 00 00 00 00"))) == .data(h("01 0F")))  // locked
        #expect(tag.nxp.lockedPasswords == [0x01])
        // The privacy password's factory value, then a wrong one: muted.
        #expect(try present(tag, 0x04, h("0F 0F 0F 0F")) == .data([0x00]))
        #expect(try present(tag, 0x02, h("FF FF FF FF")) == .silence)
        #expect(send(tag, custom(tag, 0xB2)) == .silence)
        tag.powerOn()
        #expect(send(tag, custom(tag, 0xB3, [0x20, 0, 0, 0, 0])) == .data(h("01 0F")))  // no such password ID
        #expect(send(tag, custom(tag, 0xB3, [0x01, 0, 0])) == .data(h("01 02")))  // cut short
        // A random number serves one password: sent again with the same random, the right password mutes the chip.
        let once = try xored(tag, h("0F 0F 0F 0F"))
        #expect(send(tag, custom(tag, 0xB3, [0x04] + once)) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xB3, [0x04] + once)) == .silence)
        tag.powerOn()
        // The random numbers differ from one request to the next.
        #expect(send(tag, custom(tag, 0xB2)) != send(tag, custom(tag, 0xB2)))
    }

    @Test func pageProtectionGuardsReadsAndWritesByPassword() throws {
        let tag = try slix2()
        let onAir = Array(tag.uid.reversed())
        #expect(send(tag, custom(tag, 0xB6, [0x10, 0x31])) == .data(h("01 0F")))  // passwords not presented
        #expect(try present(tag, 0x01, h("00 00 00 00")) == .data([0x00]))
        #expect(try present(tag, 0x02, h("00 00 00 00")) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xB6, [79, 0x31])) == .data(h("01 10")))  // the counter block is no page
        // Low page (blocks 0–15) write-protected, high page (16–78) read- and write-protected.
        #expect(send(tag, custom(tag, 0xB6, [0x10, 0x32])) == .data([0x00]))
        #expect(
            send(tag, custom(tag, 0xAB)) == .data(h("00 10 32 00 1F 31 00 00")))
        #expect(send(tag, custom(tag, 0xB8, [0x0F, 0x01])) == .data(h("00 02 03")))
        tag.powerOn()
        #expect(send(tag, [0x22, 0x20] + onAir + [0x00]) == .data(h("00 E1 40 27 01")))  // low page: readable
        #expect(send(tag, [0x22, 0x21] + onAir + h("02 01 02 03 04")) == .data(h("01 0F")))
        #expect(send(tag, [0x22, 0x20] + onAir + [0x10]) == .data(h("01 0F")))
        #expect(send(tag, [0x22, 0x23] + onAir + [0x0E, 0x03]) == .data(h("01 0F")))  // the run crosses the pointer
        #expect(send(tag, [0x22, 0x22] + onAir + [0x02]) == .data(h("01 0F")))  // Lock Block writes too
        #expect(try present(tag, 0x02, h("00 00 00 00")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("02 01 02 03 04")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("10 01 02 03 04")) == .data(h("01 0F")))  // needs read too
        #expect(try present(tag, 0x01, h("00 00 00 00")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("10 01 02 03 04")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x20] + onAir + [0x10]) == .data(h("00 01 02 03 04")))
        // LOCK PAGE PROTECTION CONDITION takes the current pointer; then PROTECT PAGE is refused for good.
        #expect(send(tag, custom(tag, 0xB7, [0x11])) == .data(h("01 0F")))
        #expect(send(tag, custom(tag, 0xB7, [0x10])) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xB6, [0x00, 0x00])) == .data(h("01 0F")))
        #expect(send(tag, custom(tag, 0xAB)) == .data(h("00 10 32 08 1F 31 00 00")))
        // 64-bit protection: every guarded access then needs both passwords.
        #expect(send(tag, custom(tag, 0xBB)) == .data([0x00]))
        tag.powerOn()
        #expect(try present(tag, 0x02, h("00 00 00 00")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("02 05 06 07 08")) == .data(h("01 0F")))
        #expect(try present(tag, 0x01, h("00 00 00 00")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("02 05 06 07 08")) == .data([0x00]))
    }

    @Test func privacyModeHidesTheTagUntilThePrivacyPasswordAndDestroyIsForever() throws {
        let tag = try slix2()
        let onAir = Array(tag.uid.reversed())
        #expect(send(tag, custom(tag, 0xBA, try xored(tag, h("0F 0F 0F 0F")))) == .data([0x00]))
        #expect(tag.nxp.privacy)
        #expect(send(tag, h("26 01 00")) == .silence)  // inventory: invisible
        #expect(send(tag, [0x22, 0x2B] + onAir) == .silence)
        #expect(send(tag, custom(tag, 0xBD)) == .silence)
        tag.powerOn()
        #expect(send(tag, h("26 01 00")) == .silence)  // privacy is kept in EEPROM
        #expect(try present(tag, 0x01, h("00 00 00 00")) == .silence)  // only the privacy password is heard
        #expect(try present(tag, 0x04, h("0F 0F 0F 0F")) == .data([0x00]))
        #expect(!tag.nxp.privacy)
        #expect(send(tag, h("26 01 00")) == .data([0x00, 0x00] + onAir))
        // READ SIGNATURE: the 32 bytes kept for the chip.
        #expect(send(tag, custom(tag, 0xBD)) == .data([0x00] + tag.nxp.signature))
        #expect(tag.nxp.signature.count == 32)
        // DESTROY with a wrong destroy password mutes; with the right one the chip never answers again.
        #expect(send(tag, custom(tag, 0xB9, try xored(tag, h("00 00 00 00")))) == .silence)
        tag.powerOn()
        #expect(send(tag, custom(tag, 0xB9, try xored(tag, h("0F 0F 0F 0F")))) == .data([0x00]))
        tag.powerOn()
        #expect(send(tag, h("26 01 00")) == .silence)
        #expect(send(tag, custom(tag, 0xB2)) == .silence)
    }

    @Test func slix2EASIDAlarmAndInventoryRead() throws {
        let tag = try slix2()
        let onAir = Array(tag.uid.reversed())
        #expect(send(tag, custom(tag, 0xA7, h("34 12"))) == .data([0x00]))  // EAS ID 1234, LSB first
        #expect(tag.nxp.easID == h("12 34"))
        #expect(send(tag, custom(tag, 0xA2)) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA5, [0x00], option: true)) == .data(h("00 34 12")))
        #expect(send(tag, custom(tag, 0xA5, [0x08, 0x34], option: true)) == .data(h("00 34 12")))
        #expect(send(tag, custom(tag, 0xA5, [0x08, 0x35], option: true)) == .silence)
        #expect(send(tag, custom(tag, 0xA5, [0x04, 0x35], option: true)) == .data(h("01 02")))
        // INVENTORY READ: inventory flags, A0, 04, mask length 0, first block 0, two blocks.
        #expect(send(tag, h("26 A0 04 00 00 01")) == .data(h("00 E1 40 27 01 03 00 FE 00")))
        #expect(send(tag, h("26 A1 04 00 00 00")) == .data(h("00 E1 40 27 01")))
        // With Option: the UID bytes past an 8-bit mask come first.
        #expect(
            send(tag, [0x66, 0xA0, 0x04, 0x08, onAir[0], 0x00, 0x00])
                == .data([0x00] + onAir.dropFirst() + h("E1 40 27 01")))
        #expect(send(tag, h("26 A0 04 08 00 00 00")) == .silence)  // the mask does not match
        #expect(send(tag, h("26 A0 02 00 00 00")) == .silence)  // not NXP's code
        #expect(send(tag, h("26 A0 04 00 4F 01")) == .silence)  // past the memory
        // The counter (block 79): writing 1 increments, other values preset.
        #expect(send(tag, [0x22, 0x21] + onAir + h("4F FE FF 00 00")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("4F 01 00 00 00")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("4F 01 00 00 00")) == .data([0x00]))
        #expect(send(tag, [0x22, 0x20] + onAir + [0x4F]) == .data(h("00 FF FF 00 00")))  // saturates
        #expect(send(tag, [0x22, 0x22] + onAir + [0x4F]) == .data(h("01 0F")))
    }

    @Test func st25dvConfigurationPasswordsAndAreaProtection() throws {
        let tag = try dv()
        let onAir = Array(tag.uid.reversed())
        let air = Hex.encode(onAir)
        expectTranscript(
            tag,
            """
            22A002\(air)04 -> 0003               # READ CONFIGURATION RFA1SS: factory 03
            22A002\(air)05 -> 000F               # ENDA1: the last sector of the 04K
            22A002\(air)10 -> 0110               # no register there
            22A102\(air)0700 -> 010F             # WRITE CONFIGURATION without the configuration session
            22B302\(air)000000000000000001 -> 010F  # PRESENT PASSWORD 0, wrong
            22B302\(air)000000000000000000 -> 00    # PRESENT PASSWORD 0, factory value
            22A102\(air)0701 -> 010F             # ENDA2 before ENDA1: refused
            22A102\(air)0501 -> 00               # ENDA1 = sector 1: area 1 is blocks 0-15
            22A102\(air)060B -> 00               # RFA2SS: RF_PWD_3, reads and writes need it
            22A102\(air)0701 -> 00               # ENDA2 = sector 1 too: area 2 is empty, area 3 starts at 16
            22A102\(air)0803 -> 00               # RFA3SS: open
            22A102\(air)07 -> 0102               # cut short
            22AD02\(air)02 -> 0004               # READ DYNAMIC CONFIGURATION EH_CTRL_Dyn: FIELD_ON
            22AE02\(air)020F -> 00               # only EH_EN is writable
            22AD02\(air)02 -> 0005
            22AE02\(air)0D01 -> 010F             # MB_EN while MB_MODE forbids the mailbox
            22AD02\(air)01 -> 0110
            22C002\(air)00 -> 00E1404001         # FAST READ SINGLE BLOCK
            22C302\(air)0001 -> 00E14040010300FE00  # FAST READ MULTIPLE BLOCKS
            22A024\(air)00 -> 0101               # not ST's manufacturer code
            22A902\(air)00 -> 0101               # MANAGE GPO: not simulated
            """)
        // Area 3 (from block 16) is open; move it to RF_PWD_1 with writes protected, then it needs the password.
        #expect(send(tag, custom(tag, 0xA1, [0x08, 0x05])) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA1, [0x09, 0x0F])) == .data([0x00]))
        tag.powerOn()
        #expect(send(tag, [0x22, 0x21] + onAir + h("10 01 02 03 04")) == .data(h("01 12")))
        #expect(send(tag, [0x22, 0x20] + onAir + [0x10]) == .data(h("00 00 00 00 00")))  // reads stay open
        #expect(send(tag, custom(tag, 0xB3, [0x01] + h("00 00 00 00 00 00 00 00"))) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("10 01 02 03 04")) == .data([0x00]))
        // WRITE PASSWORD needs its session; a wrong PRESENT PASSWORD closes every session.
        #expect(send(tag, custom(tag, 0xB1, [0x02] + h("11 11 11 11 11 11 11 11"))) == .data(h("01 0F")))
        #expect(send(tag, custom(tag, 0xB1, [0x01] + h("01 02 03 04 05 06 07 08"))) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xB3, [0x01] + h("00 00 00 00 00 00 00 00"))) == .data(h("01 0F")))
        #expect(send(tag, [0x22, 0x21] + onAir + h("11 01 02 03 04")) == .data(h("01 12")))
        #expect(send(tag, custom(tag, 0xB3, [0x04] + h("00 00 00 00 00 00 00 00"))) == .data(h("01 0F")))
        // Reads of a read-protected area answer 15; Area 1 is always readable.
        #expect(send(tag, custom(tag, 0xB3, [0x00] + h("00 00 00 00 00 00 00 00"))) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA1, [0x08, 0x09])) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA1, [0x04, 0x0D])) == .data([0x00]))
        tag.powerOn()
        #expect(send(tag, [0x22, 0x20] + onAir + [0x10]) == .data(h("01 15")))
        #expect(send(tag, [0x22, 0x20] + onAir + [0x00]) == .data(h("00 E1 40 40 01")))
        #expect(send(tag, [0x22, 0x21] + onAir + h("00 E1 40 40 01")) == .data(h("01 12")))  // Area 1 writes: forbidden
        #expect(send(tag, custom(tag, 0xB3, [0x01] + h("01 02 03 04 05 06 07 08"))) == .data([0x00]))
        #expect(send(tag, [0x22, 0x20] + onAir + [0x10]) == .data(h("00 01 02 03 04")))
        // LOCK_CFG freezes the configuration, LOCK_CCFILE the CC blocks.
        #expect(send(tag, custom(tag, 0xB3, [0x00] + h("00 00 00 00 00 00 00 00"))) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA1, [0x04, 0x00])) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA1, [0x0C, 0x01])) == .data([0x00]))
        #expect(send(tag, [0x22, 0x21] + onAir + h("00 E1 40 40 01")) == .data(h("01 12")))
        #expect(send(tag, custom(tag, 0xA1, [0x0F, 0x01])) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA1, [0x0C, 0x00])) == .data(h("01 0F")))
        #expect(tag.st25.configuration == h("88 03 01 00 00 01 0B 01 09 0F 03 00 01 00 07 01"))
    }

    @Test func customStateSurvivesTheTagFile() throws {
        let tag = try slix2()
        #expect(try present(tag, 0x01, h("00 00 00 00")) == .data([0x00]))
        #expect(try present(tag, 0x02, h("00 00 00 00")) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xB6, [0x20, 0x01])) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xB4, h("02 DD CC BB AA"))) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xA2)) == .data([0x00]))
        #expect(send(tag, custom(tag, 0xBA, try xored(tag, h("0F 0F 0F 0F")))) == .data([0x00]))
        let text = try TagFile.encodeJSON(tag)
        let back = try #require(try TagFile.decodeJSON(text) as? ISO15693Tag)
        #expect(back.nxp == tag.nxp)
        #expect(back.nxp.passwords[0x02] == h("AA BB CC DD") && back.nxp.privacy && back.nxp.eas)
        #expect(try TagFile.encodeJSON(back) == text)
        let st = try dv()
        _ = send(st, custom(st, 0xB3, [0x00] + [UInt8](repeating: 0, count: 8)))
        _ = send(st, custom(st, 0xA1, [0x06, 0x07]))
        _ = send(st, custom(st, 0xB1, [0x00] + h("01 02 03 04 05 06 07 08")))
        let stBack = try #require(try TagFile.decodeJSON(try TagFile.encodeJSON(st)) as? ISO15693Tag)
        #expect(stBack.st25.configuration == st.st25.configuration && stBack.st25.passwords == st.st25.passwords)
        // Members a chip does not have are refused by field path.
        let bad = text.replacingOccurrences(of: "\"easAfi\"", with: "\"kill\"")
        #expect {
            try TagFile.decodeJSON(bad)
        } throws: { error in
            "\(error)".contains("type5.nxp.passwords.kill")
        }
    }
}
