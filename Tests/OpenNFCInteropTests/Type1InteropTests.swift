import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

let type1UID7 = h("11 22 33 44 55 66 77")

/// The Type 1 reader procedures against the virtual Topaz chips: two independent readings (the chips from the Topaz
/// datasheet's memory map, the procedures from the T1T TLV rules) that meet only here.
@Suite struct Type1InteropTests {
    @Test(arguments: Type1ChipProfile.all)
    func identifiedAsType1AndDetected(profile: Type1ChipProfile) throws {
        let bench = InteropBench()
        let (identified, p) = try bench.connect(try Type1Tag.factory(profile, uid: type1UID7))
        #expect(identified.kind == .type1)
        #expect(identified.target.identifier == h("11 22 33 44"))
        let d = try p.detect()
        #expect(d == NDEFDetection(status: .readWrite, capacity: profile == .topaz512 ? 462 : 90, messageLength: 0))
        #expect(bench.frames == 1)  // RALL
    }

    @Test(arguments: Type1ChipProfile.all)
    func writeAndReadEveryLengthForm(profile: Type1ChipProfile) throws {
        let capacity = profile == .topaz512 ? 462 : 90
        let lengths = [3, 8, 40, 89, 90] + (profile == .topaz512 ? [200, 254, 255, 300, 461, 462] : [])
        let chip = try Type1Tag.factory(profile, uid: type1UID7)
        let bench = InteropBench()
        for (i, n) in lengths.enumerated() {
            var (_, p) = try bench.connect(chip)
            let m = ndefMessage(length: n, seed: UInt8(i + 1))
            try p.writeMessage(m)
            (_, p) = try bench.connect(chip)
            #expect(try p.readMessage() == m, "\(n) bytes")
            #expect(chip.ndefMessage == m, "the card's own view, \(n) bytes")
        }
        var (_, p) = try bench.connect(chip)
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: capacity + 1)) } == .capacityExceeded)
        (_, p) = try bench.connect(chip)
        #expect(try p.readMessage().count == lengths.last)
        // Blocks D–F are never written by a message write.
        #expect(chip.memory[104..<(profile == .topaz512 ? 128 : 120)].allSatisfy { $0 == 0 })
    }

    @Test(arguments: Type1ChipProfile.all)
    func makeReadOnlyLocksTheChip(profile: Type1ChipProfile) throws {
        let chip = try Type1Tag.factory(profile, uid: type1UID7, holding: textRecord)
        let bench = InteropBench()
        var (_, p) = try bench.connect(chip)
        try p.makeReadOnly()
        #expect(bench.frames == 4)  // RALL, CC3, static locks, (dynamic locks | LOCK1)
        #expect(chip.isNDEFReadOnly)
        #expect((1..<13).allSatisfy { chip.isLocked(block: $0) })
        if profile == .topaz512 { #expect((16..<64).allSatisfy { chip.isLocked(block: $0) }) }
        (_, p) = try bench.connect(chip)
        #expect(try p.detect().status == .readOnly)
        #expect(try p.readMessage() == textRecord)
        #expect(tagErrorCode { try p.writeMessage(textRecord) } == .readOnly)
    }

    @Test(arguments: Type1ChipProfile.all)
    func formatBlankAndNDEFTags(profile: Type1ChipProfile) throws {
        let blank = try Type1Tag.factory(profile, uid: type1UID7, ndefFormatted: false)
        let bench = InteropBench()
        var (_, p) = try bench.connect(blank)
        #expect(try p.detect().status == .notSupported)
        try p.format()
        (_, p) = try bench.connect(blank)
        #expect(
            try p.detect()
                == NDEFDetection(status: .readWrite, capacity: profile == .topaz512 ? 462 : 90, messageLength: 0))
        try p.writeMessage(textRecord)
        (_, p) = try bench.connect(blank)
        try p.format()
        (_, p) = try bench.connect(blank)
        #expect(try p.readMessage() == [])
    }

    @Test func aLockedBlockSurfacesAsARefusedWrite() throws {
        let chip = try Type1Tag.factory(.topaz512, uid: type1UID7)
        _ = chip.receive(h("1A 7A 02") + h("11 22 33 44"), tearAfter: nil)  // lock block 11h by hand
        let bench = InteropBench()
        let (_, p) = try bench.connect(chip)
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: 200)) } == .commandRejected)
    }

    /// Removed after, or torn inside (after 0, 1, 3 and 7 bytes of its programming), every frame of a write, then
    /// read again: the old message, an empty one or the new one.
    @Test(arguments: Type1ChipProfile.all)
    func tearAtEveryFrameOfAWrite(profile: Type1ChipProfile) throws {
        let capacity = profile == .topaz512 ? 462 : 90
        let outcomes = try TearingInteropTests.sweep(
            make: { try Type1Tag.factory(profile, uid: type1UID7) },
            old: ndefMessage(length: capacity / 2, seed: 1), new: ndefMessage(length: capacity, seed: 2),
            faults: { TearSweep.faults($0, tornAfter: [0, 1, 3, 7]) })
        #expect(Set(outcomes) == [.old, .empty, .new])
    }

    @Test func tearAtEveryFrameOfAShortWriteOverALongOne() throws {
        let outcomes = try TearingInteropTests.sweep(
            make: { try Type1Tag.factory(.topaz512, uid: type1UID7) },
            old: ndefMessage(length: 400, seed: 3), new: ndefMessage(length: 20, seed: 4),
            faults: { TearSweep.faults($0, tornAfter: [0, 5]) })
        #expect(Set(outcomes) == [.old, .empty, .new])
    }
}

/// Text record "hi" in English (NDEF Text RTD).
let textRecord = h("D1 01 05 54 02 65 6E 68 69")
