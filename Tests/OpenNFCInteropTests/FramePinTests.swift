import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Frames on the air for full-capacity reads and writes, pinned: a change that costs air time fails here.
/// Counts start after identification (GET_VERSION / GetVersion) and include NDEF detection. Frontend: the simulated
/// iPhone (261-byte commands, 258-byte answers ⇒ FAST_READ of up to 64 pages, READ BINARY of up to 256 bytes).
/// docs/PROCEDURES.md derives each minimum at length.
@Suite struct FramePinTests {
    struct Pin: Sendable, CustomStringConvertible {
        var profile: Type2ChipProfile
        var capacity: Int
        var readFrames: Int
        var readBytes: Int
        var writeFrames: Int
        var overwriteFrames: Int
        var description: String { profile.name }
    }

    static let type2Pins: [Pin] = [
        // NTAG213: message bytes 23–159 (after the Lock Control TLV, `03 LL`) = pages 5–39.
        // Read: READ 3 (pages 3–6: CC, TLVs, first bytes) + FAST_READ 7–39 (33 pages ≤ 64) = 2 frames;
        //   16 + 33 × 4 = 148 bytes received. (16 bytes per READ: pages 3–39 = 37 pages ⇒ 10 READs.)
        // Write onto the empty factory tag: READ 3 + WRITE pages 6–39 (34) + WRITE page 5 (length, last) = 36.
        // Overwrite with another full message: + 1 WRITE, the length page written twice (0 first, then 137): 37.
        Pin(profile: .ntag213, capacity: 137, readFrames: 2, readBytes: 148, writeFrames: 36, overwriteFrames: 37),
        // NTAG215: `03 FF 01 EC` fills page 4; message bytes 20–511 = pages 5–127.
        // Read: READ 3 + FAST_READ 7–70, 71–127 (64 + 57 pages) = 3 frames; 16 + 121 × 4 = 500 bytes.
        //   (16 bytes per READ: pages 3–127 = 125 pages ⇒ 32 READs.)
        // Write: READ 3 + WRITE pages 5–127 (123) + WRITE page 4 (length) = 125.
        // Overwrite: + 1 for the length page written twice, − 1 for page 5, which holds the same record header
        // (`C5 00 00 00`) in both messages and is known from the READ of page 3: 125.
        Pin(profile: .ntag215, capacity: 492, readFrames: 3, readBytes: 500, writeFrames: 125, overwriteFrames: 125),
        // NTAG216: `03 FF 03 64` fills page 4; message bytes 20–887 = pages 5–221.
        // Read: READ 3 + FAST_READ 7–70, 71–134, 135–198, 199–221 (64 + 64 + 64 + 23) = 5 frames;
        //   16 + 215 × 4 = 876 bytes. 16 bytes per READ needs pages 3–221 = 219 pages ⇒ 55 READs: 5 ≤ 55 ÷ 2.
        // Write: READ 3 + WRITE pages 5–221 (217) + WRITE page 4 (length) = 219.
        // Overwrite: as for NTAG215, + 1 − 1: 219.
        Pin(profile: .ntag216, capacity: 868, readFrames: 5, readBytes: 876, writeFrames: 219, overwriteFrames: 219),
    ]

    @Test(arguments: type2Pins)
    func type2FullCapacity(pin: Pin) throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(pin.profile, uid: uid7)
        var (_, p) = try bench.connect(chip)
        let message = ndefMessage(length: pin.capacity, seed: 1)
        try p.writeMessage(message)
        #expect(bench.frames == pin.writeFrames)

        (_, p) = try bench.connect(chip)
        #expect(try p.readMessage() == message)
        #expect(bench.frames == pin.readFrames)
        #expect(bench.frontend.counts.bytesReceived == pin.readBytes)

        // Overwriting a full tag with another full message: the length page is written twice (length 0 first, the
        // real length last), since the old message must be hidden before its pages change; unchanged known pages
        // are not written.
        (_, p) = try bench.connect(chip)
        try p.writeMessage(ndefMessage(length: pin.capacity, seed: 2))
        #expect(bench.frames == pin.overwriteFrames)
    }

    /// NTAG I2C plus 2k, full capacity (1743 bytes: the Memory Control TLV reserves bytes 904–1023, sector 0
    /// pages E2h–FFh). The message occupies bytes 25–903 (pages 6–E1h) and sector 1 pages 00h–D7h (global 256–471).
    /// Read: READ 3 (pages 3–6) + FAST_READ 7–70, 71–134, 135–198, 199–225 (4) + SECTOR_SELECT 1 (2 frames) +
    /// FAST_READ 256–319, 320–383, 384–447, 448–471 (4) = 11 frames; 16 + (219 + 216) × 4 + 1 (the ACK of
    /// SECTOR_SELECT packet 1) = 1757 bytes.
    /// Write onto the factory tag: READ 3, WRITE pages 6–225 (220), SECTOR_SELECT 1 (2), WRITE 256–471 (216),
    /// SECTOR_SELECT 0 (2), WRITE page 5 (the length, last) = 442.
    @Test func ntagI2CPlus2kAcrossTwoSectors() throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(.ntagI2CPlus2k, uid: uid7)
        var (tag, p) = try bench.connect(chip)
        guard case .type2(let identified) = tag.kind else {
            Issue.record("expected a Type 2 chip, got \(tag.kind)")
            return
        }
        #expect(identified == .ntagI2CPlus2k)
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 1743, messageLength: 0))
        let message = ndefMessage(length: 1743, seed: 1)
        try p.writeMessage(message)
        #expect(bench.frames == 442)

        (_, p) = try bench.connect(chip)
        #expect(try p.readMessage() == message)
        #expect(bench.frames == 11)
        #expect(bench.frontend.counts.bytesReceived == 1757)
        // The configuration pages inside the reserved bytes were never written.
        #expect(chip.memory[0xE8 * 4..<0xE8 * 4 + 8] == [0x01, 0x00, 0xF8, 0x48, 0x08, 0x01, 0x00, 0x00])
        #expect(chip.memory[0xE3 * 4 + 3] == 0xFF)
    }

    @Test func ntag216ReadIsAtMostHalfOf16BytesPerREAD() throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(.ntag216, uid: uid7)
        var (_, p) = try bench.connect(chip)
        try p.writeMessage(ndefMessage(length: 868))
        (_, p) = try bench.connect(chip)
        _ = try p.readMessage()
        let readsOf16Bytes = (219 + 3) / 4  // pages 3…221 (219 pages) in READs of 4 pages
        #expect(readsOf16Bytes == 55)
        #expect(bench.frames * 2 <= readsOf16Bytes)
    }

    @Test func acr122uFrameSizeGives63PagePerFastRead() throws {
        // 252-byte answers ⇒ 63 pages per FAST_READ: pages 7–221 = 215 ⇒ 4 FAST_READs, still 5 frames in all.
        let bench = InteropBench(capabilities: .simulatedACR122U)
        let chip = try Type2Tag.factory(.ntag216, uid: uid7)
        var (_, p) = try bench.connect(chip)
        try p.writeMessage(ndefMessage(length: 868))
        (_, p) = try bench.connect(chip)
        _ = try p.readMessage()
        #expect(bench.frames == 5)
    }

    /// A Type 4 tag with a 4 KiB NDEF file (the virtual card's default: MLe = MLc = 255, short APDUs).
    ///
    /// Detection: SELECT application, SELECT CC, READ BINARY CC, SELECT NDEF file, READ BINARY NLEN = 5 frames.
    /// Read of 4094 bytes in chunks of MLe = 255: ⌈4094 ÷ 255⌉ = 17 ⇒ 22 frames.
    /// Write of 4094 bytes onto an empty file: data from offset 2 in ⌈4094 ÷ 255⌉ = 17 UPDATE BINARY + NLEN = 18
    /// ⇒ 23 frames. Over a full file: NLEN 00 00 rides in the first chunk, ⌈4096 ÷ 255⌉ = 17 + NLEN = 18 ⇒ 23.
    @Test func type4FourKiBFile() throws {
        let bench = InteropBench()
        let card = try Type4Tag(uid: uid7)
        var (_, p) = try bench.connect(card)
        let message = ndefMessage(length: 4094, seed: 1)
        try p.writeMessage(message)
        #expect(bench.frames == 23)

        (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == message)
        #expect(bench.frames == 22)

        (_, p) = try bench.connect(card)
        try p.writeMessage(ndefMessage(length: 4094, seed: 2))
        #expect(bench.frames == 23)
    }

    /// Mapping 3.0, an ENDEF file of 48 KiB (49152 bytes, ENLEN 4 bytes ⇒ a 49148-byte message), MLe = MLc = 255.
    /// Detection: SELECT application, SELECT CC, READ BINARY CC (15 bytes: T = 06), READ BINARY CC offset 15 (the
    /// 2 access bytes after the 4-byte size), SELECT NDEF file, READ BINARY ENLEN = 6 frames.
    /// Read: even READ BINARY of 255 bytes from offset 4 while a command starts at or below 7FFF: offsets 4 + 255k,
    /// k = 0…128 ⇒ 129 frames, up to offset 32899; the 16253 bytes left in odd-INS READs of 252 (255 − `53 81 FC`)
    /// ⇒ ⌈16253 ÷ 252⌉ = 65 ⇒ 6 + 129 + 65 = 200.
    /// Write onto the empty file: the same 129 even UPDATE BINARY of 255 from offset 4; odd-INS UPDATEs carry 247
    /// (255 − `54 03 oo oo oo` − `53 81 F7`) ⇒ ⌈16253 ÷ 247⌉ = 66; ENLEN 0000BFFC from its first non-zero byte in one
    /// command ⇒ 6 + 129 + 66 + 1 = 202. Over a full file ENLEN 0 rides in the first chunk (49152 bytes from offset 0:
    /// 129 even to 32895, ⌈16257 ÷ 247⌉ = 66 odd) ⇒ 202 again.
    @Test func type4Mapping3FileOf48KiB() throws {
        let bench = InteropBench()
        let card = try Type4Tag(
            uid: uid7, configuration: Type4Configuration(mappingVersion: 0x30, ndefFileSize: 49_152))
        var (_, p) = try bench.connect(card)
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 49_148, messageLength: 0))
        let message = ndefMessage(length: 49_148, seed: 1)
        try p.writeMessage(message)
        #expect(bench.frames == 202)
        #expect(card.ndefMessage == message)

        (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == message)
        #expect(bench.frames == 200)

        (_, p) = try bench.connect(card)
        let other = ndefMessage(length: 49_148, seed: 2)
        try p.writeMessage(other)
        #expect(bench.frames == 202)
        #expect(card.ndefMessage == other)
    }

    /// The same file on a card advertising MLe 256: READ BINARY with Le `00` takes 256 bytes ⇒ ⌈4094 ÷ 256⌉ = 16.
    @Test func type4WithMLe256ReadsIn16Chunks() throws {
        let bench = InteropBench()
        let card = try Type4Tag(uid: uid7, configuration: Type4Configuration(mle: 0x0100))
        var (_, p) = try bench.connect(card)
        try p.writeMessage(ndefMessage(length: 4094))
        (_, p) = try bench.connect(card)
        _ = try p.readMessage()
        #expect(bench.frames == 5 + 16)
    }

    /// Ultralight C AUTHENTICATE: `1A 00` and `AF` + 16 bytes, 2 frames — the three-pass protocol's minimum, since the
    /// third pass is the card's answer to the second frame (MF0ICU2 §9.5; docs/PROCEDURES.md).
    @Test func ultralightCAuthentication() throws {
        let bench = InteropBench()
        let (id, _) = try bench.connect(try Type2Tag.factory(.ultralightC, uid: uid7))
        try UltralightCAuthentication(target: id.target, frontend: bench.frontend).authenticate(
            key: UltralightCAuthentication.factoryKey)
        #expect(bench.frames == 2)
    }
}

extension FramePinTests {
    /// PACE advertisement: SELECT MF + READ BINARY of EF.CardAccess by SFI = 2 frames; a card without the file
    /// costs the same 2 (the READ's error status answers the question). docs/PROCEDURES.md.
    @Test func paceCardAccess() throws {
        var c = Type4Configuration()
        c.supportsPACE = true
        let bench = InteropBench()
        _ = try bench.connect(try Type4Tag(uid: [0x08, 1, 2, 3], configuration: c))
        #expect(try PACECardAccess.advertisesPACE(frontend: bench.frontend))
        #expect(bench.frames == 2)
        _ = try bench.connect(try Type4Tag(uid: [0x08, 1, 2, 3]))
        #expect(try !PACECardAccess.advertisesPACE(frontend: bench.frontend))
        #expect(bench.frames == 2)
    }

    /// A VAS transaction with n configurations: SELECT `OSE.VAS.01` + n GET VAS DATA = 1 + n frames.
    @Test func vasTransaction() throws {
        let bench = InteropBench()
        let pass = VASPassTag.Pass(
            passTypeIdentifier: "pass.com.example.loyalty", vasData: Array(repeating: 0x42, count: 200))
        _ = try bench.connect(try VASPassTag(passes: [pass]))
        #expect(try VASReader.select(frontend: bench.frontend))
        let commands = [
            VASCommand(fullMode: true, passTypeIdentifier: "pass.com.example.loyalty", url: nil),
            VASCommand(fullMode: true, passTypeIdentifier: "pass.com.example.other", url: "https://example.com/join"),
        ]
        let results = try commands.enumerated().map { n, c in
            try VASReader.getData(c, more: n == 0, frontend: bench.frontend)
        }
        #expect(results.map(\.status) == [0x9000, 0x6A83])
        #expect(results[0].vasData.count == 200)
        #expect(bench.frames == 3)
    }
}

/// Type 1 (Topaz) frames for full-capacity reads and writes, pinned; docs/PROCEDURES.md derives each minimum.
/// Identification sends nothing (SENS_RES and HR0/HR1 come with the activation), so every count starts at RALL.
@Suite struct Type1FramePinTests {
    struct Pin: Sendable, CustomStringConvertible {
        var profile: Type1ChipProfile
        var capacity: Int
        var readFrames: Int
        var readBytes: Int
        var writeFrames: Int
        var overwriteFrames: Int
        var description: String { profile.name }
    }

    static let pins: [Pin] = [
        // Topaz 512: `03 FF 01 CE` at 22–25; message bytes 26–103 (blocks 3–C) and 128–511 (blocks 10h–3Fh).
        // Read: RALL (HR, blocks 0–E) + RSEG 1, 2, 3 = 4 frames; 122 + 3 × 129 = 509 bytes received.
        // Write onto the factory tag: RALL + WRITE-E8 of blocks 3–C and 10h–3Fh (58) + WRITE-E of byte 23, the
        //   length's first byte, last (its block holds the control TLVs, so it is never written whole) = 60.
        // Overwrite: + 1 WRITE-E (length 0 first), − 1 for block 3 (length tail and record header, the same in
        //   both messages and known from RALL) = 60.
        Pin(profile: .topaz512, capacity: 462, readFrames: 4, readBytes: 509, writeFrames: 60, overwriteFrames: 60),
        // Topaz 96: `03 5A` at 12–13; message bytes 14–103. Read: RALL = 1 frame, 122 bytes.
        // Write: RALL + WRITE-E per message byte that differs from the factory 00 (89 of 90: the record's type
        //   length is 00) + WRITE-E of the length = 91. Overwrite: RALL + length 0 + 87 payload bytes (the 3-byte
        //   record header is the same) + length = 90.
        Pin(profile: .topaz96, capacity: 90, readFrames: 1, readBytes: 122, writeFrames: 91, overwriteFrames: 90),
    ]

    @Test(arguments: pins)
    func fullCapacity(pin: Pin) throws {
        let bench = InteropBench()
        let chip = try Type1Tag.factory(pin.profile, uid: h("11 22 33 44 55 66 77"))
        var (_, p) = try bench.connect(chip)
        let message = ndefMessage(length: pin.capacity, seed: 1)
        try p.writeMessage(message)
        #expect(bench.frames == pin.writeFrames)

        (_, p) = try bench.connect(chip)
        #expect(try p.readMessage() == message)
        #expect(bench.frames == pin.readFrames)
        #expect(bench.frontend.counts.bytesReceived == pin.readBytes)

        (_, p) = try bench.connect(chip)
        try p.writeMessage(ndefMessage(length: pin.capacity, seed: 2))
        #expect(bench.frames == pin.overwriteFrames)
    }
}
