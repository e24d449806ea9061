import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Make-read-only and format interrupted after or inside every frame: the tag is always in a state a reader
/// reports consistently, and running the procedure again completes it.
@Suite struct TearingLockFormatInteropTests {
    @Test(arguments: [Type2ChipProfile.ntag213, .ntag216, .ultralightEV1_128])
    func makeReadOnlyInterruptedAtEveryFrame(profile: Type2ChipProfile) throws {
        let message = ndefMessage(length: 40, seed: 4)
        var sawReadOnly = false
        var sawReadWrite = false
        let completed = try TearSweep.run(frames: 1..<20, faults: { TearSweep.faults($0) }) { n, fault in
            let bench = InteropBench()
            let chip = try Type2Tag.factory(profile, uid: uid7)
            var (_, p) = try bench.connect(chip)
            try p.writeMessage(message)
            (_, p) = try bench.connect(chip)
            let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                try p.makeReadOnly()
            }
            if attempt.pastTheEnd { return true }
            (_, p) = try bench.connect(chip)
            // Either untouched or read-only: the message is intact either way.
            let status = try p.detect().status
            #expect(status == .readWrite || status == .readOnly, "frame \(n) \(fault)")
            sawReadOnly = sawReadOnly || status == .readOnly
            sawReadWrite = sawReadWrite || status == .readWrite
            #expect(try p.readMessage() == message)
            // Running it again completes the locking: the chip then refuses a raw WRITE to page 4.
            try p.makeReadOnly()
            _ = try bench.connect(chip)
            #expect(try bench.frontend.exchange([0xA2, 0x04, 0, 0, 0, 0]) == .nak(0))
            return false
        }
        guard completed else {
            Issue.record("make read-only never completed")
            return
        }
        #expect(sawReadOnly && sawReadWrite)
    }

    @Test(arguments: [Type2ChipProfile.ntag213, .ntag215, .ultralight])
    func formatInterruptedAtEveryFrame(profile: Type2ChipProfile) throws {
        let completed = try TearSweep.run(frames: 1..<20, faults: { TearSweep.faults($0) }) { n, fault in
            let bench = InteropBench()
            let chip = try Type2Tag.factory(profile, uid: uid7, ndefFormatted: false)
            var (_, p) = try bench.connect(chip)
            let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                try p.format()
            }
            if attempt.pastTheEnd { return true }
            (_, p) = try bench.connect(chip)
            // Still blank, or formatted and empty: never half formatted.
            let d = try p.detect()
            #expect(d.status == .notSupported || (d.status == .readWrite && d.messageLength == 0), "\(fault)")
            try p.format()
            (_, p) = try bench.connect(chip)
            #expect(try p.detect().status == .readWrite)
            return false
        }
        if !completed { Issue.record("format never completed") }
    }

    /// A blank DESFire EV1 (PICC only, as NXP ships it) formatted with the Android sequence by the reader procedure
    /// against the virtual card (not a script): the card then detects as an empty NDEF tag of the storage's size
    /// and takes a message. Interrupted after or inside any of its frames, the card is either still not NDEF or
    /// NDEF and empty, and formatting again completes it (a `DE` duplicate counts as done).
    @Test(arguments: [DESFireEV1Tag.Storage.size2K, .size4K, .size8K])
    func blankDESFireFormattedWithTheAndroidSequence(storage: DESFireEV1Tag.Storage) throws {
        let bench = InteropBench()
        let card = try DESFireEV1Tag(uid: uid7, version: .ev1(storage: storage.versionByte))
        var (tag, p) = try bench.connect(card)
        guard case .desfire = tag.kind else {
            Issue.record("expected a DESFire, got \(tag.kind)")
            return
        }
        #expect(try p.detect().status == .notSupported)
        try p.format()
        (_, p) = try bench.connect(card)
        let capacity = storage.ndefFileSize - 2
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: capacity, messageLength: 0))
        let m = ndefMessage(length: capacity, seed: 3)
        try p.writeMessage(m)
        (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == m)
        #expect(card.ndefMessage == m)
    }

    @Test func blankDESFireFormatInterruptedAtEveryFrame() throws {
        var outcomes: Set<NDEFStatusOutcome> = []
        let completed = try TearSweep.run(frames: 1..<20, faults: { TearSweep.faults($0) }) { n, fault in
            let bench = InteropBench()
            let card = try DESFireEV1Tag(uid: uid7, version: .ev1(storage: 0x16))
            var (_, p) = try bench.connect(card)
            let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                try p.format()
            }
            if attempt.pastTheEnd { return true }
            (_, p) = try bench.connect(card)
            let d = try p.detect()
            if d.status == .notSupported {
                outcomes.insert(.notNDEF)
            } else {
                #expect(d == NDEFDetection(status: .readWrite, capacity: 2046, messageLength: 0), "\(fault)")
                outcomes.insert(.emptyNDEF)
            }
            try p.format()
            (_, p) = try bench.connect(card)
            #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 2046, messageLength: 0))
            return false
        }
        // Every frame has been interrupted: both outcomes were seen.
        guard completed else {
            Issue.record("the DESFire format never completed")
            return
        }
        #expect(outcomes == [.notNDEF, .emptyNDEF])
    }

    enum NDEFStatusOutcome: Hashable { case notNDEF, emptyNDEF }

    /// A torn TLV structure (an NDEF TLV longer than the data area) repaired by `format()` against the virtual
    /// chip, interrupted after or inside each of its frames: still torn (formatting again completes) or empty NDEF.
    @Test(arguments: [Type2ChipProfile.ntag213, .ntag216])
    func formatRepairsATornTLVStructure(profile: Type2ChipProfile) throws {
        func tornChip() throws -> Type2Tag {
            var memory = try Type2Tag.factoryMemory(profile, uid: uid7)
            // Page 4 (NTAG216) or page 5 (NTAG213, after its Lock Control TLV) holds an NDEF TLV of 0x7FFF bytes.
            let tlv = profile == .ntag213 ? 21 : 16
            memory.replaceSubrange(tlv..<tlv + 4, with: [0x03, 0xFF, 0x7F, 0xFF])
            return try Type2Tag(profile: profile, memory: memory)
        }
        let completed = try TearSweep.run(frames: 1..<10, faults: { TearSweep.faults($0) }) { n, fault in
            let bench = InteropBench()
            let chip = try tornChip()
            var (_, p) = try bench.connect(chip)
            #expect(tagErrorCode { _ = try p.detect() } == .tornStateDetected)
            let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                try p.format()
            }
            if attempt.pastTheEnd { return true }
            (_, p) = try bench.connect(chip)
            if let code = tagErrorCode({ _ = try p.detect() }) {
                #expect(code == .tornStateDetected, "\(fault)")
            } else {
                #expect(try p.detect().messageLength == 0, "\(fault)")
            }
            try p.format()
            (_, p) = try bench.connect(chip)
            #expect(
                try p.detect() == NDEFDetection(status: .readWrite, capacity: p.detect().capacity, messageLength: 0)
            )
            try p.writeMessage(ndefMessage(length: 30))
            (_, p) = try bench.connect(chip)
            #expect(try p.readMessage() == ndefMessage(length: 30))
            return false
        }
        if !completed { Issue.record("format never completed") }
    }

    @Test func desfireWriteInterruptedAtEveryFrame() throws {
        let outcomes = try TearingInteropTests.sweep(
            make: { try DESFireEV1Tag.ndefFormatted(uid: uid7, holding: [], storage: .size2K) },
            old: ndefMessage(length: 150, seed: 1), new: ndefMessage(length: 200, seed: 2),
            faults: { TearSweep.faults($0, tornAfter: [0, 1]) })
        #expect(Set(outcomes) == [.old, .empty, .new])
    }
}
