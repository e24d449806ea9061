import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Type 1 make-read-only and format interrupted after or inside every frame (torn after 0, 1 and 5 bytes of its
/// programming): the tag always reads consistently, and running the procedure again completes it.
@Suite struct Type1TearingLockFormatTests {
    static func faults(_ n: Int) -> [FaultPlan.Fault] { TearSweep.faults(n, tornAfter: [0, 1, 5]) }

    @Test(arguments: Type1ChipProfile.all)
    func makeReadOnlyInterruptedAtEveryFrame(profile: Type1ChipProfile) throws {
        let message = ndefMessage(length: 40, seed: 4)
        var sawReadOnly = false
        var sawReadWrite = false
        let completed = try TearSweep.run(frames: 1..<12, faults: Self.faults) { n, fault in
            let bench = InteropBench()
            let chip = try Type1Tag.factory(profile, uid: type1UID7, holding: message)
            var (_, p) = try bench.connect(chip)
            let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                try p.makeReadOnly()
            }
            if attempt.pastTheEnd { return true }
            (_, p) = try bench.connect(chip)
            let status = try p.detect().status
            #expect(status == .readWrite || status == .readOnly, "frame \(n) \(fault)")
            sawReadOnly = sawReadOnly || status == .readOnly
            sawReadWrite = sawReadWrite || status == .readWrite
            #expect(try p.readMessage() == message)
            try p.makeReadOnly()
            #expect(chip.isLocked(block: 1) && chip.isNDEFReadOnly)
            return false
        }
        guard completed else {
            Issue.record("make read-only never completed")
            return
        }
        #expect(sawReadOnly && sawReadWrite)
    }

    @Test(arguments: Type1ChipProfile.all)
    func formatInterruptedAtEveryFrame(profile: Type1ChipProfile) throws {
        let completed = try TearSweep.run(frames: 1..<12, faults: Self.faults) { n, fault in
            let bench = InteropBench()
            let chip = try Type1Tag.factory(profile, uid: type1UID7, ndefFormatted: false)
            var (_, p) = try bench.connect(chip)
            let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                try p.format()
            }
            if attempt.pastTheEnd { return true }
            (_, p) = try bench.connect(chip)
            // Still blank (NMN 00), or formatted and empty: never half formatted.
            let d = try p.detect()
            #expect(d.status == .notSupported || (d.status == .readWrite && d.messageLength == 0), "\(fault)")
            try p.format()
            (_, p) = try bench.connect(chip)
            #expect(
                try p.detect()
                    == NDEFDetection(
                        status: .readWrite, capacity: profile == .topaz512 ? 462 : 90, messageLength: 0))
            return false
        }
        if !completed { Issue.record("format never completed") }
    }
}
