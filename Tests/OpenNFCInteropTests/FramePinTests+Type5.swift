import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Type 5 frame pins on the simulated iPhone (258-byte answers ⇒ READ MULTIPLE BLOCKS of up to 64 four-byte blocks
/// after the flags byte). Counts start after activation; docs/PROCEDURES.md derives each minimum.
@Suite struct Type5FramePinTests {
    struct Pin: Sendable, CustomStringConvertible {
        var profile: ISO15693ChipProfile
        var capacity: Int
        var readFrames: Int
        var writeFrames: Int
        var overwriteFrames: Int
        var description: String { profile.name }
    }

    static let pins: [Pin] = [
        // ICODE SLIX, 28 blocks, CC E1 40 0E 01: NDEF TLV `03 6A` at byte 4, message bytes 6–111.
        // Read: READ SINGLE 0 (CC) + READ MULTIPLE 1–27 = 2. Write: those 2 + WRITE 2–27 + WRITE 1 (length) = 29.
        // Overwrite: + 1, the length block zeroed first: 30.
        Pin(profile: .icodeSLIX, capacity: 106, readFrames: 2, writeFrames: 29, overwriteFrames: 30),
        // ICODE SLIX2, CC E1 40 27 01 (area ends at byte 312): `03 FF 01 30`, message bytes 8–311 = blocks 2–77.
        // Read: READ SINGLE 0 + READ MULTIPLE 1–64, 65–77 = 3. Write: detection needs only the first run (2 frames)
        // + WRITE 2–77 + WRITE 1 (length) = 79. Overwrite: + 1 for the length block zeroed first, − 1 for block 2,
        // which holds the same record header (`C5 00 00 00`) in both messages and is known from detection: 79.
        Pin(profile: .icodeSLIX2, capacity: 304, readFrames: 3, writeFrames: 79, overwriteFrames: 79),
        // ST25DV04K, CC E1 40 40 01: `03 FF 01 F8`, message bytes 8–511 = blocks 2–127.
        // Read: READ SINGLE 0 + READ MULTIPLE 1–64, 65–127 = 3. Write: 2 (detection) + 126 + 1 = 129. Overwrite:
        // + 1 − 1 as for SLIX2 = 129.
        Pin(profile: .st25dv04k, capacity: 504, readFrames: 3, writeFrames: 129, overwriteFrames: 129),
        // ST25DV64K, 8-byte CC E2 40 00 01 00 00 04 00: `03 FF 1F F4` at byte 8, message bytes 12–8191.
        // Read: READ SINGLE 0, 1 (the 8-byte CC) + EXT READ MULTIPLE 2–65 … in 32 runs of ≤ 64 blocks = 34.
        // Write: 3 (detection) + 2045 + 1 = 2049. Overwrite: + 1 − 1 as for SLIX2 = 2049.
        Pin(profile: .st25dv64k, capacity: 8180, readFrames: 34, writeFrames: 2049, overwriteFrames: 2049),
        // Tag-it HF-I Plus, CC E1 40 20 11: `03 FA` at byte 4, message bytes 6–255 = blocks 1–63.
        // Read: READ SINGLE 0 + READ MULTIPLE 1–63 = 2. Write: 2 + 62 + 1 = 65 (all with the Option flag). Overwrite: 66.
        Pin(profile: .tagitHFIPlus, capacity: 250, readFrames: 2, writeFrames: 65, overwriteFrames: 66),
    ]

    @Test(arguments: pins)
    func type5FullCapacity(pin: Pin) throws {
        let bench = Type5Bench()
        let chip = try ISO15693Tag.factory(pin.profile, uid: type5UID(pin.profile))
        var p = try bench.connectType5(chip)
        #expect(try p.detect().capacity == pin.capacity)
        p = try bench.connectType5(chip)
        let message = ndefMessage(length: pin.capacity, seed: 1)
        try p.writeMessage(message)
        #expect(bench.frames == pin.writeFrames)

        p = try bench.connectType5(chip)
        #expect(try p.readMessage() == message)
        #expect(bench.frames == pin.readFrames)

        p = try bench.connectType5(chip)
        try p.writeMessage(ndefMessage(length: pin.capacity, seed: 2))
        #expect(bench.frames == pin.overwriteFrames)
    }
}

extension Type5FramePinTests {
    /// Identification of a Type 5 tag costs one frame after activation: an addressed Get System Information
    /// (ISO/IEC 15693-3 §10.4.12), whose answer names the chip; the UID names the manufacturer (docs/PROCEDURES.md).
    @Test(arguments: ISO15693ChipProfile.all)
    func identificationTakesOneFrame(profile: ISO15693ChipProfile) throws {
        let bench = Type5Bench()
        bench.field.place(try ISO15693Tag.factory(profile, uid: type5UID(profile)))
        let first = try #require(try bench.frontend.poll([.nfcV]).first)
        let target = try bench.frontend.activate(first)
        bench.frontend.resetCounts()
        let tag = try TagIdentifier.identify(target: target, frontend: bench.frontend)
        #expect(bench.frames == 1)
        guard case .type5 = tag.kind else {
            Issue.record("\(profile.name) identified as \(tag.kind)")
            return
        }
    }
}
