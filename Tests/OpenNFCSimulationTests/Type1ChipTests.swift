import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import Testing

let type1UID: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]

func type1Tag(_ profile: Type1ChipProfile, formatted: Bool = true) -> Type1Tag {
    try! Type1Tag.factory(profile, uid: type1UID, ndefFormatted: formatted)
}

/// `00` repeated `n` times, for transcripts.
func z(_ n: Int) -> String { String(repeating: "00", count: n) }

/// Exact command/response transcripts for Topaz 512 and Topaz 96 (Topaz datasheet TPZ-201 §10–§13; T1T 1.2
/// command set), UID0–UID6 `01 02 03 04 05 06 07`: every command carries the UID echo `01 02 03 04`.
@Suite struct Type1ChipTests {
    @Test func topaz512IdentificationAndReads() {
        expectTranscript(
            type1Tag(.topaz512),
            """
            78 00 00 00 00 00 00 -> 12 4C 01 02 03 04            # RID: HR0 HR1 UID0-3
            78 00 00 00 AA BB CC -> 12 4C 01 02 03 04            # RID does not check its UID field
            00 00 00 01 02 03 04 -> 12 4C 0102030405060700 E1103F00 0103F230 3302 03F0 0203 0300 \(z(96))  # RALL
            01 08 00 01 02 03 04 -> 08 E1                        # READ byte 8 (CC0)
            01 0B 00 01 02 03 04 -> 0B 00                        # READ byte 11 (CC3: write access granted)
            01 F0 00 01 02 03 04 -> F0 00                        # READ ADD 70h (F0h mirrors: 7 address bits)
            02 01 \(z(8)) 01 02 03 04 -> 01 E1103F00 0103F230   # READ8 block 1
            02 41 \(z(8)) 01 02 03 04 -> 41 E1103F00 0103F230   # READ8 block 41h mirrors block 1
            10 00 \(z(8)) 01 02 03 04 -> 00 0102030405060700 E1103F00 0103F230 3302 03F0 0203 0300 \(z(104))  # RSEG 0
            10 30 \(z(8)) 01 02 03 04 -> 30 \(z(128))            # RSEG 3
            """)
    }

    @Test func framesThatGetNoAnswer() {
        expectTranscript(
            type1Tag(.topaz512),
            """
            01 08 00 01 02 03 05 -> TIMEOUT        # wrong UID echo
            00 00 00 04 03 02 01 -> TIMEOUT        # RALL with the UID reversed
            01 08 00 01 02 03 -> TIMEOUT           # READ one byte short
            78 00 00 00 00 00 -> TIMEOUT           # RID one byte short
            02 01 00 00 01 02 03 04 -> TIMEOUT     # READ8 without its 8 padding bytes
            77 00 00 01 02 03 04 -> TIMEOUT        # no such command
            30 04 -> TIMEOUT                       # a Type 2 READ
            01 08 00 01 02 03 04 -> 08 E1          # and the chip still listens: no mute state
            """)
    }

    @Test func writesEraseOrOR() {
        expectTranscript(
            type1Tag(.topaz512),
            """
            53 18 AB 01 02 03 04 -> 18 AB          # WRITE-E byte 18h (block 3)
            1A 18 44 01 02 03 04 -> 18 EF          # WRITE-NE: AB OR 44
            53 18 10 01 02 03 04 -> 18 10          # WRITE-E erases first
            54 10 D0 D1 D2 D3 D4 D5 D6 D7 01 02 03 04 -> 10 D0D1D2D3D4D5D6D7   # WRITE-E8 block 10h
            1B 10 01 02 04 08 00 00 00 00 01 02 03 04 -> 10 D1D3D6DBD4D5D6D7   # WRITE-NE8 ORs
            02 10 \(z(8)) 01 02 03 04 -> 10 D1D3D6DBD4D5D6D7
            54 3F 11 22 33 44 55 66 77 88 01 02 03 04 -> 3F 1122334455667788   # last block
            """)
    }

    @Test func romReservedLockAndOTPBytes() {
        expectTranscript(
            type1Tag(.topaz512),
            """
            53 00 FF 01 02 03 04 -> 00 01          # UID0: ROM
            53 07 FF 01 02 03 04 -> 07 00          # block 0 byte 7: reserved
            53 68 FF 01 02 03 04 -> 68 00          # block D: reserved
            54 0D \(z(7))FF 01 02 03 04 -> 0D \(z(8))   # block D with WRITE-E8
            53 72 81 01 02 03 04 -> 72 81          # OTP0: ORed
            53 72 00 01 02 03 04 -> 72 81          # WRITE-E cannot clear an OTP bit
            54 0F FF FF 00 00 00 00 00 00 01 02 03 04 -> 0F 0000 00 00 00 00 00 00  # 120-121 reserved
            53 70 02 01 02 03 04 -> 70 02          # LOCK0 bit 1: block 1 locked
            53 70 00 01 02 03 04 -> 70 02          # lock bits stay set
            53 08 00 01 02 03 04 -> 08 E1          # a locked block echoes the stored byte
            1B 01 FF FF FF FF FF FF FF FF 01 02 03 04 -> 01 E1103F00 0103F230   # WRITE-NE8 too
            53 10 5A 01 02 03 04 -> 10 5A          # block 2 is not locked
            53 71 40 01 02 03 04 -> 71 40          # LOCK1 bit 6: block E (OTP frozen)
            53 73 01 01 02 03 04 -> 73 00          # OTP1 no longer programmable
            53 70 04 01 02 03 04 -> 70 06          # lock bytes themselves stay programmable
            """)
    }

    @Test func dynamicLockBytesLockBlocksFrom10h() {
        expectTranscript(
            type1Tag(.topaz512),
            """
            54 10 D0 D1 D2 D3 D4 D5 D6 D7 01 02 03 04 -> 10 D0D1D2D3D4D5D6D7
            1A 7A 01 01 02 03 04 -> 7A 01          # dynamic lock byte 122 bit 0: block 10h
            54 10 \(z(8)) 01 02 03 04 -> 10 D0D1D2D3D4D5D6D7   # refused: the echo shows the old data
            54 11 AA AA AA AA AA AA AA AA 01 02 03 04 -> 11 AAAAAAAAAAAAAAAA
            1B 0F 00 00 00 00 00 00 00 80 01 02 03 04 -> 0F 0000 01 00 00 00 00 80  # byte 127 bit 7: block 3Fh
            54 3F 11 \(z(7)) 01 02 03 04 -> 3F \(z(8))
            54 0F \(z(8)) 01 02 03 04 -> 0F 0000 01 00 00 00 00 80   # WRITE-E8 cannot clear lock bits
            """)
    }

    @Test func topaz96IsStatic() {
        expectTranscript(
            type1Tag(.topaz96),
            """
            78 00 00 00 00 00 00 -> 11 48 01 02 03 04
            00 00 00 01 02 03 04 -> 11 48 0102030405060700 E1100E00 0300 0000 \(z(104))
            02 01 \(z(8)) 01 02 03 04 -> TIMEOUT          # READ8: no dynamic commands
            10 00 \(z(8)) 01 02 03 04 -> TIMEOUT          # RSEG
            54 01 \(z(8)) 01 02 03 04 -> TIMEOUT          # WRITE-E8
            1B 01 \(z(8)) 01 02 03 04 -> TIMEOUT          # WRITE-NE8
            01 78 00 01 02 03 04 -> 78 00                 # bytes 120-127 do not exist: 00
            53 78 FF 01 02 03 04 -> 78 00                 # and ignore writes
            53 0C 03 01 02 03 04 -> 0C 03
            """)
    }

    @Test func activationReportsType1() throws {
        let field = VirtualField(clock: VirtualClock(), timing: .instant)
        let handle = field.place(type1Tag(.topaz512))
        let target = try field.activate(handle, isoDEP: true)
        #expect(target.identifier == [0x01, 0x02, 0x03, 0x04])
        #expect(target.sensRes == 0x0C00)
        #expect(target.selRes == nil)
        #expect(target.nfcA?.type1 == NFCAActivation.Type1Header(hr0: 0x12, hr1: 0x4C))
        #expect(target.ats == nil && !target.isISODEP)
    }

    @Test func type1HasNoHaltState() throws {
        let field = VirtualField(clock: VirtualClock(), timing: .instant)
        let handle = field.place(type1Tag(.topaz96))
        let frontend = VirtualFieldFrontend(field: field)
        frontend.pollsWithWakeUp = false
        _ = try frontend.activate(try #require(frontend.poll([.nfcA]).first))
        #expect(throws: RFError.self) { try frontend.exchange([0x50, 0x00]) }  // no HLTA: the tag ignores it
        #expect(try frontend.exchange(h1("01 08 00 01 02 03 04")) == .frame(h1("08 E1")))
        frontend.deactivate()
        // Released, not halted: a REQA (no wake-up) finds it again.
        #expect(try frontend.poll([.nfcA]).map(\.handle) == [handle])
    }

    @Test func tearingIsPerByte() {
        let tag = type1Tag(.topaz512)
        _ = tag.receive(h1("54 10 11 22 33 44 55 66 77 88 01 02 03 04"), tearAfter: nil)
        // Torn after 3 bytes of a WRITE-E8: bytes 0-2 new, byte 3 erased (it was being programmed), 4-7 old.
        #expect(tag.receive(h1("54 10 A0 A1 A2 A3 A4 A5 A6 A7 01 02 03 04"), tearAfter: 3) == .silence)
        #expect(Array(tag.memory[128..<136]) == h1("A0 A1 A2 00 55 66 77 88"))
        // A torn WRITE-NE8 ORs its first bytes and leaves the rest.
        _ = tag.receive(h1("1B 10 0F 0F 0F 0F 0F 0F 0F 0F 01 02 03 04"), tearAfter: 2)
        #expect(Array(tag.memory[128..<136]) == h1("AF AF A2 00 55 66 77 88"))
        // A single-byte WRITE-E torn at once leaves the byte erased; with one byte it is complete (answer lost).
        _ = tag.receive(h1("53 18 77 01 02 03 04"), tearAfter: nil)
        _ = tag.receive(h1("53 18 99 01 02 03 04"), tearAfter: 0)
        #expect(tag.memory[0x18] == 0x00)
        #expect(tag.receive(h1("53 18 99 01 02 03 04"), tearAfter: 1) == .silence)
        #expect(tag.memory[0x18] == 0x99)
        // A torn write to a locked block changes nothing.
        _ = tag.receive(h1("53 70 08 01 02 03 04"), tearAfter: nil)
        _ = tag.receive(h1("53 18 00 01 02 03 04"), tearAfter: 0)
        #expect(tag.memory[0x18] == 0x99)
    }

    @Test func writesTakeEEPROMTime() throws {
        let clock = VirtualClock()
        let field = VirtualField(clock: clock, timing: .instant)
        _ = try field.activate(field.place(type1Tag(.topaz512)), isoDEP: false)
        let t0 = clock.now
        _ = try field.exchange(h1("01 08 00 01 02 03 04"))
        #expect(clock.now == t0)
        _ = try field.exchange(h1("53 18 01 01 02 03 04"))
        #expect(clock.now.duration(since: t0) == Type1Tag.eraseWriteTime)
        _ = try field.exchange(h1("1B 10 \(z(8)) 01 02 03 04"))
        #expect(clock.now.duration(since: t0) == Type1Tag.eraseWriteTime + Type1Tag.writeTime)
        _ = try field.exchange(h1("53 00 01 01 02 03 04"))  // ROM: nothing programmed
        #expect(clock.now.duration(since: t0) == Type1Tag.eraseWriteTime + Type1Tag.writeTime)
    }

    @Test func factoryHoldingAMessageFlowsAroundBlocksDToF() throws {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        let tag = try Type1Tag.factory(.topaz512, uid: type1UID, holding: message)
        #expect(tag.ndefMessage == message)
        // TLVs: Lock Control, Memory Control, NDEF with the 3-byte length, all from byte 12.
        #expect(Array(tag.memory[12..<26]) == h1("01 03 F2 30 33 02 03 F0 02 03 03 FF 01 2C"))
        #expect(tag.memory[104..<128].allSatisfy { $0 == 0 })
        #expect(tag.tlvs.map(\.type) == [0x01, 0x02, 0x03, 0xFE])
        #expect(throws: Type1Tag.FactoryError.self) {
            try Type1Tag.factory(.topaz96, uid: type1UID, holding: Array(repeating: 1, count: 91))
        }
        let small = try Type1Tag.factory(.topaz96, uid: type1UID, holding: Array(repeating: 1, count: 90))
        #expect(small.ndefMessage?.count == 90)
        #expect(throws: Type1Tag.FactoryError.self) { try Type1Tag.factory(.topaz96, uid: [1, 2, 3]) }
    }

    @Test(arguments: Type1ChipProfile.all)
    func tagFilesRoundTrip(_ profile: Type1ChipProfile) throws {
        let tag = try Type1Tag.factory(profile, uid: type1UID, holding: h1("D1 01 04 54 02 65 6E 68"))
        _ = tag.receive(h1("53 72 5A 01 02 03 04"), tearAfter: nil)
        let json = try TagFile.encodeJSON(tag)
        let back = try #require(try TagFile.decodeJSON(json) as? Type1Tag)
        #expect(back.memory == tag.memory)
        #expect(back.profile == profile)
        #expect(TagFile.chip(for: back)?.ndefMessage(back) == h1("D1 01 04 54 02 65 6E 68"))
        let report = try #require(TagFile.chip(named: profile.name)?.report?(back))
        #expect(report.ndefAccess == "read/write")
        #expect(report.lines.contains { $0.hasPrefix("Capability container: E1 10") })
    }
}

func h1(_ s: String) -> [UInt8] { try! Hex.decode(s) }

/// Random and hostile frames never trap, and what the datasheet promises holds: the UID block, block D and the
/// reserved bytes never change, lock bits are never cleared, and a block once locked keeps its content.
@Suite struct Type1RobustnessTests {
    static let commands: [(UInt8, Int)] = [
        (0x78, 7), (0x00, 7), (0x01, 7), (0x53, 7), (0x1A, 7), (0x10, 14), (0x02, 14), (0x54, 14), (0x1B, 14),
    ]

    @Test(arguments: Type1ChipProfile.all)
    func twentyThousandHostileFrames(_ p: Type1ChipProfile) {
        var rng = SeededGenerator(seed: 0x7091_0000 + UInt64(p.memorySize))
        let tag = type1Tag(p)
        let fixed = { (m: [UInt8]) in
            Array(m[0..<8]) + Array(m[104..<112]) + (p.memorySize > 128 ? Array(m[120..<122]) : [])
        }
        let before = fixed(tag.memory)
        var answers = 0
        var clearedLocks = 0
        var changedLockedBlocks = 0
        for _ in 0..<20_000 {
            let wellFormed = Int.random(in: 0..<10, using: &rng) < 8
            let command = Self.commands.randomElement(using: &rng)!
            let length = wellFormed ? command.1 : Int.random(in: 0...20, using: &rng)
            var frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if wellFormed {
                frame[0] = command.0
                if Int.random(in: 0..<8, using: &rng) != 0 { frame.replaceSubrange((length - 4)..., with: tag.uidEcho) }
                // Lock bits only now and then, so that most writes land.
                if frame.count > 1 && (frame[1] & 0x7F) >= 0x70 && Bool.random(using: &rng) { frame[1] &= 0x6F }
            }
            let locksBefore =
                Array(tag.memory[112..<114])
                + (p.dynamicLock.map { Array(tag.memory[$0.address..<$0.address + 6]) } ?? [])
            let lockedBlocks = (1..<p.blockCount).filter { tag.isLocked(block: $0) }
            let lockedContent = lockedBlocks.map { Array(tag.memory[$0 * 8..<$0 * 8 + 8]) }
            let tear: Int? = Int.random(in: 0..<10, using: &rng) == 0 ? Int.random(in: 0...8, using: &rng) : nil
            if tag.receive(frame, tearAfter: tear) != .silence { answers += 1 }
            let locksAfter =
                Array(tag.memory[112..<114])
                + (p.dynamicLock.map { Array(tag.memory[$0.address..<$0.address + 6]) } ?? [])
            if !zip(locksBefore, locksAfter).allSatisfy({ $0 & $1 == $0 }) { clearedLocks += 1 }
            for (b, content) in zip(lockedBlocks, lockedContent) where b != 14 {
                if Array(tag.memory[b * 8..<b * 8 + 8]) != content { changedLockedBlocks += 1 }
            }
        }
        #expect(clearedLocks == 0, "a lock bit was cleared")
        #expect(changedLockedBlocks == 0, "a locked block changed")
        #expect((1..<p.blockCount).contains { tag.isLocked(block: $0) }, "the run locked no block at all")
        #expect(tag.memory.count == p.memorySize)
        #expect(fixed(tag.memory) == before)
        #expect(answers > 5_000)
    }
}
