import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// The reader procedures (OpenNFCTags/MifareClassic) against the virtual chips (OpenNFCSimulation/MifareClassic):
/// two independent readings meeting through the simulated frontend's Crypto1.
@Suite struct MifareClassicInteropTests {
    static let ff = h("FFFFFFFFFFFF")

    final class Bench {
        let field = VirtualField(clock: VirtualClock())
        let frontend: VirtualFieldFrontend

        init() {
            frontend = VirtualFieldFrontend(field: field, capabilities: .simulatedACR122U)
            frontend.random = SeededRandomSource(seed: 7)
        }

        /// Places `tag` alone, activates and identifies it.
        func connect(_ tag: MifareClassicTag) throws -> IdentifiedTag {
            field.removeAll()
            tag.random = SeededRandomSource(seed: 11)
            field.place(tag)
            let target = try frontend.activate(try #require(frontend.poll([.nfcA]).first))
            let identified = try TagIdentifier.identify(target: target, frontend: frontend)
            field.faultPlan = .none
            return identified
        }

        func card(_ tag: MifareClassicTag) throws -> MifareClassicCard {
            let id = try connect(tag)
            return MifareClassicCard(target: id.target, frontend: frontend)
        }

        func ndef(_ tag: MifareClassicTag) throws -> MifareClassicNDEF {
            let id = try connect(tag)
            return try #require(id.ndefProcedure(frontend: frontend) as? MifareClassicNDEF)
        }

        /// Air frames since the last connect (authentication passes included).
        var frames: Int { field.framesExchanged }
    }

    func blank(_ model: MifareClassicModel = .classic1K, _ magic: MifareClassicTag.Magic = .none) -> MifareClassicTag {
        try! MifareClassicTag(model: model, uid: h("C0FFEE01"), magic: magic)
    }

    @Test(arguments: MifareClassicModel.allCases)
    func identificationAndModelFromSAK(_ model: MifareClassicModel) throws {
        let bench = Bench()
        let id = try bench.connect(blank(model))
        #expect(id.kind == .mifareClassic)
        let card = MifareClassicCard(target: id.target, frontend: bench.frontend)
        #expect(card.model.sectorCount == model.sectorCount)
    }

    @Test func readWriteAndValueOperations() throws {
        let bench = Bench()
        let tag = blank()
        let card = try bench.card(tag)
        try card.authenticate(sector: 1, keyA: true, key: Self.ff)
        try card.writeBlock(4, Array(0..<16))
        #expect(try card.readBlock(4) == Array(0..<16))
        try card.writeValue(5, 1000)
        try card.decrement(5, by: 250)
        try card.transfer(5)
        try card.increment(5, by: 5)
        try card.transfer(6)
        #expect(try card.readValue(5).value == 750)
        #expect(try card.readValue(6).value == 755)
        #expect(try card.readValue(6).address == 5)
        try card.restore(6)
        try card.transfer(5)
        #expect(tag.block(5) == MifareClassicTag.valueBlock(755, address: 5))
        // Nested: another sector without re-activation.
        try card.authenticate(sector: 2, keyA: true, key: Self.ff)
        #expect(try card.readBlock(8) == [UInt8](repeating: 0, count: 16))
        #expect(throws: TagError.self) { try card.readBlock(4) }
    }

    @Test func accessBitsEncodedHereAreEnforcedThere() throws {
        let bench = Bench()
        let tag = blank()
        let card = try bench.card(tag)
        let keyB = h("B0B1B2B3B4B5")
        try card.authenticate(sector: 3, keyA: true, key: Self.ff)
        // Group 0 read/write with B only (011), group 1 read-only (010), group 2 value with B (110), trailer 011.
        let bits = try MifareClassicAccessBits(conditions: [3, 2, 6, 3])
        try card.writeTrailer(sector: 3, keyA: Self.ff, access: bits, gpb: 0x69, keyB: keyB)
        try card.reactivate()
        try card.authenticate(sector: 3, keyA: true, key: Self.ff)
        let e = tagErrorCode { _ = try card.readBlock(12) }
        #expect(e == .commandRejected)
        try card.reactivate()
        try card.authenticate(sector: 3, keyA: false, key: keyB)
        try card.writeBlock(12, [UInt8](repeating: 7, count: 16))
        #expect(tagErrorCode { try card.writeBlock(13, [UInt8](repeating: 7, count: 16)) } == .commandRejected)
        try card.reactivate()
        try card.authenticate(sector: 3, keyA: true, key: Self.ff)
        let trailer = try card.readBlock(15)
        #expect(try MifareClassicAccessBits(bytes: Array(trailer[6..<9])) == bits)
        #expect(Array(trailer[10..<16]) == [0, 0, 0, 0, 0, 0])
    }

    @Test func aWrongKeyIsRejectedAndTheCardAnswersAgain() throws {
        let bench = Bench()
        let card = try bench.card(blank())
        #expect(
            tagErrorCode { try card.authenticate(sector: 1, keyA: true, key: h("010203040506")) } == .commandRejected)
        let found = try card.findKey(sector: 1, keyA: true, in: .wellKnown)
        #expect(found == Self.ff)
        #expect(try card.readBlock(4) == [UInt8](repeating: 0, count: 16))
    }

    @Test func ndefFormatWriteReadOn1KAnd4K() throws {
        for model in [MifareClassicModel.classic1K, .classic4K, .mini] {
            let bench = Bench()
            let tag = blank(model)
            var p = try bench.ndef(tag)
            #expect(try p.detect().status == .notSupported)
            try p.format()
            p = try bench.ndef(tag)
            let d = try p.detect()
            #expect(d.status == .readWrite)
            #expect(d.messageLength == 0)
            let sectors = model == .classic4K ? 38 : model.sectorCount - 1
            let area = (model == .classic4K ? 30 * 48 + 8 * 240 : sectors * 48)
            #expect(d.capacity == (area - 2 < 255 ? area - 2 : area - 4))
            let message = ndefMessage(length: min(d.capacity, 700), seed: 3)
            try p.writeMessage(message)
            p = try bench.ndef(tag)
            #expect(try p.readMessage() == message)
            // The card side reads the same message (two independent readings of AN1305).
            #expect(tag.ndefMessage == message)
        }
    }

    @Test func readsWhatTheCardSideFormatted() throws {
        let bench = Bench()
        let tag = blank(.classic4K)
        try tag.formatForNDEF(holding: ndefMessage(length: 40, seed: 9))
        let p = try bench.ndef(tag)
        #expect(try p.readMessage() == ndefMessage(length: 40, seed: 9))
    }

    @Test func makeReadOnlyFreezesTheNDEFSectors() throws {
        let bench = Bench()
        let tag = blank(.mini)
        try tag.formatForNDEF(holding: ndefMessage(length: 10))
        var p = try bench.ndef(tag)
        try p.makeReadOnly()
        p = try bench.ndef(tag)
        #expect(try p.detect().status == .readOnly)
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: 5)) } == .readOnly)
        #expect(tag.block(7)[6..<10] == [0x07, 0x8F, 0x0F, 0x43])
    }

    @Test func aTearAtEveryFrameOfAnNDEFWriteLeavesOldEmptyOrNew() throws {
        let old = ndefMessage(length: 60, seed: 1)
        let new = ndefMessage(length: 100, seed: 2)
        let bench = Bench()
        let probe = blank()
        try probe.formatForNDEF(holding: old)
        try bench.ndef(probe).writeMessage(new)
        let total = bench.frames
        #expect(total > 3)
        for n in 1...total {
            let tag = blank()
            try tag.formatForNDEF(holding: old)
            let p = try bench.ndef(tag)
            bench.field.faultPlan = FaultPlan([.tear(frame: n, afterBytes: n % 17)])
            #expect(throws: (any Error).self) { try p.writeMessage(new) }
            let after = try bench.ndef(tag).readMessage()
            #expect(after == old || after == [] || after == new, "tear at frame \(n)")
        }
    }

    @Test func aTearAtEveryFrameOfABlockWriteLeavesOldOrNew() throws {
        let bench = Bench()
        for n in 1...2 {
            let tag = blank()
            try tag.setBlock(4, [UInt8](repeating: 1, count: 16))
            let card = try bench.card(tag)
            try card.authenticate(sector: 1, keyA: true, key: Self.ff)
            bench.field.faultPlan = FaultPlan([.tear(frame: n, afterBytes: 16)])
            #expect(throws: TagError.self) { try card.writeBlock(4, [UInt8](repeating: 2, count: 16)) }
            #expect(tag.block(4) == [UInt8](repeating: n == 2 ? 2 : 1, count: 16))
        }
    }

    @Test func dumpWithTheDictionaryAndCloneToAGen2Card() throws {
        let bench = Bench()
        let source = blank()
        try source.formatForNDEF(holding: ndefMessage(length: 30))
        try source.setBlock(9, MifareClassicTag.valueBlock(42, address: 9))
        // Sector 5 with keys no dictionary has: not readable.
        try source.setBlock(23, h("112233445566") + h("FF078069") + h("665544332211"))
        let dump = try bench.card(source).dump(keys: .wellKnown)
        #expect(!dump.isComplete)
        #expect(dump.keysA[0] == MifareApplicationDirectory.keyA)
        #expect(dump.keysA[1] == MifareClassicNDEF.keyA)
        #expect(dump.keysB[1] == Self.ff)
        #expect(dump.keysA[5] == nil && dump.blocks[20] == nil)
        #expect(dump.blocks[7] == source.block(7))
        // A key file adds the missing keys.
        let extra = try MifareClassicKeyDictionary.parse("112233445566\n", name: "keys")
        let full = try bench.card(source).dump(keys: extra.followed(by: .wellKnown))
        #expect(full.isComplete)
        #expect(full.blocks.compactMap { $0 }.flatMap { $0 } == source.memory)
        // Clone onto a gen2 card, block 0 included: the copy is the same chip.
        let clone = blank(.classic1K, .gen2)
        try bench.card(clone).restore(full, keys: .wellKnown, includeBlock0: true)
        #expect(clone.memory == source.memory)
        #expect(clone.uid == source.uid)
    }
}
