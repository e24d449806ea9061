import Foundation
import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

extension EndToEndSuite {
    /// Virtual MIFARE Classic cards served by `opennfc emulate`'s card server through the real pcscd: the Part 3 ATR
    /// card names, LOAD KEYS and GENERAL AUTHENTICATE in the ACS and the Identiv key conventions, READ/UPDATE BINARY,
    /// the ACS value-block commands, and the unchanged reader procedures (blocks, values, dump, NDEF) over them.
    @Suite struct PCSCMifareClassicTests {
        func frontend(_ slot: EmulatedSlot, _ profile: MifareClassicProfile? = nil) throws -> PCSCFrontend {
            PCSCFrontend(context: try PCSCContext(), reader: slot.reader, profile: profile)
        }

        @Test(arguments: [MifareClassicModel.mini, .classic1K, .classic4K])
        func cardNamesAndModels(model: MifareClassicModel) throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try MifareClassicTag(model: model, uid: h("C0FFEE01"))
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }
            let f = try frontend(slot)
            let target = try f.activate(try #require(f.poll([.nfcA]).first))
            let atr = try #require(f.card(for: target)?.atr)
            let name = UInt16(atr[13]) << 8 | UInt16(atr[14])
            #expect(name == [.mini: 0x0026, .classic1K: 0x0001, .classic4K: 0x0002][model])
            #expect(target.identifier == h("C0FFEE01"))
            #expect(target.selRes == model.sak)
            #expect(f.activeProfile is MifareClassicProfile)
            #expect(f.capabilities.mifareClassicAuthentication)
            let card = MifareClassicCard(target: target, frontend: f)
            #expect(card.model.blockCount == model.blockCount)
            let last = model.sectorCount - 1
            try card.authenticate(sector: last, keyA: true, key: h("FFFFFFFFFFFF"))
            let b = MifareClassicCard.firstBlock(ofSector: last)
            try card.writeBlock(b, h("00112233445566778899AABBCCDDEEFF"))
            #expect(try card.readBlock(b) == h("00112233445566778899AABBCCDDEEFF"))
            f.deactivate()
            #expect(tag.block(b) == h("00112233445566778899AABBCCDDEEFF"))
        }

        @Test(arguments: [MifareClassicProfile.KeyConvention.acs, .identiv])
        func blocksValuesAndKeysInEachConvention(convention: MifareClassicProfile.KeyConvention) throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try MifareClassicTag(model: .classic1K, uid: h("C0FFEE02"))
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }
            let f = try frontend(slot, MifareClassicProfile(convention: convention))
            let apdus = APDULog()
            f.apduObserver = { command, _ in apdus.add(command) }
            let target = try f.activate(try #require(f.poll([.nfcA]).first))
            let card = MifareClassicCard(target: target, frontend: f)
            try card.authenticate(sector: 1, keyA: true, key: h("FFFFFFFFFFFF"))
            let number: UInt8 = convention == .acs ? 0x00 : 0x60
            #expect(apdus.all.contains([0xFF, 0x82, 0x00, number, 0x06] + h("FFFFFFFFFFFF")))
            #expect(apdus.all.contains([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, number]))
            try card.writeValue(5, 100)
            try card.increment(5, by: 7)
            try card.transfer(5)
            #expect(try card.readValue(5).value == 107)
            try card.decrement(5, by: 8)
            try card.transfer(5)
            #expect(try card.readValue(5).value == 99)
            try card.restore(5)
            try card.transfer(6)
            #expect(try card.readValue(6).value == 99)
            #expect(apdus.all.contains(h("FFD700050502") + h("00000008")))
            #expect(apdus.all.contains(h("FFD70005020306")))
            // TRANSFER of an incremented value elsewhere has no ACS form: refused by name, nothing changed.
            try card.increment(5, by: 1)
            #expect(throws: TagError.self) { try card.transfer(6) }
            // A wrong key: refused, the card re-activated, and the right key works afterwards.
            #expect(throws: TagError.self) { try card.authenticate(sector: 2, keyA: true, key: h("A0A1A2A3A4A5")) }
            try card.authenticate(sector: 2, keyA: true, key: h("FFFFFFFFFFFF"))
            #expect(try card.readBlock(8) == [UInt8](repeating: 0, count: 16))
            f.deactivate()
            #expect(tag.block(6) == MifareClassicTag.valueBlock(99, address: 5))
        }

        @Test func dumpAndNDEFOverPCSC() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try MifareClassicTag(model: .classic1K, uid: h("C0FFEE03"))
            try tag.formatForNDEF(holding: h("D101055402656E6869"))
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }
            let f = try frontend(slot)
            let target = try f.activate(try #require(f.poll([.nfcA]).first))
            let ndef = MifareClassicNDEF(target: target, frontend: f)
            #expect(try ndef.readMessage() == h("D101055402656E6869"))
            let message = h("D1010F5402656E") + Array("hello, PC/SC".utf8)
            try ndef.writeMessage(message)
            let dump = try MifareClassicCard(target: target, frontend: f).dump(keys: .wellKnown)
            #expect(dump.isComplete)
            #expect(dump.keysA[1] == h("D3F7D3F7D3F7"))
            #expect(dump.blocks[4]?.prefix(2) == [0x03, UInt8(message.count)])
            f.deactivate()
            #expect(tag.ndefMessage == message)
        }
    }
}

/// The APDUs a frontend sent (its observer runs on the frontend's executor; the lock makes reading safe).
private final class APDULog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [[UInt8]] = []
    func add(_ apdu: [UInt8]) { lock.withLock { items.append(apdu) } }
    var all: [[UInt8]] { lock.withLock { items } }
}
