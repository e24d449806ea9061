import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

let liteSIDm = h("01 2E 4C E4 45 05 5B 87")

/// The interop bench of a FeliCa card (``FieldBench``).
typealias Type3Bench = FieldBench

extension FieldBench {
    /// One FeliCa card, polled for `systemCode` with request code 01 as an NDEF reader does (T3T 1.0 §7.1: Polling
    /// 12FC), then activated, identified and handed to its NDEF procedure with the counts reset.
    func connectFeliCa(_ tag: any VirtualTag, systemCode: UInt16 = 0x12FC) throws -> (
        IdentifiedTag, any NDEFTagProcedure
    ) {
        try connect(tag, polling: RFPollRequest(nfcF: .init(systemCode: systemCode, requestCode: 0x01)))
    }
}

/// The Type 3 reader procedures (from NFC Forum T3T) against the virtual FeliCa Lite-S (from the Lite-S user's
/// manual): two independent readings that meet only here.
@Suite struct Type3InteropTests {
    @Test func identifiedAndDetected() throws {
        let bench = Type3Bench()
        let (identified, p) = try bench.connectFeliCa(try FeliCaLiteSTag.factory(idm: liteSIDm))
        #expect(identified.kind == .type3)
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 208, messageLength: 0))
        #expect(bench.frames == 1)  // Check of block 0: the poll already answered 12FC
        // Polled with the wildcard, detection asks for 12FC itself.
        let (_, q) = try bench.connectFeliCa(try FeliCaLiteSTag.factory(idm: liteSIDm), systemCode: 0xFFFF)
        #expect(try q.detect().status == .readWrite)
        #expect(bench.frames == 2)
    }

    @Test func writeAndReadEveryLength() throws {
        let card = try FeliCaLiteSTag.factory(idm: liteSIDm)
        let bench = Type3Bench()
        for (i, n) in [3, 15, 16, 17, 64, 100, 207, 208].enumerated() {
            var (_, p) = try bench.connectFeliCa(card)
            let m = ndefMessage(length: n, seed: UInt8(i + 1))
            try p.writeMessage(m)
            (_, p) = try bench.connectFeliCa(card)
            #expect(try p.readMessage() == m, "\(n) bytes")
            #expect(card.ndefMessage == m, "the card's own view, \(n) bytes")
        }
        let (_, p) = try bench.connectFeliCa(card)
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: 209)) } == .capacityExceeded)
        // 8 writes × 2 attribute Updates + 1+1+1+2+4+7+13+13 data blocks = 58 block writes counted by WCNT.
        #expect(card.writeCount == 58)
    }

    @Test func makeReadOnlyClearsRWAndLocksTheMemoryConfiguration() throws {
        let card = try FeliCaLiteSTag.factory(idm: liteSIDm, holding: textRecord)
        let bench = Type3Bench()
        var (_, p) = try bench.connectFeliCa(card)
        try p.makeReadOnly()
        #expect(bench.frames == 4)  // Check 0 (detection), Update 0 (RW 00), Check MC, Update MC
        #expect(card.mc[0] == 0x00 && card.mc[1] == 0x40 && card.mc[2] == 0x00 && card.mc[3] == 0x01)
        (_, p) = try bench.connectFeliCa(card)  // a new power-up: the MC now applies
        #expect(try p.detect().status == .readOnly)
        #expect(try p.readMessage() == textRecord)
        #expect(tagErrorCode { try p.writeMessage(textRecord) } == .readOnly)
        // The card itself refuses block writes now, whatever the attribute block says.
        let session = TagLineSession(tag: card)
        session.activate()
        let write = "08" + liteSIDm.hexString + "01 0900 01 8001" + String(repeating: "00", count: 16)
        #expect(session.answer(write) == "09" + liteSIDm.hexString + "01A8")
    }

    @Test func formatABlankLiteSAndAFormattedOne() throws {
        let blank = try FeliCaLiteSTag.factory(idm: liteSIDm, ndefFormatted: false)
        let bench = Type3Bench()
        var (_, p) = try bench.connectFeliCa(blank, systemCode: 0x88B4)
        #expect(try p.detect().status == .notSupported)
        (_, p) = try bench.connectFeliCa(blank, systemCode: 0x88B4)
        try p.format()
        #expect(bench.frames == 3)  // Check MC, Update MC (SYS_OP), Update 0
        (_, p) = try bench.connectFeliCa(blank)  // 12FC answers after the power-up
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 208, messageLength: 0))
        try p.writeMessage(textRecord)
        (_, p) = try bench.connectFeliCa(blank)
        try p.format()
        #expect(bench.frames == 2)  // SYS_OP already on: Check MC, Update 0
        (_, p) = try bench.connectFeliCa(blank)
        #expect(try p.readMessage() == [])
    }

    /// A tag taken away after, or torn inside, every frame of a write reads as the old message, as torn (WriteF
    /// 0F: never as a message), or as the new one — T3T 1.0 §7.3 write order.
    @Test func removalOrTearAtEveryFrameOfAWrite() throws {
        let outcomes = try TearingInteropTests.sweep(
            make: { try FeliCaLiteSTag.factory(idm: liteSIDm) },
            old: ndefMessage(length: 100, seed: 1), new: ndefMessage(length: 150, seed: 2),
            faults: { TearSweep.faults($0, tornAfter: [0, 16]) })
        #expect(Set(outcomes) == [.old, .tornDetected, .new])
    }

    @Test func aRefusedBlockWriteSurfacesWithItsStatusFlags() throws {
        let card = try FeliCaLiteSTag.factory(idm: liteSIDm)
        card.mc[0] = 0xFB  // S_PAD2 not writable
        let bench = Type3Bench()
        let (_, p) = try bench.connectFeliCa(card)
        do {
            try p.writeMessage(ndefMessage(length: 40))
            Issue.record("block 2 is not writable")
        } catch {
            #expect(error.code == .commandRejected && error.feliCaStatus == [0x01, 0xA8])
        }
    }
}
