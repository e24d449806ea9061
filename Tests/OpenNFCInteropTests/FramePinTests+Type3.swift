import OpenNFCSimulation
import OpenNFCTags
import Testing

/// Type 3 frames for full-capacity reads and writes on the simulated iPhone, pinned; docs/PROCEDURES.md derives
/// each minimum. Counts start after the poll that answered 12FC.
@Suite struct Type3FramePinTests {
    @Test func liteSFullCapacity() throws {
        let card = try FeliCaLiteSTag.factory(idm: liteSIDm)
        let bench = Type3Bench()
        var (_, p) = try bench.connect(card)
        let message = ndefMessage(length: 208, seed: 1)
        // Check 0 + Update 0 (WriteF 0F) + 13 Updates (Nbw 1) + Update 0 (Ln) = 16.
        try p.writeMessage(message)
        #expect(bench.frames == 16)
        (_, p) = try bench.connect(card)
        // Check 0 + ⌈13 / 4⌉ = 4 Checks (Nbr 4) = 5; 12 + 16 bytes for block 0, then 3 × (12 + 64) + (12 + 16).
        #expect(try p.readMessage() == message)
        #expect(bench.frames == 5)
        #expect(bench.frontend.counts.bytesReceived == 28 + 3 * 76 + 28)
        (_, p) = try bench.connect(card)
        try p.writeMessage(ndefMessage(length: 208, seed: 2))
        #expect(bench.frames == 16)
    }
}
