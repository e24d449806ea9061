import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Type 3 frames for full-capacity reads and writes on the simulated iPhone, pinned; docs/PROCEDURES.md derives
/// each minimum. Counts start after the poll that answered 12FC.
@Suite struct Type3FramePinTests {
    @Test func liteSFullCapacity() throws {
        let card = try FeliCaLiteSTag.factory(idm: liteSIDm)
        let bench = Type3Bench()
        var (_, p) = try bench.connectFeliCa(card)
        let message = ndefMessage(length: 208, seed: 1)
        // Check 0 + Update 0 (WriteF 0F) + 13 Updates (Nbw 1) + Update 0 (Ln) = 16.
        try p.writeMessage(message)
        #expect(bench.frames == 16)
        (_, p) = try bench.connectFeliCa(card)
        // Check 0 + ⌈13 / 4⌉ = 4 Checks (Nbr 4) = 5; 12 + 16 bytes for block 0, then 3 × (12 + 64) + (12 + 16).
        #expect(try p.readMessage() == message)
        #expect(bench.frames == 5)
        #expect(bench.frontend.counts.bytesReceived == 28 + 3 * 76 + 28)
        (_, p) = try bench.connectFeliCa(card)
        try p.writeMessage(ndefMessage(length: 208, seed: 2))
        #expect(bench.frames == 16)
    }

    /// Identification of a FeliCa card costs no frame after the poll (any NFC-F answer is Type 3), and NDEF
    /// detection after the phone's wildcard poll (`00 FFFF 00 00`, one frame for every FeliCa card in the field)
    /// costs 2: Polling `12FC`, answered by the NDEF system (on a FeliCa Standard card with its own IDm), and Check of
    /// block 0 addressed to that IDm. The delivery to a tag session (Polling each declared system code in turn) is
    /// pinned in `FeliCaStandardPhoneTests.deliveryFrames`, where the phone's code runs.
    @Test func feliCaIdentificationAndDetectionAfterTheWildcardPoll() throws {
        let ndef = [
            [0x10, 0x04, 0x01, 0x00, 0x0D, 0, 0, 0, 0, 0x00, 0x00, 0, 0, 0x03, 0x00, 0x25],
            [0xD0, 0x00, 0x00] + [UInt8](repeating: 0, count: 13),
        ]
        let standard = FeliCaStandardTag(systems: [
            .init(
                code: 0x0003, idm: liteSIDm, areas: [.init(code: 0x0000, end: 0xFFFE)],
                services: [.init(code: 0x090F, blocks: [[UInt8](repeating: 0x50, count: 16)])]),
            .init(
                code: 0x12FC, idm: [0x11] + liteSIDm.dropFirst(), areas: [.init(code: 0x0000, end: 0xFFFE)],
                services: [.init(code: 0x000B, blocks: ndef)]),
        ])
        for card in [try FeliCaLiteSTag.factory(idm: liteSIDm) as any VirtualTag, standard] {
            let bench = Type3Bench()
            bench.field.place(card)
            let targets = try bench.frontend.poll(RFPollRequest(nfcF: .init()))
            let target = try bench.frontend.activate(try #require(targets.first))
            bench.frontend.resetCounts()
            let identified = try TagIdentifier.identify(target: target, frontend: bench.frontend)
            #expect(identified.kind == .type3)
            #expect(bench.frames == 0, "\(card.chip)")
            let p = try #require(identified.ndefProcedure(frontend: bench.frontend))
            let detection = try p.detect()
            #expect(bench.frames == 2, "\(card.chip)")
            #expect(detection.status != .notSupported, "\(card.chip)")
        }
        // The Standard card's message is read from its NDEF system's IDm: 1 more frame (Ln 3, Nbr 4).
        let bench = Type3Bench()
        var (_, p) = try bench.connectFeliCa(standard, systemCode: 0xFFFF)
        #expect(try p.readMessage() == [0xD0, 0x00, 0x00])
        #expect(bench.frames == 3)
        (_, p) = try bench.connectFeliCa(standard)
        #expect(try p.detect().status == .readOnly)
        #expect(bench.frames == 1)
    }
}
