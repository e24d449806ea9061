import OpenNFCRF
import Testing

/// Hand-computed air times (docs/TIMING.md): every vector shows its arithmetic in carrier cycles of fc = 13.56 MHz
/// and cites the clause it comes from. 1 etu at 106 kbit/s = 128/fc ≈ 9.4395 µs.
@Suite struct AirTimeTests {
    // MARK: units

    @Test func carrierCyclesBecomeNanosecondsOnce() {
        // 13 560 000 cycles are one second; 128 cycles are 9439.528 ns → 9440 ns rounded.
        #expect(AirTime(cycles: 13_560_000).nanoseconds == 1_000_000_000)
        #expect(AirTime(cycles: 128).nanoseconds == 9_440)
        #expect(AirTime(cycles: 4096).description == "302.1 µs")
        #expect(AirTime(cycles: 65_536).description == "4.833 ms")
    }

    // MARK: NFC-A (ISO/IEC 14443-2 §8, ISO/IEC 14443-3 §6.2)

    @Test func nfcAFramesCountNineBitsAByteAndTwoForStartAndEnd() {
        // Standard frame (§6.2.3.2): 9n + 2 etu. 4 bytes (READ 04 + CRC_A): 38 × 128 = 4864 cycles ≈ 358.7 µs.
        #expect(NFCAAir.standardFrame(bytes: 4).cycles == 4864)
        // 18 bytes (16 data + CRC_A): 164 × 128 = 20 992 cycles ≈ 1548.1 µs.
        #expect(NFCAAir.standardFrame(bytes: 18).cycles == 20_992)
        // Short frame (§6.2.3.1): S + 7 + E = 9 etu = 1152 cycles ≈ 84.96 µs.
        #expect(NFCAAir.shortFrame.cycles == 1152)
        // 4-bit ACK: S + 4 + E = 6 etu = 768 cycles.
        #expect(NFCAAir.nibbleFrame().cycles == 768)
        // Higher rates (ISO/IEC 14443-2 §8.3): etu = 128/D; 4 bytes at 848 kbit/s = 38 × 16 = 608 cycles.
        #expect(NFCAAir.standardFrame(bytes: 4, rate: .kbps848).cycles == 608)
        #expect(NFCAAir.standardFrame(bytes: 4, rate: .kbps212).cycles == 38 * 64)
        #expect(NFCAAir.standardFrame(bytes: 4, rate: .kbps424).cycles == 38 * 32)
        // Bit-oriented frame of 20 bits from a byte boundary: S + 20 + 2 parities (2 completed bytes) + E = 24 etu.
        #expect(NFCAAir.bitOrientedFrame(bits: 20).cycles == 24 * 128)
        // 20 bits starting at bit 4 of a split byte complete 3 bytes: 1 + 20 + 3 + 1 = 25 etu.
        #expect(NFCAAir.bitOrientedFrame(bits: 20, firstBitInByte: 4).cycles == 25 * 128)
    }

    @Test func nfcAFrameDelayDependsOnTheLastBit() {
        // §6.2.1.1: (n·128 + 84)/fc after a 1, (n·128 + 20)/fc after a 0, n = 9: 1236 or 1172 cycles.
        #expect(NFCAAir.readerToCardDelay(lastBit: 1).cycles == 1236)
        #expect(NFCAAir.readerToCardDelay(lastBit: 0).cycles == 1172)
        #expect(NFCAAir.readerToCardDelay(lastBit: 1, n: 10).cycles == 1364)
        // REQA 26 = 010 0110: bit 7 (of 7) is 0 → 1172; WUPA 52 = 101 0010: bit 7 is 1 → 1236.
        #expect(NFCAAir.lastBit(ofShortFrame: 0x26) == 0)
        #expect(NFCAAir.lastBit(ofShortFrame: 0x52) == 1)
        // Odd parity (§6.2.3.2): EE = 1110 1110 has six ones → parity 1; CD = 1100 1101 has five → 0.
        #expect(NFCAAir.parityBit(0xEE) == 1 && NFCAAir.parityBit(0xCD) == 0 && NFCAAir.parityBit(0x00) == 1)
        // §6.2.1.2 and §6.2.2.
        #expect(NFCAAir.cardToReaderDelay.cycles == 1172 && NFCAAir.requestGuardTime.cycles == 7000)
    }

    @Test func ntagReadOfOnePageAsTheStandardTimesIt() {
        // READ 04 with CRC_A is 30 04 26 EE (CRC_A: ISO/IEC 14443-3 Annex B). Before it 1172 (§6.2.1.2); the frame
        // 4864; FDT after EE (parity 1) 1236; the 18-byte answer 20 992. Sum 1172 + 4864 + 1236 + 20 992 = 28 264
        // cycles ≈ 2084.4 µs.
        let command = NFCAAir.withCRC([0x30, 0x04])
        #expect(command == [0x30, 0x04, 0x26, 0xEE])
        let frames = NFCAAir.exchange(command: command, answerBytes: 18)
        #expect(frames.map(\.gap.cycles) == [1172, 1236])
        #expect(frames.map(\.air.cycles) == [4864, 20_992])
        #expect(frames.total().cycles == 28_264)
        // The same through the model, from the procedures' view (no CRC either way).
        let target = RFTarget.nfcA(uid: [0x04, 1, 2, 3, 4, 5, 6], sensRes: 0x0044, selRes: 0x00)
        let model = AirTimeModel.standard.exchange(
            [0x30, 0x04], answer: .frame(Array(repeating: 0, count: 16)), target: target)
        #expect(model.total().cycles == 28_264)
        // A WRITE answered by a 4-bit ACK: A2 05 + 4 bytes + CRC_A = 8 bytes: 74 etu = 9472; ACK 768.
        let write = AirTimeModel.standard.exchange([0xA2, 0x05, 1, 2, 3, 4], answer: .ack, target: target)
        #expect(write.map(\.air.cycles) == [9472, 768])
        // Silence: only the command's frame.
        #expect(AirTimeModel.standard.exchange([0x30, 0x04], answer: nil, target: target).count == 1)
    }

    @Test func selectionOfASevenByteUIDWalksTwoCascadeLevels() {
        // WUPA 1152, FDT 1236, ATQA 2 bytes 20 etu = 2560; per level: ANTICOLLISION 93 20 (2 bytes, 2560), FDT
        // (20 = 0010 0000, one 1 → parity 0 → 1172), UID CLn 5 bytes 47 etu = 6016; SELECT 9 bytes 83 etu = 10 624,
        // FDT (by its CRC's parity), SAK 3 bytes 29 etu = 3712; 1172 before each reader frame.
        let frames = NFCAAir.selection(uid: [0x04, 1, 2, 3, 4, 5, 6], sak: 0x00)
        #expect(frames.count == 10)
        #expect(frames.map(\.label).prefix(2) == ["WUPA", "ATQA"])
        #expect(frames.map(\.air.cycles) == [1152, 2560, 2560, 6016, 10_624, 3712, 2560, 6016, 10_624, 3712])
        #expect(frames[1].gap.cycles == 1236 && frames[3].gap.cycles == 1172)
        #expect(frames.filter { $0.event == .reader }.dropFirst().allSatisfy { $0.gap.cycles == 1172 })
        // ≈ 4.5 ms end to end (the reference figure is about 4.54 ms with worst-case FDTs).
        #expect((4.3...4.6).contains(frames.total().microseconds / 1000))
    }

    // MARK: ISO-DEP (ISO/IEC 14443-4)

    @Test func waitingTimesFollowFWIAndSFGI() {
        // §7.2: FWT = 4096·2^FWI cycles. FWI 0 → 4096 (302 µs), 4 → 65 536 (4.833 ms), 8 → 1 048 576 (77.3 ms),
        // 14 → 67 108 864 (4.949 s).
        #expect(ISODEPAir.frameWaitingTime(fwi: 0).cycles == 4096)
        #expect(ISODEPAir.frameWaitingTime(fwi: 4).cycles == 65_536)
        #expect(ISODEPAir.frameWaitingTime(fwi: 8).cycles == 1_048_576)
        #expect(ISODEPAir.frameWaitingTime(fwi: 14).cycles == 67_108_864)
        #expect(ISODEPAir.frameWaitingTime(fwi: 15).cycles == 65_536)  // RFU: the default
        // §5.2.5: SFGT = 4096·2^SFGI, none for 0.
        #expect(ISODEPAir.startUpGuardTime(sfgi: 0) == .zero && ISODEPAir.startUpGuardTime(sfgi: 1).cycles == 8192)
        // §7.3: WTXM 3 with FWI 4: 3 × 65 536.
        #expect(ISODEPAir.extendedWaitingTime(fwi: 4, wtxm: 3).cycles == 196_608)
        // A DESFire EV1 ATS 06 75 77 81 02 80: T0 75 → FSCI 5 (64 bytes), TA and TB present, TB = 81 → FWI 8, SFGI 1.
        let p = ISODEPAir.Parameters(ats: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        #expect(p.fsc == 64 && p.fwi == 8 && p.sfgi == 1)
        #expect(ISODEPAir.Parameters(ats: [0x01]) == ISODEPAir.Parameters())  // TL only: FSC 32, FWI 4, SFGI 0
        // ATQB protocol info 81 71 71 (ISO/IEC 14443-3 §7.9.4): byte 2 high nibble 7 → FSC 128, byte 3 high nibble 7 → FWI 7.
        let b = ISODEPAir.Parameters(protocolInfo: [0x81, 0x71, 0x71])
        #expect(b.fsc == 128 && b.fwi == 7)
    }

    @Test func selectingTheNDEFApplicationIsOneIBlockEachWay() {
        // 00 A4 04 00 07 D2 76 00 00 85 01 01 00 (13 bytes) in an I-block: 02 + 13 + CRC_A 35 C0 = 16 bytes =
        // 146 etu = 18 688 cycles ≈ 1378.2 µs; C0 = 1100 0000 (two ones) → parity 1 → FDT 1236; answer
        // 02 90 00 + CRC = 5 bytes = 47 etu = 6016 ≈ 443.7 µs. 1172 + 18 688 + 1236 + 6016 = 27 112 cycles.
        let target = RFTarget.nfcA(
            uid: [0x04, 1, 2, 3, 4, 5, 6], sensRes: 0x0344, selRes: 0x20, ats: [0x05, 0x78, 0x80, 0x70, 0x02])
        let frames = AirTimeModel.standard.exchange(
            [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00],
            answer: .frame([0x90, 0x00]),
            target: target)
        #expect(frames.map(\.air.cycles) == [18_688, 6016])
        #expect(frames.map(\.gap.cycles) == [1172, 1236])
        #expect(frames.total().cycles == 27_112)
    }

    @Test func longPayloadsAreChainedAndEachChainedBlockAcknowledged() {
        // §7.5.2. A 100-byte command with FSC 32 (INF ≤ 29): I-blocks of 29, 29, 29, 13 (32, 32, 32, 16 bytes:
        // 290, 290, 290, 146 etu), each but the last answered by R(ACK) (3 bytes, 29 etu). A 300-byte answer with
        // FSD 256 (INF ≤ 253): blocks of 253 and 47 (256 and 50 bytes: 2306 and 452 etu), the first acknowledged by
        // the reader. Air: 870 + 146 + 4 × 29 + 2306 + 452 = 3890 etu = 497 920 cycles.
        // Gaps: 5 reader frames × 1172 = 5860; card frames after blocks whose CRC ends in parity 1, 0, 1, 0 and the
        // reader's R(ACK) A2 E6 D7 (parity 1): 1236 + 1172 + 1236 + 1172 + 1236 = 6052. Total 509 832 cycles.
        let p = ISODEPAir.Parameters(fsc: 32, fsd: 256)
        let frames = ISODEPAir.exchange(
            command: Array(0..<100), answerBytes: 300, parameters: p, carrier: ISODEPAir.nfcA())
        #expect(
            frames.map(\.label) == [
                "I-block 1/4", "R(ACK)", "I-block 2/4", "R(ACK)", "I-block 3/4", "R(ACK)", "I-block 4/4", "I-block 1/2",
                "R(ACK)", "I-block 2/2",
            ])
        #expect(frames.airOnly().cycles == 497_920)
        #expect(frames.filter { $0.event == .reader }.map(\.gap).total().cycles == 5860)
        #expect(frames.filter { $0.event == .tag }.map(\.gap.cycles) == [1236, 1172, 1236, 1172, 1236])
        #expect(frames.total().cycles == 509_832)
    }

    @Test func waitingTimeExtensionsAddTwoFramesEach() {
        // §7.3: S(WTX) F2 01 + CRC (4 bytes, 38 etu = 4864) from the card, the same back from the reader.
        let p = ISODEPAir.Parameters()
        let plain = ISODEPAir.exchange(
            command: [0x90, 0x60, 0, 0, 0], answerBytes: 9, parameters: p, carrier: ISODEPAir.nfcA())
        let extended = ISODEPAir.exchange(
            command: [0x90, 0x60, 0, 0, 0], answerBytes: 9, parameters: p, carrier: ISODEPAir.nfcA(), wtx: 1)
        #expect(extended.count == plain.count + 2)
        #expect(extended.map(\.label) == ["I-block", "S(WTX)", "S(WTX) answer", "I-block"])
        #expect(extended.airOnly().cycles == plain.airOnly().cycles + 2 * 4864)
    }

    @Test func aCardAsksForTheFWTsItStillNeeds() {
        // FWI 4: FWT = 65 536/fc (4.83 ms). Within it: no S(WTX). 12 ms = 162 720/fc: 97 184 missing → WTXM 2
        // (ISO/IEC 14443-4 §7.3). One second, 13 560 000/fc: 13 494 464 missing = 205.9 FWTs → 59, 59, 59, then
        // 13 494 464 − 3 × 59 × 65 536 = 1 894 592 → 28.9 → 29.
        let p = ISODEPAir.Parameters(fwi: 4)
        #expect(ISODEPAir.waitingTimeExtensions(processing: AirTime(cycles: 65_536), parameters: p).isEmpty)
        #expect(ISODEPAir.waitingTimeExtensions(processing: AirTime(cycles: 162_720), parameters: p) == [2])
        #expect(
            ISODEPAir.waitingTimeExtensions(processing: AirTime(cycles: 13_560_000), parameters: p) == [59, 59, 59, 29])
        // The frames carry the request as it travels: F2, WTXM, CRC_A; the reader's response the same.
        let frames = AirTimeModel.standard.exchange(
            [0x00, 0xB0, 0x00, 0x00, 0x00], answer: .frame([0x90, 0x00]),
            target: RFTarget(
                .nfcA(
                    NFCAActivation(uid: [1, 2, 3, 4], sensRes: 0x0004, selRes: 0x20, ats: [0x03, 0x28, 0x40])),
                handle: 1),
            processing: AirTime(cycles: 162_720))
        #expect(frames.map(\.label) == ["I-block", "S(WTX)", "S(WTX) answer", "I-block"])
        #expect(frames[1].event == .tag && frames[2].event == .reader)
        #expect(
            frames[1].bytes.prefix(2) == [0xF2, 0x02] && frames[1].bytes.count == 4
                && frames[2].bytes == frames[1].bytes)
    }

    @Test func ratsAndTheATSThenTheStartUpGuardTime() {
        // RATS E0 80 31 73 (4 bytes, 4864; 73 = 0111 0011, five ones → parity 0 → FDT 1172), ATS 5 + CRC = 7
        // bytes (65 etu = 8320), and with SFGI 1 an SFGT of 8192 before the first block.
        let frames = ISODEPAir.rats(atsLength: 5, parameters: ISODEPAir.Parameters(sfgi: 1))
        #expect(frames.map(\.air.cycles) == [4864, 8320, 0])
        #expect(frames.map(\.gap.cycles) == [1172, 1172, 8192])
    }

    // MARK: NFC-B (ISO/IEC 14443-2 §9, ISO/IEC 14443-3 §7.1)

    @Test func nfcBFramesHaveTenBitCharactersSOFAndEOF() {
        // REQB 05 00 00 + CRC_B = 5 bytes: SOF 12 + 50 + EOF 10 = 72 etu = 9216 cycles ≈ 679.6 µs; TR0 + TR1 =
        // 1024 + 1280 = 2304 (≈ 169.9 µs); ATQB 12 + CRC_B = 14 bytes: 12 + 140 + 10 = 162 etu = 20 736 ≈ 1529.2 µs.
        // 9216 + 2304 + 20 736 = 32 256 cycles ≈ 2378.8 µs.
        #expect(NFCBAir.withCRC([0x05, 0x00, 0x08]) == [0x05, 0x00, 0x08, 0x39, 0x73])
        let frames = NFCBAir.exchange(commandBytes: 5, answerBytes: 14)
        #expect(frames.map(\.air.cycles) == [9216, 20_736])
        #expect(frames[1].gap.cycles == 2304)
        #expect((frames.total().cycles - frames[0].gap.cycles) == 32_256)
        // TR2: 14 etu = 1792 before the next reader frame.
        #expect(frames[0].gap.cycles == 1792)
    }

    // MARK: NFC-F (JIS X 6319-4)

    @Test func felicaFramesCarryPreambleSyncLenAndCRC() {
        // Polling 00 FF FF 00 00: 6 + 2 + 1 + 5 + 2 = 16 bytes = 128 bits × 64 = 8192 cycles ≈ 604.1 µs; slot 0 at
        // 512 × 64 = 32 768 (≈ 2416.5 µs); the 17-byte answer (01 IDm PMm): 28 bytes = 224 × 64 = 14 336 ≈ 1057.2 µs.
        // 8192 + 32 768 + 14 336 = 55 296 cycles ≈ 4077.9 µs.
        let polling = NFCFAir.activation(requestData: false)
        #expect(polling.map(\.air.cycles) == [8192, 14_336])
        #expect(polling.total().cycles == 55_296)
        // At 424 kbit/s every bit is 32 cycles: the Polling frame is 4096.
        #expect(NFCFAir.frame(payload: 5, rate: .kbps424).cycles == 4096)
        // Slot 3 starts (512 + 768) × 64 = 81 920 cycles after the request.
        #expect(NFCFAir.pollingSlotStart(3).cycles == 81_920)
        // Read Without Encryption of one block: 06 IDm 01 SC 01 8000 (15 bytes) → 26 bytes = 13 312 (≈ 981.7 µs);
        // the answer 07 IDm status×2 01 + 16 (28 bytes) → 39 bytes = 19 968 (≈ 1472.6 µs).
        #expect(NFCFAir.frame(payload: 15).cycles == 13_312)
        #expect(NFCFAir.frame(payload: 28).cycles == 19_968)
        // PMm byte 43 = 01 000 011: E 1, B 0, A 3; one block: 4096 × ((0 + 1)·1 + (3 + 1)) × 4 = 81 920 (≈ 6.04 ms).
        #expect(NFCFAir.maximumResponseTime(pmmByte: 0x43, n: 1).cycles == 81_920)
    }

    // MARK: NFC-V (ISO/IEC 15693-2, -3)

    @Test func iso15693InventoryAndReadSingleBlock() {
        // Inventory 26 01 00 + CRC (5 bytes), 1-of-4: SOF 1024 + 5 × 4 × 1024 + EOF 512 = 22 016 (≈ 1623.6 µs);
        // t1 4352 (≈ 320.9 µs); the 12-byte answer at the high rate: 2048 + 96 × 512 + 2048 = 53 248 (≈ 3926.8 µs).
        // 22 016 + 4352 + 53 248 = 79 616 cycles ≈ 5871.4 µs.
        let inventory = NFCVAir.activation()
        #expect(inventory.map(\.air.cycles) == [22_016, 53_248])
        #expect(inventory.total().cycles == 79_616)
        // Read Single Block, addressed: 22 20 UID 05 + CRC = 13 bytes: 1024 + 13 × 4096 + 512 = 54 784
        // (≈ 4040.1 µs); the answer 00 + 4 bytes + CRC = 7 bytes: 2048 + 56 × 512 + 2048 = 32 768 (≈ 2416.5 µs).
        // With t2 4192 before the request: 4192 + 54 784 + 4352 + 32 768 = 96 096 cycles.
        let request: [UInt8] = [0x22, 0x20] + Array(repeating: 0xE0, count: 8) + [0x05]
        let read = NFCVAir.exchange(request: request, answerBytes: 5)
        #expect(read.map(\.air.cycles) == [54_784, 32_768])
        #expect(read.total().cycles == 96_096)
        // Low data rate (flags 20, bit 2 clear): the answer takes four times as long: 4 × 32 768.
        #expect(NFCVAir.exchange(request: [0x20] + request.dropFirst(), answerBytes: 5)[1].air.cycles == 131_072)
        // 1-of-256: 1024 + 13 × 65 536 + 512 = 853 504.
        #expect(NFCVAir.readerFrame(bytes: 13, coding: .oneOf256).cycles == 853_504)
    }

    @Test func iso15693WriteWithTheOptionFlagWaitsForALoneEOF() {
        // §10.4.2: Write Single Block with Option_flag (62 = option + addressed + high rate): request, a wait of
        // 20 ms (271 200 cycles) and a lone EOF (512), t1, then the 1-byte answer + CRC: 2048 + 24 × 512 + 2048 =
        // 16 384.
        let request: [UInt8] = [0x62, 0x21] + Array(repeating: 0xE0, count: 8) + [0x05, 1, 2, 3, 4]
        let frames = NFCVAir.exchange(request: request, answerBytes: 1)
        #expect(frames.map(\.label) == ["", "EOF", "answer"])
        #expect(frames[1].gap.cycles == 271_200 && frames[1].air.cycles == 512)
        #expect(frames[2].gap.cycles == 4352 && frames[2].air.cycles == 16_384)
        // Without the option flag: no EOF, the answer t1 after the request.
        #expect(NFCVAir.exchange(request: [0x22] + request.dropFirst(), answerBytes: 1).count == 2)
    }
}
