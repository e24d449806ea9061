import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// MIFARE Plus: the reader procedures (`OpenNFCTags/MIFAREPlus`) against the virtual chip
/// (`OpenNFCSimulation/MIFAREPlus`), two independent readings of the datasheet: identification, the AES session in
/// every communication mode, dump and restore with a key dictionary, a tear at every frame of every write, and the
/// frame pins docs/PROCEDURES.md derives.
@Suite struct MIFAREPlusInteropTests {
    static let madKey = h("A0A1A2A3A4A5A6A7A0A1A2A3A4A5A6A7")

    /// A chip personalised to SL3 the way a reader does it (WritePerso of the card keys, CommitPerso 03).
    static func sl3(_ model: MIFAREPlusModel = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7))
        throws -> MIFAREPlusTag
    {
        let uid = model.uidLength == 7 ? uid7 : h("3F6B7C8D")
        let tag = try MIFAREPlusTag(model: model, uid: uid, securityLevel: 3)
        tag.random = SeededRandomSource(seed: 7)
        return tag
    }

    /// Places `tag`, activates and identifies it; frame counts start after identification.
    func connect(_ tag: MIFAREPlusTag, _ bench: InteropBench = InteropBench(capabilities: .unlimited)) throws -> (
        InteropBench, MIFAREPlusVersion, RFTarget
    ) {
        bench.field.removeAll()
        bench.field.place(tag)
        let target = try bench.frontend.activate(try #require(try bench.frontend.poll([.nfcA]).first))
        let id = try TagIdentifier.identify(target: target, frontend: bench.frontend)
        guard case .mifarePlus(let version) = id.kind else {
            Issue.record("identified as \(id.kind)")
            throw TagError(.unsupported, "not a MIFARE Plus")
        }
        bench.frontend.resetCounts()
        return (bench, version, target)
    }

    @Test(arguments: MIFAREPlusModel.allCases)
    func identificationNamesEveryChip(_ model: MIFAREPlusModel) throws {
        let bench = InteropBench(capabilities: .unlimited)
        let (_, version, _) = try connect(try Self.sl3(model), bench)
        #expect(version.description == model.chip)
        // SL1: a MIFARE Classic to identification (SAK 08/18), as to Android and Core NFC.
        let sl1 = try MIFAREPlusTag(model: model, uid: model.uidLength == 7 ? uid7 : h("3F6B7C8D"), securityLevel: 1)
        bench.field.removeAll()
        bench.field.place(sl1)
        let target = try bench.frontend.activate(try #require(try bench.frontend.poll([.nfcA]).first))
        #expect(try TagIdentifier.identify(target: target, frontend: bench.frontend).kind == .mifareClassic)
    }

    @Test(arguments: MIFAREPlusCommunication.allCases)
    func writeThenReadInEveryMode(_ mode: MIFAREPlusCommunication) throws {
        let tag = try Self.sl3()
        let (bench, _, _) = try connect(tag)
        var s = MIFAREPlusSession(link: MIFAREPlusLink(frontend: bench.frontend), random: SeededRandomSource(seed: 3))
        try s.authenticate(0x4002, key: [UInt8](repeating: 0xFF, count: 16))
        let data = (0..<48).map { UInt8($0 &* 5 &+ 1) }
        try s.write(4, data, mode: mode)
        #expect(tag.block(4) + tag.block(5) + tag.block(6) == data)
        #expect(try s.read(4, count: 3, mode: mode) == data)
        // Following authentication (76) keeps TI and the counters: key B of the same sector, then of sector 2.
        try s.authenticate(0x4003, key: [UInt8](repeating: 0xFF, count: 16))
        #expect(s.keys?.writeCounter == 1 && s.keys?.readCounter == 1)
        try s.authenticate(0x4004, key: [UInt8](repeating: 0xFF, count: 16))
        #expect(try s.read(8, mode: mode) == [UInt8](repeating: 0, count: 16))
        // 2 + 1 + 1 + 2 + 2 + 1 frames.
        #expect(bench.frames == 9)
    }

    @Test func wrongKeyIsRefusedAndTheCardStaysUsable() throws {
        let tag = try Self.sl3()
        try tag.setKey(0x4000, Self.madKey)
        let (bench, _, _) = try connect(tag)
        var s = MIFAREPlusSession(link: MIFAREPlusLink(frontend: bench.frontend))
        #expect(
            tagErrorCode { try s.authenticate(0x4000, key: [UInt8](repeating: 0xFF, count: 16)) } == .commandRejected)
        try s.authenticate(0x4000, key: Self.madKey)
        #expect(try s.read(0).prefix(7) == uid7[...])
    }

    @Test func dumpWithAKeyDictionaryThenRestore() throws {
        let tag = try Self.sl3()
        // Sector 1 behind the MAD key (A and B), sector 2 key B unknown to the dictionary.
        try tag.setKey(0x4002, Self.madKey)
        try tag.setKey(0x4003, Self.madKey)
        try tag.setKey(0x4005, h("00112233445566778899AABBCCDDEEFF"))
        try tag.setBlock(5, [UInt8](repeating: 0x55, count: 16))
        let (bench, version, target) = try connect(tag)
        var reader = MIFAREPlusMemory(target: target, frontend: bench.frontend, version: version)
        reader.random = SeededRandomSource(seed: 5)
        let image = try reader.read(keys: [Self.madKey])
        #expect(image.securityLevel == 3 && image.signature == tag.signature)
        #expect(image.keys[0x4002] == Self.madKey && image.keys[0x4003] == Self.madKey)
        #expect(image.keys[0x4005] == nil && image.keys[0x4004] == [UInt8](repeating: 0xFF, count: 16))
        #expect(image.blocks[5] == [UInt8](repeating: 0x55, count: 16))
        #expect((0..<128).allSatisfy { image.blocks[$0] != nil })
        // Restore onto a blank SL3 chip with the same keys: every data block but block 0 and the trailers.
        let blank = try Self.sl3()
        try blank.setKey(0x4002, Self.madKey)
        try blank.setKey(0x4003, Self.madKey)
        let (bench2, _, target2) = try connect(blank)
        let writer = MIFAREPlusMemory(target: target2, frontend: bench2.frontend, version: version)
        #expect(try writer.restore(image, keys: [Self.madKey]) == 32 * 3 - 1)
        #expect(blank.block(5) == [UInt8](repeating: 0x55, count: 16))
    }

    /// Tearing: a Write of three blocks torn after every byte count keeps whole blocks only; a restore torn at every
    /// frame (and removed after every frame) leaves every block old or new, never a mix.
    @Test func aTearAtEveryFrameOfEveryWriteLeavesWholeBlocks() throws {
        let old = [UInt8](repeating: 0x11, count: 16)
        let new = [UInt8](repeating: 0xEE, count: 16)
        var image: MIFAREPlusImage?
        do {
            let source = try Self.sl3()
            for b in [4, 5, 6, 8, 9] { try source.setBlock(b, new) }
            let (bench, version, target) = try connect(source)
            image = try MIFAREPlusMemory(target: target, frontend: bench.frontend, version: version).read(keys: [])
        }
        let dump = try #require(image)
        var n = 1
        var outcomes: Set<String> = []
        while n < 400 {
            var reachedEnd = false
            for fault in [
                FaultPlan.Fault.removeAfter(frame: n), .tear(frame: n, afterBytes: 0), .tear(frame: n, afterBytes: 8),
            ] {
                let tag = try Self.sl3()
                for b in [4, 5, 6, 8, 9] { try tag.setBlock(b, old) }
                let (bench, version, target) = try connect(tag)
                bench.field.faultPlan = FaultPlan([fault])
                let writer = MIFAREPlusMemory(target: target, frontend: bench.frontend, version: version)
                do {
                    _ = try writer.restore(dump, keys: [])
                    if bench.field.framesExchanged < n { reachedEnd = true }
                } catch {
                    #expect(error.code == .rf, "frame \(n), \(fault): \(error)")
                }
                for b in [4, 5, 6, 8, 9] {
                    #expect(tag.block(b) == old || tag.block(b) == new, "frame \(n), \(fault): block \(b) mixed")
                }
                outcomes.insert([4, 5, 6, 8, 9].map { tag.block($0) == new ? "n" : "o" }.joined())
            }
            if reachedEnd { break }
            n += 1
        }
        #expect(outcomes.contains("ooooo") && outcomes.contains("nnnnn") && outcomes.count > 2)
        // One Write frame of three blocks, torn after each byte count: whole blocks only, in order.
        for cut in [0, 15, 16, 31, 32, 47, 48] {
            let tag = try Self.sl3()
            let (bench, _, _) = try connect(tag)
            var s = MIFAREPlusSession(link: MIFAREPlusLink(frontend: bench.frontend))
            try s.authenticate(0x4002, key: [UInt8](repeating: 0xFF, count: 16))
            bench.field.faultPlan = FaultPlan([.tear(frame: 1, afterBytes: cut)])  // frames count from the plan
            #expect(tagErrorCode { try s.write(4, new + new + new, mode: .encrypted) } == .rf)
            let written = [4, 5, 6].filter { tag.block($0) == new }.count
            #expect(written == cut / 16, "cut \(cut)")
        }
    }
}
