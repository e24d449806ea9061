import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

/// The emulated reader side of `opennfc emulate` for MIFARE Classic, APDU by APDU (no socket, no pcscd): PC/SC Part 3
/// LOAD KEYS / GENERAL AUTHENTICATE / READ and UPDATE BINARY and the ACS value-block commands, with Crypto1 run
/// against the virtual chip.
@Suite struct VPCDCardMifareClassicTests {
    func card(_ model: MifareClassicModel = .classic1K) throws -> (VPCDCard, MifareClassicTag) {
        let tag = try MifareClassicTag(model: model, uid: h("C0FFEE01"))
        let card = VPCDCard(tag: tag)
        card.powerOn()
        return (card, tag)
    }

    @Test func atrCardNames() throws {
        // PC/SC Part 3 card names 00 01 (1K), 00 02 (4K), 00 26 (Mini), TCK computed.
        #expect(try card(.classic1K).0.atr == h("3B8F8001804F0CA000000306030001000000006A"))
        #expect(try card(.classic4K).0.atr == h("3B8F8001804F0CA0000003060300020000000069"))
        #expect(try card(.mini).0.atr == h("3B8F8001804F0CA000000306030026000000004D"))
        #expect(try card().0.respond(to: h("FFCA000000")) == h("C0FFEE019000"))
    }

    @Test func loadKeysAuthenticateReadAndWriteInBothKeyConventions() throws {
        let (card, tag) = try card()
        // ACS: slot 00; GENERAL AUTHENTICATE of block 4 with key A from slot 00.
        #expect(card.respond(to: h("FF82000006FFFFFFFFFFFF")) == h("9000"))
        #expect(card.respond(to: h("FF860000050100046000")) == h("9000"))
        #expect(card.respond(to: h("FFD6000410000102030405060708090A0B0C0D0E0F")) == h("9000"))
        #expect(card.respond(to: h("FFB0000410")) == h("000102030405060708090A0B0C0D0E0F9000"))
        #expect(tag.block(4) == h("000102030405060708090A0B0C0D0E0F"))
        // Three blocks at once (ACS multi-block READ BINARY); key A reads back as zeros in the trailer.
        let sector = try #require(card.respond(to: h("FFB0000440")))
        #expect(sector.count == 66)
        #expect(Array(sector[48..<64]) == h("000000000000FF078069FFFFFFFFFFFF"))
        // Identiv: the key number is the key type.
        #expect(card.respond(to: h("FF82006005FFFFFFFFFF")) == h("6989"))  // a key of 5 bytes
        #expect(card.respond(to: h("FF82006006FFFFFFFFFFFF")) == h("9000"))
        #expect(card.respond(to: h("FF860000050100086060")) == h("9000"))
        #expect(card.respond(to: h("FFB0000810")) == [UInt8](repeating: 0, count: 16) + h("9000"))
        // The legacy ACS form FF 88 00 <block> <key type> <slot>.
        #expect(card.respond(to: h("FF8800046000")) == h("9000"))
        #expect(card.respond(to: h("FFB0000410")) == h("000102030405060708090A0B0C0D0E0F9000"))
    }

    @Test func refusalsAndTheirStatusWords() throws {
        let (card, _) = try card()
        #expect(card.respond(to: h("FF86000005010004600F")) == h("6988"))  // nothing loaded under 0F
        #expect(card.respond(to: h("FF82200006FFFFFFFFFFFF")) == h("6987"))  // non-volatile: not available
        #expect(card.respond(to: h("FF82000006A0A1A2A3A4A5")) == h("9000"))
        #expect(card.respond(to: h("FF860000050100046200")) == h("6986"))  // key type 62
        #expect(card.respond(to: h("FF860000050100FF6000")) == h("6A82"))  // block 255 on a 1K
        #expect(card.respond(to: h("FF860000050100046000")) == h("6300"))  // wrong key
        // Not authenticated: READ and UPDATE refused.
        #expect(card.respond(to: h("FFB0000410")) == h("6300"))
        #expect(card.respond(to: h("FF82000006FFFFFFFFFFFF")) == h("9000"))
        #expect(card.respond(to: h("FF860000050100046000")) == h("9000"))
        #expect(card.respond(to: h("FFB0000810")) == h("6300"))  // block 8 is in another sector
        #expect(card.respond(to: h("FF860000050100046000")) == h("9000"))
        #expect(card.respond(to: h("FFD60004040001020304")) == h("6700"))
        // After a reset the chip is unauthenticated again.
        card.reset()
        #expect(card.respond(to: h("FFB0000410")) == h("6300"))
    }

    @Test func valueBlockCommands() throws {
        let (card, tag) = try card()
        #expect(card.respond(to: h("FF82000006FFFFFFFFFFFF")) == h("9000"))
        #expect(card.respond(to: h("FF860000050100046000")) == h("9000"))
        // Store 100 (MSB first) into block 5: the value format with address 05.
        #expect(card.respond(to: h("FFD700050500" + "00000064")) == h("9000"))
        #expect(tag.block(5) == h("640000009BFFFFFF6400000005FA05FA"))
        #expect(card.respond(to: h("FFB1000504")) == h("000000649000"))
        #expect(card.respond(to: h("FFD700050501" + "00000007")) == h("9000"))  // increment by 7
        #expect(card.respond(to: h("FFB1000504")) == h("0000006B9000"))
        #expect(card.respond(to: h("FFD700050502" + "0000006C")) == h("9000"))  // decrement by 108
        #expect(card.respond(to: h("FFB1000504")) == h("FFFFFFFF9000"))  // -1
        // Restore block 5 into block 6.
        #expect(card.respond(to: h("FFD70005020306")) == h("9000"))
        #expect(card.respond(to: h("FFB1000604")) == h("FFFFFFFF9000"))
        // Block 4 holds no value: READ VALUE and INCREMENT refuse.
        #expect(card.respond(to: h("FFB1000404")) == h("6300"))
        #expect(card.respond(to: h("FF860000050100046000")) == h("9000"))
        #expect(card.respond(to: h("FFD700040501" + "00000001")) == h("6300"))
    }

    @Test func aTornCommandReachesNothingAndGetsNoAnswer() throws {
        let (card, tag) = try card()
        #expect(card.respond(to: h("FF82000006FFFFFFFFFFFF")) == h("9000"))
        #expect(card.respond(to: h("FF860000050100046000")) == h("9000"))
        let before = tag.memory
        #expect(card.respond(to: h("FFD6000410000102030405060708090A0B0C0D0E0F"), tearAfter: 3) == nil)
        #expect(tag.memory == before)
    }
}
