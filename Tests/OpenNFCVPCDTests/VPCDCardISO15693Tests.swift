import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

/// The emulated reader side for ISO 15693 tags, APDU by APDU: the Part 3 ATR, FF CA, READ/UPDATE BINARY by block,
/// and the PC/SC 2.02 transparent session (`FF C2`).
@Suite struct VPCDCardISO15693Tests {
    let uid = h("E004010812345678")

    func slix() throws -> ISO15693Tag {
        try ISO15693Tag.factory(.icodeSLIX, uid: uid, holding: h("D101055402656E6869"))
    }

    @Test func atrsNameTheChipByManufacturer() throws {
        // Standard 0B (ISO 15693 part 3); card names 00 14 ICODE SLI, 00 12 Tag-it, 00 00 not given; TCK computed.
        #expect(VPCDCard(tag: try slix()).atr == h("3B8F8001804F0CA0000003060B00140000000077"))
        let tagit = try ISO15693Tag.factory(.tagitHFIPlus, uid: h("E007800012345678"))
        #expect(VPCDCard(tag: tagit).atr == h("3B8F8001804F0CA0000003060B00120000000071"))
        let st = try ISO15693Tag.factory(.st25dv04k, uid: h("E002240012345678"))
        #expect(VPCDCard(tag: st).atr == h("3B8F8001804F0CA0000003060B00000000000063"))
    }

    @Test func uidAndReadBinaryByBlock() throws {
        let tag = try slix()
        let card = VPCDCard(tag: tag)
        card.powerOn()
        #expect(card.respond(to: h("FFCA000000")) == uid.reversed() + [0x90, 0x00])  // LSB first, as on the air
        #expect(card.respond(to: h("FFCA000004")) == [0x6C, 0x08])
        #expect(card.respond(to: h("FFB0000000")) == Array(tag.memory[0..<4]) + [0x90, 0x00])  // Le 00: one block
        #expect(card.respond(to: h("FFB0000108")) == Array(tag.memory[4..<12]) + [0x90, 0x00])
        #expect(card.respond(to: h("FFB0001B08")) == [0x6A, 0x82])  // block 27 is the last: 28 is past the memory
        #expect(card.respond(to: h("FFB000")) == [0x67, 0x00])
        #expect(card.respond(to: h("FFCA010000")) == [0x6A, 0x81])
    }

    @Test func updateBinaryWritesWholeBlocks() throws {
        let tag = try slix()
        let card = VPCDCard(tag: tag)
        card.powerOn()
        #expect(card.respond(to: h("FFD6000508 0102030405060708")) == [0x90, 0x00])
        #expect(Array(tag.memory[20..<28]) == h("0102030405060708"))
        #expect(card.respond(to: h("FFD6000503 010203")) == [0x67, 0x00])  // not whole blocks
        #expect(card.respond(to: h("FFD6001C04 00000000")) == [0x6A, 0x82])
        tag.lockedBlocks.insert(6)
        #expect(card.respond(to: h("FFD6000604 AAAAAAAA")) == [0x63, 0x00])  // locked: error 12 on the air
        #expect(Array(tag.memory[24..<28]) == h("05060708"))
        // Past block 255 the extended commands carry the block number (ST25DV64K).
        let big = try ISO15693Tag.factory(.st25dv64k, uid: h("E002260012345678"))
        let bigCard = VPCDCard(tag: big)
        bigCard.powerOn()
        #expect(bigCard.respond(to: h("FFD6012C04 CAFEBABE")) == [0x90, 0x00])
        #expect(Array(big.memory[1200..<1204]) == h("CAFEBABE"))
        #expect(bigCard.respond(to: h("FFB0012C00")) == h("CAFEBABE9000"))
        // Tag-it HF-I Plus writes need the Option flag; the emulated reader sets it for TI UIDs.
        let tagit = try ISO15693Tag.factory(.tagitHFIPlus, uid: h("E007800012345678"))
        let tagitCard = VPCDCard(tag: tagit)
        tagitCard.powerOn()
        #expect(tagitCard.respond(to: h("FFD6000304 11223344")) == [0x90, 0x00])
        #expect(Array(tagit.memory[12..<16]) == h("11223344"))
    }

    @Test func tornUpdateBinaryCommitsWholeBlocksOnly() throws {
        let tag = try slix()
        let card = VPCDCard(tag: tag)
        card.powerOn()
        let before = tag.memory
        #expect(card.respond(to: h("FFD6000508 0102030405060708"), tearAfter: 2) == nil)
        #expect(tag.memory == before)
        #expect(card.respond(to: h("FFD6000508 0102030405060708"), tearAfter: 6) == nil)
        #expect(Array(tag.memory[20..<28]) == h("01020304") + before[24..<28])
    }

    @Test func transparentSession() throws {
        let tag = try slix()
        let card = VPCDCard(tag: tag)
        card.powerOn()
        let addr = Array(uid.reversed())
        let getSystemInfo = [0x22, 0x2B] + addr
        let exchange =
            h("FFC20001") + [UInt8(getSystemInfo.count + 2), 0x95, UInt8(getSystemInfo.count)] + getSystemInfo
            + [0x00]
        // Outside a session the exchange is refused in the status object.
        #expect(card.respond(to: exchange) == h("C003006A819000"))
        #expect(card.respond(to: h("FFC20000028100 00")) == h("C0030090009000"))
        #expect(card.respond(to: h("FFC20002048F020203 00")) == h("C0030090009000"))
        #expect(card.respond(to: h("FFC20002048F020003 00")) == h("C003006A809000"))  // ISO 14443 A: not this tag
        // Get System Information: flags 0F, UID, DSFID, AFI, 28 blocks of 4, IC reference 01.
        let info = h("000F") + addr + h("00001B0301")
        #expect(
            card.respond(to: exchange) == h("C003009000 920100 96020000") + [0x97, UInt8(info.count)] + info + [
                0x90, 0x00,
            ])
        // A write with the timer object.
        let write = [0x22, 0x21] + addr + h("05 01020304")
        let wrapped = h("5F460440420F00") + [0x95, UInt8(write.count)] + write
        #expect(
            card.respond(to: h("FFC20001") + [UInt8(wrapped.count)] + wrapped + [0x00])
                == h("C003009000 920100 96020000 970100 9000"))
        #expect(Array(tag.memory[20..<24]) == h("01020304"))
        // Stay Quiet gets no answer: no ICC response, for the object at index 0.
        let quiet = [0x22, 0x02] + addr
        #expect(
            card.respond(to: h("FFC20001") + [UInt8(quiet.count + 2), 0x95, UInt8(quiet.count)] + quiet)
                == h("C00300640190 00"))
        // Unknown data objects are named by index.
        #expect(card.respond(to: h("FFC2000004 5F460400000000 8000")) == [0x67, 0x00])  // Lc disagrees
        #expect(card.respond(to: h("FFC20000098000 5F4604A0860100")) == h("C003006A819000"))
        #expect(card.respond(to: h("FFC20000095F4604A0860100 8000")) == h("C003016A819000"))
        #expect(card.respond(to: h("FFC20000025F46")) == [0x67, 0x00])  // truncated object
        #expect(card.respond(to: h("FFC20000028200 00")) == h("C0030090009000"))
        // Torn transparent write: no answer, the block is whole or untouched.
        _ = card.respond(to: h("FFC20000028100"))
        let write2 = [0x22, 0x21] + addr + h("06 0A0B0C0D")
        #expect(
            card.respond(
                to: h("FFC20001") + [UInt8(write2.count + 2), 0x95, UInt8(write2.count)] + write2, tearAfter: 2) == nil)
        #expect(Array(tag.memory[24..<28]) != h("0A0B0C0D"))
    }
}
