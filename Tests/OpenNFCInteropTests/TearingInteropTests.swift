import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// A tag taken away after, or torn during, every single frame of a write, then read again: the old message,
/// an empty one or the new one — never anything else (NFC Forum T2T §7.5.1, T4T §5.4.4 tear-safe order).
@Suite struct TearingInteropTests {
    enum Outcome: Hashable { case old, empty, new, tornDetected }

    /// Runs `write` with `fault(n)` for n = 1, 2, … until a write completes untouched; returns every outcome seen.
    static func sweep(
        make: () throws -> any VirtualTag, old: [UInt8], new: [UInt8], faults: (Int) -> [FaultPlan.Fault]
    ) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        let completed = try TearSweep.run(frames: 1...400, faults: faults) { n, fault in
            let bench = InteropBench()
            let tag = try make()
            var (_, p) = try bench.connect(tag)
            try p.writeMessage(old)
            (_, p) = try bench.connect(tag)
            let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                try p.writeMessage(new)
            }
            if let e = attempt.error {
                #expect(e.code == .rf, "frame \(n): \(e)")
            } else if attempt.pastTheEnd {
                return true  // the fault lies past the write: every frame has been tried
            }
            (_, p) = try bench.connect(tag)
            outcomes.append(Self.classify(p, old: old, new: new, context: "frame \(n), \(fault)"))
            return false
        }
        if !completed { Issue.record("the write never completed") }
        return outcomes
    }

    static func classify(_ p: any NDEFTagProcedure, old: [UInt8], new: [UInt8], context: String) -> Outcome {
        let read: [UInt8]
        do {
            read = try p.readMessage()
        } catch {
            #expect(error.code == .tornStateDetected, "\(context): \(error)")
            return .tornDetected
        }
        if read == old { return .old }
        if read.isEmpty { return .empty }
        if read == new { return .new }
        Issue.record("\(context): read \(read.count) bytes, neither old, empty nor new")
        return .tornDetected
    }

    @Test(arguments: [Type2ChipProfile.ntag213, .ntag215, .ntag216])
    func type2RemovalOrTearAtEveryFrame(profile: Type2ChipProfile) throws {
        let capacity = profile == .ntag213 ? 137 : profile.dataAreaSize - 4
        let outcomes = try Self.sweep(
            make: { try Type2Tag.factory(profile, uid: uid7) },
            old: ndefMessage(length: capacity / 2, seed: 1), new: ndefMessage(length: capacity, seed: 2),
            // A Type 2 page is written whole or not at all: removal after frame n and a tear inside frame n cover
            // both states a WRITE can leave.
            faults: { TearSweep.faults($0) })
        #expect(Set(outcomes) == [.old, .empty, .new])
        #expect(!outcomes.contains(.tornDetected))
    }

    /// NTAG I2C plus 2k: messages reaching into sector 1, so that the write goes sector 0 → 1 → 0 (SECTOR_SELECT
    /// frames included in the sweep); a tear anywhere leaves old, empty or new.
    @Test func ntagI2CPlus2kAcrossSectorsAtEveryFrame() throws {
        let outcomes = try Self.sweep(
            make: { try Type2Tag.factory(.ntagI2CPlus2k, uid: uid7) },
            old: ndefMessage(length: 1000, seed: 1), new: ndefMessage(length: 1100, seed: 2),
            faults: { TearSweep.faults($0) })
        #expect(Set(outcomes) == [.old, .empty, .new])
    }

    @Test func type2ShortMessageOverALongOne() throws {
        let outcomes = try Self.sweep(
            make: { try Type2Tag.factory(.ntag215, uid: uid7) },
            old: ndefMessage(length: 300, seed: 1), new: ndefMessage(length: 10, seed: 2),
            faults: { TearSweep.faults($0) })
        #expect(Set(outcomes).isSubset(of: [.old, .empty, .new]))
        #expect(outcomes.contains(.new))
    }

    @Test func type4RemovalOrTearAtEveryFrame() throws {
        let config = Type4Configuration(ndefFileSize: 1024, mle: 0x3B, mlc: 0x34)
        let outcomes = try Self.sweep(
            make: { try Type4Tag(uid: uid7, configuration: config) },
            old: ndefMessage(length: 200, seed: 1), new: ndefMessage(length: 180, seed: 2),
            faults: { TearSweep.faults($0, tornAfter: [0, 1, 2, 30]) })
        // Messages below 256 bytes: every NLEN change is one byte, so no tear can even produce a detectable state.
        #expect(Set(outcomes) == [.old, .empty, .new])
    }

    /// Mapping 3.0: messages crossing offset 7FFF (even UPDATE BINARY below, odd-INS `D7` above) and a 4-byte
    /// ENLEN, interrupted after or inside every frame (0, 1, 2 or 100 bytes committed).
    @Test func type4Mapping3ENDEFFileAtEveryFrame() throws {
        let config = Type4Configuration(mappingVersion: 0x30, ndefFileSize: 34_000)
        let outcomes = try Self.sweep(
            make: { try Type4Tag(uid: uid7, configuration: config) },
            old: ndefMessage(length: 33_100, seed: 1), new: ndefMessage(length: 33_900, seed: 2),
            faults: { TearSweep.faults($0, tornAfter: [0, 1, 2, 100]) })
        // Zeroing ENLEN 33100 (00 00 81 4C) torn after 1–2 bytes leaves it unchanged or 00 00 81 4C masked to a
        // proper prefix; committing 33900 (00 00 84 6C) from byte 2 torn after 1 byte leaves 00 00 84 00: a prefix.
        #expect(Set(outcomes).isSubset(of: [.old, .empty, .new, .tornDetected]))
        #expect(Set(outcomes).isSuperset(of: [.old, .empty, .new]))
    }

    @Test func type4LongMessagesTornInsideNLENAreDetected() throws {
        let config = Type4Configuration(ndefFileSize: 1024, mle: 0xFF, mlc: 0xFF)
        let outcomes = try Self.sweep(
            make: { try Type4Tag(uid: uid7, configuration: config) },
            old: ndefMessage(length: 700, seed: 1), new: ndefMessage(length: 900, seed: 2),
            faults: { TearSweep.faults($0, tornAfter: [1, 100]) })
        // Zeroing NLEN 700 (02 BC) torn after one byte leaves 00 BC; committing NLEN 900 (03 84) torn after one
        // byte leaves 03 00: both name a proper prefix, which the framing check reports instead of returning it.
        #expect(Set(outcomes) == [.old, .empty, .new, .tornDetected])
    }
}
