import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// MIFARE Classic frame pins (NXP AN1305 NDEF over the MAD), counted on the air at the field: an authentication is
/// 2 frames (`60`/`61` block → nT, {nR}{aR} → {aT}), a READ 1 frame of 16 bytes, a WRITE 2 (command, then data).
/// Counts start after identification. docs/PROCEDURES.md derives each minimum.
@Suite struct MifareClassicFramePinTests {
    func formatted(_ message: [UInt8]? = nil) throws -> MifareClassicTag {
        let t = try MifareClassicTag(model: .classic1K, uid: h("C0FFEE02"))
        try t.formatForNDEF(holding: message)
        return t
    }

    func run(_ tag: MifareClassicTag, _ body: (MifareClassicNDEF) throws -> Void) throws -> Int {
        let field = VirtualField(clock: VirtualClock())
        let frontend = VirtualFieldFrontend(field: field, capabilities: .simulatedACR122U)
        frontend.random = SeededRandomSource(seed: 1)
        tag.random = SeededRandomSource(seed: 2)
        field.place(tag)
        let target = try frontend.activate(try #require(frontend.poll([.nfcA]).first))
        let id = try TagIdentifier.identify(target: target, frontend: frontend)
        let p = try #require(id.ndefProcedure(frontend: frontend) as? MifareClassicNDEF)
        field.faultPlan = .none
        try body(p)
        return field.framesExchanged
    }

    @Test func shortMessageOn1K() throws {
        // Read: MAD (auth 2 + READ 1, 2, 3) = 5; sector 1 (auth 2 + READ trailer 7 + READ 4) = 4: 9.
        let short = ndefMessage(length: 10)
        var read: [UInt8] = []
        let readFrames = try run(try formatted(short)) { read = try $0.readMessage() }
        #expect(read == short)
        #expect(readFrames == 9)
        // Write onto an empty formatted 1K: detection 9 + WRITE block 4 (2) = 11.
        let writeFrames = try run(try formatted()) { try $0.writeMessage(short) }
        #expect(writeFrames == 11)
    }

    @Test func fullCapacityOn1K() throws {
        // 15 NDEF sectors × 48 bytes = 720, `03 FF 02 CC` leaves 716.
        let full = ndefMessage(length: 716, seed: 4)
        // Read: MAD 5 + 15 × (auth 2 + trailer 1 + 3 READs) = 95.
        var read: [UInt8] = []
        let readFrames = try run(try formatted(full)) { read = try $0.readMessage() }
        #expect(read == full)
        #expect(readFrames == 95)
        // Write onto empty: detection 9; block 4 emptied (2); blocks 5, 6 (4); sectors 2–15: auth + 3 WRITEs
        // (14 × 8 = 112); back to sector 1: auth 2 + block 4 (2): 9 + 2 + 4 + 112 + 4 = 131.
        let tag = try formatted()
        let writeFrames = try run(tag) { try $0.writeMessage(full) }
        #expect(writeFrames == 131)
        #expect(tag.ndefMessage == full)
    }
}
extension MifareClassicFramePinTests {
    /// Make read-only (AN1305 §6.5): detection 9; every NDEF sector and the MAD sector get their key B found first
    /// (16 × auth 2 = 32, `FFFFFFFFFFFF` the first key tried); then each is authenticated again and its trailer
    /// written (16 × (auth 2 + WRITE 2) = 64): 105.
    @Test func makeReadOnlyOn1K() throws {
        let tag = try formatted(ndefMessage(length: 10))
        #expect(try run(tag) { try $0.makeReadOnly() } == 105)
        for s in 0..<16 {
            #expect(tag.block(MifareClassicModel.trailerBlock(ofSector: s))[6..<9] == [0x07, 0x8F, 0x0F], "\(s)")
        }
        #expect(tag.block(3)[9] == 0xC1)
        #expect(tag.block(7)[9] == 0x43)
    }

    func runCard(_ tag: MifareClassicTag, _ body: (MifareClassicCard) throws -> Void) throws -> Int {
        let field = VirtualField(clock: VirtualClock())
        let frontend = VirtualFieldFrontend(field: field, capabilities: .simulatedACR122U)
        frontend.random = SeededRandomSource(seed: 1)
        tag.random = SeededRandomSource(seed: 2)
        field.place(tag)
        let target = try frontend.activate(try #require(frontend.poll([.nfcA]).first))
        let card = MifareClassicCard(target: target, frontend: frontend)
        field.faultPlan = .none
        let before = field.framesExchanged
        try body(card)
        return field.framesExchanged - before
    }

    @Test func blockZeroOfMagicCards() throws {
        let block0 = h("11223344440804006263646566676869")
        // gen1a: 40 → ACK, 43 → ACK, WRITE A0 00 → ACK, data → ACK: 4.
        let gen1a = try MifareClassicTag(model: .classic1K, uid: h("C0FFEE03"), magic: .gen1a)
        #expect(try runCard(gen1a) { try $0.writeBlockZero(block0, keys: .wellKnown) } == 4)
        #expect(gen1a.block(0) == block0)
        // gen2: the backdoor probe 40 (silence) 1, then auth 2 + WRITE 2: 5.
        let gen2 = try MifareClassicTag(model: .classic1K, uid: h("C0FFEE04"), magic: .gen2)
        #expect(try runCard(gen2) { try $0.writeBlockZero(block0, keys: .wellKnown) } == 5)
        #expect(gen2.block(0) == block0)
    }

    @Test func resetToTransportOfAnNFCFormatted1K() throws {
        // Per sector: key B found (auth 2), trailer read 1, trailer WRITE 2, auth key A 2, trailer read back 1,
        // data blocks zeroed (2 WRITEs of 2 in sector 0, 3 elsewhere): sector 0 = 12, sectors 1–15 = 14 each.
        let tag = try formatted(ndefMessage(length: 10))
        var outcomes: [MifareClassicCard.ResetOutcome] = []
        let frames = try runCard(tag) { outcomes = try $0.resetToTransport(keys: .wellKnown) }
        #expect(outcomes.allSatisfy { if case .reset = $0 { true } else { false } })
        #expect(frames == 222)
    }
}
