import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCVPCD
import Testing

extension EndToEndSuite {
    /// A virtual Topaz served by `opennfc emulate`'s card server through pcscd: the Part 3 ATR names a Topaz
    /// (`00 30`), the frontend carries Type 1 commands as PN532 InDataExchange (the ACR122U form: no RID, no UID
    /// echo, no address echo), and the Type 1 procedures read, write and lock it unchanged.
    @Suite struct PCSCType1Tests {
        @Test(arguments: Type1ChipProfile.all)
        func topazThroughPCSC(profile: Type1ChipProfile) throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try Type1Tag.factory(profile, uid: h("11223344"), holding: textHi)
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }
            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader, profile: nil)
            let target = try f.activate(try #require(f.poll([.nfcA]).first))
            let atr = try #require(f.card(for: target)?.atr)
            #expect(Array(atr.suffix(8).prefix(3)) == [0x03, 0x00, 0x30])  // SS 03, card name 00 30 (Topaz)
            #expect(target.identifier == h("11223344") && target.sensRes == 0x0C00 && target.selRes == nil)
            let identified = try TagIdentifier.identify(target: target, frontend: f)
            #expect(identified.kind == .type1)
            let ndef = try #require(identified.ndefProcedure(frontend: f))
            #expect(try ndef.readMessage() == textHi)
            let message = h("D1010F5402656E") + Array("hello, PC/SC".utf8)
            try ndef.writeMessage(message)
            try ndef.makeReadOnly()
            f.deactivate()
            #expect(tag.ndefMessage == message)
            #expect(tag.isNDEFReadOnly && tag.isLocked(block: 1))
            // RID cannot go through the PN532.
            _ = try f.activate(target)
            #expect(throws: RFError.self) { try f.exchange(h("78000000000000")) }
            f.deactivate()
        }
    }
}
