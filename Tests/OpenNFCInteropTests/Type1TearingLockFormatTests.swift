import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import Testing

/// Type 1 make-read-only and format interrupted after or inside every frame (torn after 0, 1 and 5 bytes of its
/// programming): the tag always reads consistently, and running the procedure again completes it.
@Suite struct Type1TearingLockFormatTests {
    static func faults(_ n: Int) -> [FaultPlan.Fault] {
        [
            .removeAfter(frame: n), .tear(frame: n, afterBytes: 0), .tear(frame: n, afterBytes: 1),
            .tear(frame: n, afterBytes: 5),
        ]
    }

    @Test(arguments: Type1ChipProfile.all)
    func makeReadOnlyInterruptedAtEveryFrame(profile: Type1ChipProfile) throws {
        let message = ndefMessage(length: 40, seed: 4)
        var sawReadOnly = false
        var sawReadWrite = false
        for n in 1..<12 {
            for fault in Self.faults(n) {
                let bench = InteropBench()
                let chip = try Type1Tag.factory(profile, uid: type1UID7, holding: message)
                var (_, p) = try bench.connect(chip)
                bench.field.faultPlan = FaultPlan([fault])
                let failed = TearingInteropTests.attempt { () throws(TagError) in try p.makeReadOnly() } != nil
                bench.field.faultPlan = .none
                if !failed && bench.field.framesExchanged < n { return #expect(sawReadOnly && sawReadWrite) }
                (_, p) = try bench.connect(chip)
                let status = try p.detect().status
                #expect(status == .readWrite || status == .readOnly, "frame \(n) \(fault)")
                sawReadOnly = sawReadOnly || status == .readOnly
                sawReadWrite = sawReadWrite || status == .readWrite
                #expect(try p.readMessage() == message)
                try p.makeReadOnly()
                #expect(chip.isLocked(block: 1) && chip.isNDEFReadOnly)
            }
        }
        Issue.record("make read-only never completed")
    }

    @Test(arguments: Type1ChipProfile.all)
    func formatInterruptedAtEveryFrame(profile: Type1ChipProfile) throws {
        for n in 1..<12 {
            for fault in Self.faults(n) {
                let bench = InteropBench()
                let chip = try Type1Tag.factory(profile, uid: type1UID7, ndefFormatted: false)
                var (_, p) = try bench.connect(chip)
                bench.field.faultPlan = FaultPlan([fault])
                let failed = TearingInteropTests.attempt { () throws(TagError) in try p.format() } != nil
                bench.field.faultPlan = .none
                if !failed && bench.field.framesExchanged < n { return }
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
            }
        }
        Issue.record("format never completed")
    }
}
