import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Every Type 2 procedure against every virtual Type 2 chip.
@Suite struct Type2InteropTests {
    static let chips: [(Type2ChipProfile, String)] = [
        (.ntag213, "ntag213"), (.ntag215, "ntag215"), (.ntag216, "ntag216"), (.ultralight, "mifare-ultralight"),
        (.ultralightEV1_48, "mifare-ultralight-ev1-mf0ul11"), (.ultralightEV1_128, "mifare-ultralight-ev1-mf0ul21"),
    ]

    @Test(arguments: chips)
    func identification(profile: Type2ChipProfile, expected: String) throws {
        let bench = InteropBench()
        let (tag, _) = try bench.connect(try Type2Tag.factory(profile, uid: uid7))
        #expect(tag.kind.description == expected)
    }

    /// format → write → read back → make read-only → write refused → still readable, with fresh activations in
    /// between so that every read comes from the chip, not from the procedure's memory.
    @Test(arguments: chips)
    func lifecycle(profile: Type2ChipProfile, expected: String) throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(profile, uid: uid7, ndefFormatted: false)
        var (_, p) = try bench.connect(chip)
        #expect(try p.detect().status == .notSupported)
        try p.format()
        let formatted = try p.detect()
        #expect(formatted.status == .readWrite)
        #expect(formatted.messageLength == 0)

        (_, p) = try bench.connect(chip)
        let d = try p.detect()
        #expect(d == formatted)
        let message = ndefMessage(length: d.capacity, seed: 3)
        try p.writeMessage(message)

        (_, p) = try bench.connect(chip)
        #expect(try p.readMessage() == message)
        try p.makeReadOnly()
        #expect(try p.detect().status == .readOnly)
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: 5)) } == .readOnly)

        (_, p) = try bench.connect(chip)
        #expect(try p.detect() == NDEFDetection(status: .readOnly, capacity: d.capacity, messageLength: d.capacity))
        #expect(try p.readMessage() == message)
        // The lock bits took: the chip itself refuses a raw WRITE to the first and last data pages.
        #expect(try bench.frontend.exchange([0xA2, 0x04, 0, 0, 0, 0]) == .nak(0))
        _ = try bench.connect(chip)
        let lastDataPage = (16 + d.capacity) / 4
        #expect(try bench.frontend.exchange([0xA2, UInt8(lastDataPage), 0, 0, 0, 0]) == .nak(0))
    }

    @Test(arguments: chips)
    func smallMessagesRoundTripAndOverwrite(profile: Type2ChipProfile, expected: String) throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(profile, uid: uid7)
        for (i, length) in [3, 20, 44, 3].enumerated() {
            var (_, p) = try bench.connect(chip)
            let m = ndefMessage(length: length, seed: UInt8(i + 1))
            try p.writeMessage(m)
            (_, p) = try bench.connect(chip)
            #expect(try p.readMessage() == m)
        }
    }

    /// The simulation's own NDEF-first constructor (card side) and the reader's capacity (reader side) agree: a
    /// message of exactly the detected capacity is built and read back; one byte more does not fit.
    @Test(arguments: chips)
    func capacityAgreesWithTheCardSide(profile: Type2ChipProfile, expected: String) throws {
        let bench = InteropBench()
        var (_, p) = try bench.connect(try Type2Tag.factory(profile, uid: uid7))
        let capacity = try p.detect().capacity
        let message = ndefMessage(length: capacity, seed: 9)
        (_, p) = try bench.connect(try Type2Tag.factory(profile, uid: uid7, holding: message))
        #expect(try p.readMessage() == message)
        #expect(throws: Type2Tag.FactoryError.self) {
            try Type2Tag.factory(profile, uid: uid7, holding: ndefMessage(length: capacity + 1))
        }
    }

    @Test func aMessageOneByteTooLargeIsRefusedBeforeAnyWrite() throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(.ntag213, uid: uid7)
        var (_, p) = try bench.connect(chip)
        try p.writeMessage(ndefMessage(length: 10))
        let before = chip.memory
        (_, p) = try bench.connect(chip)
        let d = try p.detect()
        let capacity = d.capacity
        #expect(capacity == 137, "\(d) \(chip.memory[12..<40].map { $0 })")
        guard capacity > 0 else { return }
        bench.frontend.resetCounts()
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: capacity + 1)) } == .capacityExceeded)
        #expect(bench.frames == 0)
        #expect(chip.memory == before)
    }

    /// An NTAG213 whose CC claims NTAG215's 496 bytes: the write runs into the end of the chip, which NAKs; the tag
    /// then reads as empty (the length was zeroed first), never as a mixture.
    @Test func aTagSmallerThanItsCCSays() throws {
        let bench = InteropBench()
        var memory = try Type2Tag.factoryMemory(.ntag213, uid: uid7)
        memory[14] = 0x3E
        let chip = try Type2Tag(profile: .ntag213, memory: memory)
        var (_, p) = try bench.connect(chip)
        let d = try p.detect()
        // 496 − 5 (Lock Control TLV) − 1 (tag) − 3 (3-byte length) − 2 (its lock bytes at 160–161, now inside the
        // claimed area) = 485.
        #expect(d.capacity == 485)
        try p.writeMessage(ndefMessage(length: 20))
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: 400, seed: 9)) } == .commandRejected)
        (_, p) = try bench.connect(chip)
        #expect(try p.readMessage() == [])
    }

    /// An NTAG215 carrying a Memory Control TLV that reserves 8 bytes (bytes 40–47) and a Lock Control TLV naming
    /// the real lock page: the message flows around the reserved bytes, which keep their content.
    @Test func memoryAndLockControlTLVsAreHonoured() throws {
        let bench = InteropBench()
        var memory = try Type2Tag.factoryMemory(.ntag215, uid: uid7)
        // Memory Control: page 10 (×4) + 0 = byte 40, 8 bytes. Lock Control: page 0x82 × 4 = byte 520 as
        // (0x20 × 16 + 8): position `28` with 16-byte pages... expressed as page 0x20, offset 8, MOS 4.
        let tlvs = h("02 03 A0 08 02 01 03 28 10 44 03 00 FE")
        for (i, b) in tlvs.enumerated() { memory[16 + i] = b }
        for a in 40..<48 { memory[a] = 0xA5 }
        let chip = try Type2Tag(profile: .ntag215, memory: memory)
        var (_, p) = try bench.connect(chip)
        let d = try p.detect()
        // 496 − 10 (control TLVs) − 1 (tag) − 8 (reserved) − 3 (3-byte length) = 474.
        #expect(d.capacity == 474)
        let message = ndefMessage(length: 474, seed: 5)
        try p.writeMessage(message)
        #expect(Array(chip.memory[40..<48]) == [UInt8](repeating: 0xA5, count: 8))
        (_, p) = try bench.connect(chip)
        #expect(try p.readMessage() == message)
    }

    /// NTAG I2C plus 1k and 2k: identified by GET_VERSION, formatted, written full, locked; the 2k's data crosses
    /// into sector 1 and back.
    @Test(arguments: [Type2ChipProfile.ntagI2CPlus1k, .ntagI2CPlus2k])
    func ntagI2CPlusLifecycle(profile: Type2ChipProfile) throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(profile, uid: uid7, ndefFormatted: false)
        var (_, p) = try bench.connect(chip)
        #expect(try p.detect().status == .notSupported)
        try p.format()
        (_, p) = try bench.connect(chip)
        let d = try p.detect()
        #expect(d.status == .readWrite && d.messageLength == 0)
        #expect(d.capacity == (profile == .ntagI2CPlus1k ? 868 : 1743))
        for (i, n) in [d.capacity, 40, d.capacity - 1].enumerated() {
            let m = ndefMessage(length: n, seed: UInt8(i))
            try p.writeMessage(m)
            (_, p) = try bench.connect(chip)
            #expect(try p.readMessage() == m)
        }
        try p.makeReadOnly()
        (_, p) = try bench.connect(chip)
        #expect(try p.detect().status == .readOnly)
    }
}
