import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The card side of ISO/IEC 15693-3 on every virtual Type 5 chip: states, addressing, every command and error path.
@Suite struct ISO15693TagTests {
    static let slixUID = h("E0 04 01 50 12 34 56 78")
    /// The UID as it travels, LSB first.
    static let onAir = h("78 56 34 12 50 01 04 E0")

    func slix() throws -> ISO15693Tag { try ISO15693Tag.factory(.icodeSLIX, uid: Self.slixUID) }

    /// Addressed request: high data rate + Address flag, the command, the UID, the parameters.
    func addressed(_ command: UInt8, _ p: [UInt8] = [], option: Bool = false) -> [UInt8] {
        [0x22 | (option ? 0x40 : 0), command] + Self.onAir + p
    }

    @Test func factoryTagsCarryTheCCThatNFCToolsWrite() throws {
        #expect(Array(try slix().memory.prefix(8)) == h("E1 40 0E 01 03 00 FE 00"))
        let slix2 = try ISO15693Tag.factory(.icodeSLIX2, uid: h("E0 04 01 08 00 00 00 01"))
        #expect(Array(slix2.memory.prefix(4)) == h("E1 40 27 01"))
        let dv04 = try ISO15693Tag.factory(.st25dv04k, uid: h("E0 02 24 00 00 00 00 01"))
        #expect(Array(dv04.memory.prefix(4)) == h("E1 40 40 01"))
        let dv64 = try ISO15693Tag.factory(.st25dv64k, uid: h("E0 02 26 00 00 00 00 01"))
        #expect(Array(dv64.memory.prefix(12)) == h("E2 40 00 01 00 00 04 00 03 00 FE 00"))
        let tagit = try ISO15693Tag.factory(.tagitHFIPlus, uid: h("E0 07 80 00 00 00 00 01"))
        #expect(Array(tagit.memory.prefix(4)) == h("E1 40 20 11"))
        #expect(throws: ISO15693TagError.self) {
            try ISO15693Tag(profile: .icodeSLIX, uid: h("E0 02 01 00 00 00 00 01"))
        }
        #expect(throws: ISO15693TagError.self) {
            try ISO15693Tag.factory(.icodeSLIX, uid: Self.slixUID, holding: [UInt8](repeating: 0, count: 120))
        }
    }

    @Test func inventoryAnswersWithDSFIDAndTheUIDLSBFirstAndHonoursMaskAndAFI() throws {
        let tag = try slix()
        tag.afi = 0x07
        #expect(tag.receive(h("26 01 00"), tearAfter: nil) == .data(h("00 00") + Self.onAir))
        // A 4-bit mask that matches the low nibble of the first UID byte on the air (8), and one that does not.
        #expect(tag.receive(h("06 01 04 08"), tearAfter: nil) == .data(h("00 00") + Self.onAir))
        #expect(tag.receive(h("06 01 04 09"), tearAfter: nil) == .silence)
        #expect(tag.receive(h("36 01 07 00"), tearAfter: nil) == .data(h("00 00") + Self.onAir))
        #expect(tag.receive(h("36 01 08 00"), tearAfter: nil) == .silence)
        #expect(tag.receive(h("36 01 00 00"), tearAfter: nil) == .data(h("00 00") + Self.onAir))
        #expect(tag.receive(h("26 20 00"), tearAfter: nil) == .silence)  // inventory flag with another command
    }

    @Test func statesQuietSelectedAndResetToReady() throws {
        let tag = try slix()
        #expect(tag.receive(addressed(0x02), tearAfter: nil) == .silence)
        #expect(tag.state == .quiet)
        #expect(tag.receive(h("26 01 00"), tearAfter: nil) == .silence)
        #expect(tag.receive(h("02 20 00"), tearAfter: nil) == .silence)  // non-addressed: ignored while quiet
        #expect(tag.receive(addressed(0x20, [0x00]), tearAfter: nil) == .data(h("00 E1 40 0E 01")))
        #expect(tag.receive(addressed(0x25), tearAfter: nil) == .data([0x00]))
        #expect(tag.state == .selected)
        #expect(tag.receive(h("12 20 01"), tearAfter: nil) == .data(h("00 03 00 FE 00")))  // select mode
        // A Select addressed to another tag sends this one back to ready; select-mode requests then go unanswered.
        #expect(tag.receive(h("22 25 01 02 03 04 05 06 07 E0"), tearAfter: nil) == .silence)
        #expect(tag.state == .ready)
        #expect(tag.receive(h("12 20 01"), tearAfter: nil) == .silence)
        _ = tag.receive(addressed(0x02), tearAfter: nil)
        #expect(tag.receive(h("02 26"), tearAfter: nil) == .silence)  // quiet: the non-addressed reset is ignored
        #expect(tag.receive(addressed(0x26), tearAfter: nil) == .data([0x00]))
        #expect(tag.state == .ready)
        _ = tag.receive(addressed(0x02), tearAfter: nil)
        tag.powerOn()
        #expect(tag.state == .ready)
        // Another UID: no answer at all.
        #expect(tag.receive(h("22 20 01 02 03 04 05 06 07 E0 00"), tearAfter: nil) == .silence)
        #expect(tag.receive(h("32 20") + Self.onAir + [0x00], tearAfter: nil) == .data([0x01, 0x02]))
    }

    @Test func readWriteLockAndTheirErrors() throws {
        let tag = try slix()
        #expect(tag.receive(addressed(0x21, h("05 11 22 33 44")), tearAfter: nil) == .data([0x00]))
        #expect(tag.receive(addressed(0x20, [0x05]), tearAfter: nil) == .data(h("00 11 22 33 44")))
        #expect(tag.receive(addressed(0x20, [0x05], option: true), tearAfter: nil) == .data(h("00 00 11 22 33 44")))
        #expect(tag.receive(addressed(0x23, [0x00, 0x01]), tearAfter: nil) == .data(h("00 E1 40 0E 01 03 00 FE 00")))
        #expect(tag.receive(addressed(0x20, [28]), tearAfter: nil) == .data(h("01 10")))  // past the last block
        #expect(tag.receive(addressed(0x23, [27, 1]), tearAfter: nil) == .data(h("01 10")))
        #expect(tag.receive(addressed(0x21, h("05 11 22")), tearAfter: nil) == .data(h("01 02")))  // short data
        #expect(tag.receive(addressed(0x22, [0x05]), tearAfter: nil) == .data([0x00]))
        #expect(tag.receive(addressed(0x22, [0x05]), tearAfter: nil) == .data(h("01 11")))
        #expect(tag.receive(addressed(0x21, h("05 00 00 00 00")), tearAfter: nil) == .data(h("01 12")))
        #expect(tag.receive(addressed(0x20, [0x05], option: true), tearAfter: nil) == .data(h("00 01 11 22 33 44")))
        #expect(tag.receive(addressed(0x2C, [0x04, 0x02]), tearAfter: nil) == .data(h("00 00 01 00")))
        #expect(tag.receive(addressed(0x24, h("00 00 00 00 00 00")), tearAfter: nil) == .data(h("01 01")))  // no 24
        #expect(tag.receive(addressed(0x30, h("00 00")), tearAfter: nil) == .data(h("01 01")))  // no extended
        // Custom commands (flags, code, manufacturer code, UID): another manufacturer's code is "not supported"
        // (ISO15693CustomCommandTests has the NXP and ST sets).
        #expect(tag.receive([0x22, 0xA2, 0x02] + Self.onAir, tearAfter: nil) == .data(h("01 01")))
        #expect(tag.receive([0x22, 0xA2, 0x04] + Self.onAir, tearAfter: nil) == .data([0x00]))
    }

    @Test func afiAndDSFIDAreWrittenAndLockedForGood() throws {
        let tag = try slix()
        #expect(tag.receive(addressed(0x27, [0x07]), tearAfter: nil) == .data([0x00]))
        #expect(tag.receive(addressed(0x28), tearAfter: nil) == .data([0x00]))
        #expect(tag.receive(addressed(0x27, [0x08]), tearAfter: nil) == .data(h("01 12")))
        #expect(tag.receive(addressed(0x28), tearAfter: nil) == .data(h("01 11")))
        #expect(tag.receive(addressed(0x29, [0x3C]), tearAfter: nil) == .data([0x00]))
        #expect(tag.receive(addressed(0x2A), tearAfter: nil) == .data([0x00]))
        #expect(tag.receive(addressed(0x29, [0x00]), tearAfter: nil) == .data(h("01 12")))
        #expect(tag.afi == 0x07 && tag.dsfid == 0x3C && tag.afiLocked && tag.dsfidLocked)
        #expect(tag.activation.air == .nfcV(NFCVActivation(uid: Self.slixUID, dsfid: 0x3C, afi: 0x07)))
    }

    @Test func systemInformationShortAndExtended() throws {
        // §10.4.12: info flags 0F, UID, DSFID, AFI, blocks − 1, block size − 1, IC reference.
        #expect(
            try slix().receive(addressed(0x2B), tearAfter: nil) == .data(h("00 0F") + Self.onAir + h("00 00 1B 03 01")))
        let uid = h("E0 02 26 00 00 00 00 01")
        let dv64 = try ISO15693Tag.factory(.st25dv64k, uid: uid)
        let air = Array(uid.reversed())
        // 2048 blocks do not fit the short form: the memory size is left out; the extended form has 2 bytes.
        #expect(dv64.receive([0x22, 0x2B] + air, tearAfter: nil) == .data(h("00 0B") + air + h("00 00 26")))
        #expect(
            dv64.receive([0x22, 0x3B] + air + [0x0F], tearAfter: nil)
                == .data(h("00 0F") + air + h("00 00 FF 07 03 26")))
        // Extended commands reach the blocks past 255.
        #expect(dv64.receive([0x22, 0x31] + air + h("00 07 AA BB CC DD"), tearAfter: nil) == .data([0x00]))
        #expect(dv64.receive([0x22, 0x30] + air + h("00 07"), tearAfter: nil) == .data(h("00 AA BB CC DD")))
        #expect(dv64.receive([0x22, 0x33] + air + h("FF 07 00 00"), tearAfter: nil) == .data(h("00 00 00 00 00")))
        #expect(dv64.receive([0x22, 0x30] + air + h("00 08"), tearAfter: nil) == .data(h("01 10")))
        #expect(
            dv64.receive([0x22, 0x34] + air + h("00 01 01 00 01 02 03 04 05 06 07 08"), tearAfter: nil) == .data([0x00])
        )
        #expect(dv64.receive([0x22, 0x3C] + air + h("00 01 01 00"), tearAfter: nil) == .data(h("00 00 00")))
        #expect(Array(dv64.memory[1024..<1032]) == h("01 02 03 04 05 06 07 08"))
    }

    @Test func tagItWritesNeedTheOptionFlag() throws {
        let uid = h("E0 07 80 00 00 00 00 01")
        let tag = try ISO15693Tag.factory(.tagitHFIPlus, uid: uid)
        let air = Array(uid.reversed())
        #expect(tag.receive([0x22, 0x21] + air + h("03 01 02 03 04"), tearAfter: nil) == .silence)
        #expect(tag.receive([0x62, 0x21] + air + h("03 01 02 03 04"), tearAfter: nil) == .data([0x00]))
        #expect(tag.receive([0x22, 0x20] + air + [0x03], tearAfter: nil) == .data(h("00 01 02 03 04")))
    }

    @Test func aTornWriteProgramsWholeBlocksOnly() throws {
        let uid = h("E0 02 24 00 00 00 00 01")
        let tag = try ISO15693Tag.factory(.st25dv04k, uid: uid)
        let air = Array(uid.reversed())
        _ = tag.receive([0x22, 0x21] + air + h("05 11 22 33 44"), tearAfter: 3)
        #expect(Array(tag.memory[20..<24]) == [0, 0, 0, 0])
        _ = tag.receive([0x22, 0x21] + air + h("05 11 22 33 44"), tearAfter: 4)
        #expect(Array(tag.memory[20..<24]) == h("11 22 33 44"))
        _ = tag.receive([0x22, 0x24] + air + h("06 02 01 01 01 01 02 02 02 02 03 03 03 03"), tearAfter: 9)
        #expect(Array(tag.memory[24..<36]) == h("01 01 01 01 02 02 02 02 00 00 00 00"))
        #expect(tag.processingTime(for: [0x22, 0x24] + air + h("06 02")) == .microseconds(15_000))
    }

    @Test(arguments: ISO15693ChipProfile.all)
    func hostileFramesNeverTrapAndKeepTheMemorySize(_ p: ISO15693ChipProfile) throws {
        var rng = SeededGenerator(seed: 0x15693 + UInt64(p.blockCount))
        var uid = p.uidPrefix + [0, 0, 0, 0, 1]
        uid = Array(uid.prefix(8))
        let tag = try ISO15693Tag.factory(p, uid: uid)
        let air = Array(uid.reversed())
        let commands: [UInt8] = [
            0x01, 0x02, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B,
            0x2C, 0x30, 0x31, 0x32, 0x33, 0x34, 0x3B, 0x3C, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xAB,
            0xAD, 0xAE, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBB, 0xBD, 0xC0, 0xC3, 0xC4,
            0xC5,
        ]
        let manufacturer = uid[1]
        var answers = 0
        for i in 0..<20_000 {
            if i % 97 == 0 { tag.powerOn() }
            let wellFormed = Int.random(in: 0..<10, using: &rng) < 8
            var frame: [UInt8]
            if wellFormed {
                let flags = ([0x02, 0x22, 0x62, 0x12, 0x26, 0x06] as [UInt8]).randomElement(using: &rng)!
                frame = [flags, commands.randomElement(using: &rng)!]
                // Custom commands carry the IC manufacturer code (mostly the chip's own) before the UID.
                if frame[1] >= 0xA0 { frame.append(Int.random(in: 0..<8, using: &rng) == 0 ? 0x00 : manufacturer) }
                if flags & 0x20 != 0 { frame += air }
                frame += (0..<Int.random(in: 0...12, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            } else {
                frame = (0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            }
            let tear: Int? = Int.random(in: 0..<10, using: &rng) == 0 ? Int.random(in: 0...8, using: &rng) : nil
            if tag.receive(frame, tearAfter: tear) != .silence { answers += 1 }
        }
        #expect(tag.memory.count == p.blockCount * p.blockSize)
        #expect(answers > 1_000)
    }

    @Test func tagFilesRoundTripEveryChip() throws {
        for p in ISO15693ChipProfile.all {
            let uid = Array((p.uidPrefix + [9, 8, 7, 6, 5]).prefix(8))
            let tag = try ISO15693Tag.factory(p, uid: uid, holding: h("D1 01 04 54 02 65 6E"))
            _ = tag.receive([0x62, 0x22] + uid.reversed() + [0x01], tearAfter: nil)
            tag.afi = 0x0C
            let text = try TagFile.encodeJSON(tag)
            let back = try #require(try TagFile.decodeJSON(text) as? ISO15693Tag)
            #expect(back.memory == tag.memory && back.lockedBlocks == [1] && back.afi == 0x0C && back.uid == uid)
            #expect(back.ndefMessage == h("D1 01 04 54 02 65 6E"))
            #expect(try TagFile.encodeJSON(back) == text)
        }
    }
}
