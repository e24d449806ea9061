import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// MIFARE Plus frame pins, counted on the air at the field (docs/PROCEDURES.md derives each minimum): GetVersion is
/// 3 frames, an AES authentication 2 (`70`/`76`, `72`), a Read of up to 4 blocks or a Write of up to 3 one frame.
@Suite struct MIFAREPlusFramePinTests {
    func connect(_ tag: MIFAREPlusTag) throws -> (InteropBench, MIFAREPlusVersion, RFTarget) {
        let bench = InteropBench(capabilities: .unlimited)
        bench.field.place(tag)
        let target = try bench.frontend.activate(try #require(try bench.frontend.poll([.nfcA]).first))
        let id = try TagIdentifier.identify(target: target, frontend: bench.frontend)
        #expect(bench.frames == 3)  // GetVersion: 90 60, 90 AF, 90 AF
        guard case .mifarePlus(let version) = id.kind else { throw TagError(.unsupported, "\(id.kind)") }
        bench.frontend.resetCounts()
        return (bench, version, target)
    }

    /// Dump of a factory-keyed SL3 card: level probe 1 + Read_Sig 1 + per 4-block sector key B (2) + key A (2) +
    /// one Read of 4 blocks (1); a 16-block sector reads in 4 frames. 2K: 2 + 32 × 5 = 162; 4K: 2 + 32 × 5 +
    /// 8 × (4 + 4) = 226. Restore of the 2K dump: probe 1 + sector 0 (key B 2 + blocks 1, 2) 4 + 31 × (2 + 3) = 160.
    @Test(arguments: [(false, 162), (true, 226)])
    func dumpAndRestore(_ is4K: Bool, _ dumpFrames: Int) throws {
        let model = MIFAREPlusModel(generation: .ev2, is4K: is4K, uidLength: 7)
        let tag = try MIFAREPlusTag(model: model, uid: uid7, securityLevel: 3)
        tag.random = SeededRandomSource(seed: 1)
        let (bench, version, target) = try connect(tag)
        let image = try MIFAREPlusMemory(target: target, frontend: bench.frontend, version: version).read(keys: [])
        #expect(bench.frames == dumpFrames)
        guard !is4K else { return }
        let copy = try MIFAREPlusTag(model: model, uid: uid7, securityLevel: 3)
        let (bench2, _, target2) = try connect(copy)
        #expect(
            try MIFAREPlusMemory(target: target2, frontend: bench2.frontend, version: version).restore(image, keys: [])
                == 95)
        #expect(bench2.frames == 160)
    }

    /// SL0 personalisation: one WritePerso a value, one CommitPerso; the card keys and the two keys of sector 1
    /// are 5 + 1 = 6 frames, and the card is in SL3 from the next activation.
    @Test func personalisation() throws {
        let model = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7)
        let tag = try MIFAREPlusTag(model: model, uid: uid7, securityLevel: 0)
        let (bench, version, target) = try connect(tag)
        let key = [UInt8](repeating: 0x11, count: 16)
        let sent = try MIFAREPlusMemory(target: target, frontend: bench.frontend, version: version).personalise(
            [(0x9000, key), (0x9001, key), (0x9003, key), (0x4002, key), (0x4003, key)], commitTo: 3)
        #expect(sent == 6 && bench.frames == 6)
        tag.reset()
        #expect(tag.securityLevel == 3)
    }
}
