import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

@testable import OpenNFCVPCD

/// `opennfc emulate` of a MIFARE Plus: in SL0/SL3 an ISO-DEP card whose ATR carries the ATS's historical bytes
/// (PC/SC Part 3 §3.1.3.2.3) and which takes the ISO 7816-4 wrapping of its native commands, as PC/SC applications
/// send them; in SL1 a storage card whose ATR names a MIFARE Classic 1K (what many readers report for a Plus in SL1),
/// without the Classic pseudo-APDUs yet.
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

    @Test func sl1IsAStorageCardNamedAsAClassic1K() throws {
        let tag = try MIFAREPlusTag(model: Self.model, uid: h("04505D1AB76880"), securityLevel: 1)
        let card = VPCDCard(tag: tag)
        #expect(card.atr == h("3B8F8001804F0CA000000306030001000000006A"))
        // Not carried yet: the Part 3 Classic pseudo-APDUs reach only a MifareClassicTag (docs/DIFFERENCES.md).
        #expect(card.respond(to: h("FF 86 00 00 05 01 00 04 60 00")) == h("6A81"))
    }
}
