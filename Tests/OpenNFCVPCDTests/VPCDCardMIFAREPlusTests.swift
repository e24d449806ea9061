import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

@testable import OpenNFCVPCD

/// `opennfc emulate` of a MIFARE Plus: in SL0/SL3 an ISO-DEP card whose ATR carries the ATS's historical bytes
/// (PC/SC Part 3 §3.1.3.2.3) and which takes the ISO 7816-4 wrapping of its native commands, as PC/SC applications
/// send them; in SL1 a storage card whose ATR names a MIFARE Classic, taking the Part 3 Classic pseudo-APDUs.
@Suite struct VPCDCardMIFAREPlusTests {
    static let model = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7)

    @Test func sl3IsAnISODEPCardTakingWrappedCommands() throws {
        let tag = try MIFAREPlusTag(model: Self.model, uid: h("04505D1AB76880"), securityLevel: 3)
        let card = VPCDCard(tag: tag)
        // 3B 87 80 01 | C1 05 2F 2F 00 35 C7 | TCK: the historical bytes of the ATS.
        #expect(card.atr == h("3B878001C1052F2F0035C730"))
        #expect(card.respond(to: h("90 60 00 00 00")) == h("04020111001605 91AF"))
        #expect(card.respond(to: h("90 AF 00 00 00")) == h("04020111001605 91AF"))
        #expect(card.respond(to: h("90 AF 00 00 00"))?.suffix(2) == [0x91, 0x90])
        // The UID through GET DATA, as PC/SC readers answer it.
        #expect(card.respond(to: h("FF CA 00 00 00")) == h("04505D1AB76880 9000"))
    }

    /// SL1: a storage card whose ATR names a MIFARE Classic of its SAK (1K for a 2K, 4K for a 4K: what many readers
    /// report for a Plus in SL1), taking the Part 3 Classic pseudo-APDUs with Crypto1 run against the chip itself.
    @Test func sl1TakesTheClassicPseudoAPDUs() throws {
        let tag = try MIFAREPlusTag(model: Self.model, uid: h("04505D1AB76880"), securityLevel: 1)
        let card = VPCDCard(tag: tag)
        card.powerOn()
        #expect(card.atr == h("3B8F8001804F0CA000000306030001000000006A"))
        // LOAD KEYS (the transport key FF…FF), GENERAL AUTHENTICATE block 4 with key A, UPDATE and READ BINARY.
        #expect(card.respond(to: h("FF 82 00 00 06 FFFFFFFFFFFF")) == h("9000"))
        #expect(card.respond(to: h("FF 86 00 00 05 01 00 04 60 00")) == h("9000"))
        #expect(card.respond(to: h("FF D6 00 05 10 00112233445566778899AABBCCDDEEFF")) == h("9000"))
        #expect(
            card.respond(to: h("FF B0 00 04 20"))
                == h("00000000000000000000000000000000 00112233445566778899AABBCCDDEEFF 9000"))
        #expect(tag.block(5) == h("00112233445566778899AABBCCDDEEFF"))
        // The value commands (ACS): store 100 in block 6, decrement by 1, read it back.
        #expect(card.respond(to: h("FF D7 00 06 05 00 00000064")) == h("9000"))
        #expect(card.respond(to: h("FF D7 00 06 05 02 00000001")) == h("9000"))
        #expect(card.respond(to: h("FF B1 00 06 04")) == h("00000063 9000"))
        // Sector 31 is the 2K's last; block 128 (sector 32) is outside it; a wrong key is refused.
        #expect(card.respond(to: h("FF 86 00 00 05 01 00 7C 60 00")) == h("9000"))
        #expect(card.respond(to: h("FF 86 00 00 05 01 00 80 60 00")) == h("6A82"))
        #expect(card.respond(to: h("FF 82 00 01 06 A0A1A2A3A4A5")) == h("9000"))
        #expect(card.respond(to: h("FF 86 00 00 05 01 00 08 60 01")) == h("6300"))
    }

    @Test func sl1OfA4KIsAClassic4KAndSL3TakesNoClassicCommands() throws {
        let big = try MIFAREPlusTag(
            model: MIFAREPlusModel(generation: .ev2, is4K: true, uidLength: 7), uid: h("04505D1AB76881"),
            securityLevel: 1)
        let card = VPCDCard(tag: big)
        card.powerOn()
        #expect(card.atr[13...14] == [0x00, 0x02])
        #expect(card.respond(to: h("FF 82 00 00 06 FFFFFFFFFFFF")) == h("9000"))
        #expect(card.respond(to: h("FF 86 00 00 05 01 00 F0 60 00")) == h("9000"))
        #expect(card.respond(to: h("FF B0 00 F0 10")) == [UInt8](repeating: 0, count: 16) + h("9000"))
        let sl3 = VPCDCard(tag: try MIFAREPlusTag(model: Self.model, uid: h("04505D1AB76880"), securityLevel: 3))
        #expect(sl3.respond(to: h("FF 86 00 00 05 01 00 04 60 00")) == h("6A81"))
    }
}
