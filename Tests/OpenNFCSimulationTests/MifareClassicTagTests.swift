import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCSimulation

/// Card-side behaviour of MIFARE Classic (NXP MF1S50yyX / MF1S70yyX §8–§10): plain transcripts for what travels in
/// the clear, and the enciphered link through the simulated frontend's Crypto1 authentication.
@Suite struct MifareClassicTagTests {
    static let ff: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// A field with one Classic in it, a frontend that can authenticate, and the tag activated.
    func setUp(
        _ tag: MifareClassicTag, cardRandom: [UInt8] = [], readerRandom: [UInt8] = []
    ) throws -> (VirtualField, VirtualFieldFrontend) {
        tag.random = FixedRandomSource(cardRandom)
        let field = VirtualField(clock: VirtualClock(), recording: true)
        field.place(tag)
        let frontend = VirtualFieldFrontend(field: field, capabilities: .unlimited)
        frontend.random = FixedRandomSource(readerRandom)
        let target = try #require(frontend.poll([.nfcA]).first)
        _ = try frontend.activate(target)
        return (field, frontend)
    }

    func classic1K(_ magic: MifareClassicTag.Magic = .none) -> MifareClassicTag {
        try! MifareClassicTag(model: .classic1K, uid: [0x01, 0x02, 0x03, 0x04], magic: magic)
    }

    @Test func publishedTraceGoesOnTheAirByteForByte() throws {
        // The proxmark3 mfkey64 documentation's sample trace (key FF FF FF FF FF FF): UID 9C 59 9B 32, AUTH-A of
        // block 32h, nT 82 A4 16 6C, reader {nR}{aR} A1 E4 58 CE 6E EA 41 E0, card {aT} 5C AD F4 39. The reader's
        // plaintext nR is recovered from the card's view of the trace, then the frontend must send exactly the trace.
        let uid: UInt32 = 0x9C59_9B32
        let nT: UInt32 = 0x82A4_166C
        var card = Crypto1(key: Self.ff)
        card.shift(word: uid ^ nT)
        let nR = 0xA1E4_58CE ^ card.shift(word: 0xA1E4_58CE, encrypted: true)
        let tag = try MifareClassicTag(model: .classic1K, uid: uid.mifareBytes)
        let (field, frontend) = try setUp(tag, cardRandom: [0x82, 0xA4], readerRandom: nR.mifareBytes)
        try frontend.authenticate(.mifareClassic(block: 0x32, keyType: .a, key: Self.ff))
        let frames = field.transcript.frames
        #expect(
            frames == [
                .command([0x60, 0x32]), .answer(.frame([0x82, 0xA4, 0x16, 0x6C])),
                .cipheredCommand([0xA1, 0xE4, 0x58, 0xCE, 0x6E, 0xEA, 0x41, 0xE0]),
                .cipheredAnswer([0x5C, 0xAD, 0xF4, 0x39], nibble: false),
            ])
        // Then the link is enciphered: a READ of the sector's block goes out as ciphertext and comes back as plaintext.
        #expect(try frontend.exchange([0x30, 0x30]) == .frame([UInt8](repeating: 0, count: 16)))
        guard case .cipheredCommand(let sent) = field.transcript.frames[4] else {
            Issue.record("the READ did not travel enciphered")
            return
        }
        #expect(sent.count == 4)
        #expect(sent != [0x30, 0x30] + CRC.appendingCRCA([0x30, 0x30]).suffix(2))
    }

    @Test func plainFramesBeforeAuthentication() {
        let tag = classic1K()
        tag.random = FixedRandomSource([0x82, 0xA4])
        expectTranscript(
            tag,
            """
            60 04 -> 82A4166C         # AUTH-A: nT from the 16-bit generator
            ACTIVATE -> UID 01020304 ATQA 0004 SAK 08
            30 04 -> NAK 4            # READ needs an authenticated sector
            30 04 -> TIMEOUT          # and the NAK mutes the chip
            ACTIVATE -> UID 01020304 ATQA 0004 SAK 08
            40 -> TIMEOUT             # a genuine chip has no gen1a backdoor
            """)
    }

    @Test func gen1aBackdoorReadsAndWritesBlockZeroWithoutKeys() {
        let tag = classic1K(.gen1a)
        let block0 = "0102030404080400" + "6263646566676869"
        expectTranscript(
            tag,
            """
            40 -> ACK
            43 -> ACK
            30 00 -> \(block0)
            30 03 -> FFFFFFFFFFFFFF078069FFFFFFFFFFFF    # keys readable through the backdoor
            A0 00 -> ACK
            AABBCCDD 00 08 0400 0000000000000000 -> ACK  # a new UID with its BCC
            ACTIVATE -> UID AABBCCDD ATQA 0004 SAK 08
            """)
        #expect(tag.uid == [0xAA, 0xBB, 0xCC, 0xDD])
    }

    @Test func readWriteAndTrailerMasking() throws {
        let tag = classic1K()
        let (_, frontend) = try setUp(tag, cardRandom: [1, 2], readerRandom: [9, 9, 9, 9])
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
        let data = (0..<16).map { UInt8($0 * 3) }
        #expect(try frontend.exchange([0xA0, 0x05]) == .ack)
        #expect(try frontend.exchange(data) == .ack)
        #expect(try frontend.exchange([0x30, 0x05]) == .frame(data))
        // Key A never reads back; access bits and GPB do; key B reads in the transport configuration 001.
        #expect(try frontend.exchange([0x30, 0x07]) == .frame([0, 0, 0, 0, 0, 0, 0xFF, 0x07, 0x80, 0x69] + Self.ff))
        // Block 8 is in another sector.
        #expect(try frontend.exchange([0x30, 0x08]) == .nak(4))
        #expect(tag.block(5) == data)
    }

    @Test func blockZeroIsReadOnlyExceptOnGen2() throws {
        let genuine = classic1K()
        let (_, f1) = try setUp(genuine, cardRandom: [1, 2])
        try f1.authenticate(.mifareClassic(block: 0, keyType: .a, key: Self.ff))
        #expect(try f1.exchange([0xA0, 0x00]) == .nak(4))

        let cuid = classic1K(.gen2)
        let (_, f2) = try setUp(cuid, cardRandom: [1, 2])
        try f2.authenticate(.mifareClassic(block: 0, keyType: .a, key: Self.ff))
        #expect(try f2.exchange([0xA0, 0x00]) == .ack)
        let block0: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x44, 0x08, 0x04, 0x00] + [UInt8](repeating: 0, count: 8)
        #expect(try f2.exchange(block0) == .ack)
        #expect(cuid.uid == [0x11, 0x22, 0x33, 0x44])
    }

    @Test func wrongKeyFailsAndTheCardNeedsActivation() throws {
        let tag = classic1K()
        let (field, frontend) = try setUp(tag, cardRandom: [1, 2, 3, 4])
        #expect(throws: RFError.self) {
            try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: [1, 2, 3, 4, 5, 6]))
        }
        #expect(tag.isMuted)
        let target = try #require(field.poll([.nfcA]).first)
        _ = try frontend.activate(target)
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
        #expect(try frontend.exchange([0x30, 0x04]) == .frame([UInt8](repeating: 0, count: 16)))
    }

    @Test func nestedAuthenticationSwitchesSectorAndKey() throws {
        let tag = classic1K()
        let keyB2: [UInt8] = [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5]
        // Sector 2: key B only for data (access bits 78 77 88: data 100 read A|B write B, trailer 011).
        try tag.setBlock(11, Self.ff + [0x78, 0x77, 0x88, 0x00] + keyB2)
        try tag.setBlock(8, [UInt8](repeating: 0x5A, count: 16))
        let (field, frontend) = try setUp(tag, cardRandom: [1, 2, 3, 4, 5, 6])
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
        field.clearTranscript()
        try frontend.authenticate(.mifareClassic(block: 8, keyType: .b, key: keyB2))
        // The nested AUTH command and nT are enciphered: nothing of it travels in the clear.
        #expect(
            field.transcript.frames.allSatisfy {
                if case .cipheredCommand = $0 { true } else if case .cipheredAnswer = $0 { true } else { false }
            })
        #expect(try frontend.exchange([0x30, 0x08]) == .frame([UInt8](repeating: 0x5A, count: 16)))
        #expect(try frontend.exchange([0xA0, 0x08]) == .ack)
        #expect(try frontend.exchange([UInt8](repeating: 0x33, count: 16)) == .ack)
        #expect(try frontend.exchange([0x30, 0x04]) == .nak(4))
        #expect(tag.block(8) == [UInt8](repeating: 0x33, count: 16))
    }

    @Test func accessConditionsRefuseKeyAWrites() throws {
        let tag = classic1K()
        let keyB: [UInt8] = [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5]
        try tag.setBlock(7, Self.ff + [0x78, 0x77, 0x88, 0x00] + keyB)
        let (_, frontend) = try setUp(tag, cardRandom: [1, 2])
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
        #expect(try frontend.exchange([0x30, 0x04]) == .frame([UInt8](repeating: 0, count: 16)))
        #expect(try frontend.exchange([0xA0, 0x04]) == .nak(4))
        // Trailer 011 read with key A: access bits readable, key B not.
        _ = try frontend.activate(try #require(frontend.poll([.nfcA]).first))
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
        #expect(
            try frontend.exchange([0x30, 0x07])
                == .frame([0, 0, 0, 0, 0, 0, 0x78, 0x77, 0x88, 0x00] + [0, 0, 0, 0, 0, 0]))
    }

    @Test func readableKeyBAuthenticatesButOpensNothing() throws {
        // Transport configuration (trailer 001): key B is readable, so it cannot serve (MF1S50yyX §8.7.2).
        let tag = classic1K()
        let (_, frontend) = try setUp(tag, cardRandom: [1, 2])
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .b, key: Self.ff))
        #expect(try frontend.exchange([0x30, 0x04]) == .nak(4))
    }

    @Test func trailerWritesOnlyWhatTheAccessBitsAllow() throws {
        let tag = classic1K()
        let keyB: [UInt8] = [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5]
        // Trailer 011: key A write with B, access bits with B, key B with B; key A may write nothing.
        try tag.setBlock(7, Self.ff + [0x78, 0x77, 0x88, 0x00] + keyB)
        let (_, frontend) = try setUp(tag, cardRandom: [1, 2])
        try frontend.authenticate(.mifareClassic(block: 7, keyType: .a, key: Self.ff))
        #expect(try frontend.exchange([0xA0, 0x07]) == .nak(4))
        _ = try frontend.activate(try #require(frontend.poll([.nfcA]).first))
        try frontend.authenticate(.mifareClassic(block: 7, keyType: .b, key: keyB))
        #expect(try frontend.exchange([0xA0, 0x07]) == .ack)
        let newA: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
        #expect(try frontend.exchange(newA + [0x7F, 0x07, 0x88, 0x40] + keyB) == .ack)
        #expect(tag.key(0x60, sector: 1) == newA)
        #expect(tag.block(7)[6..<10] == [0x7F, 0x07, 0x88, 0x40])
    }

    @Test func valueBlockOperations() throws {
        let tag = classic1K()
        try tag.setBlock(5, MifareClassicTag.valueBlock(100, address: 5))
        try tag.setBlock(6, [UInt8](repeating: 0x12, count: 16))
        let (_, frontend) = try setUp(tag, cardRandom: [1, 2])
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
        // INCREMENT 10: ACK, then no answer (the value waits in the transfer buffer), TRANSFER: ACK.
        #expect(try frontend.exchange([0xC1, 0x05]) == .ack)
        #expect(throws: RFError.self) { try frontend.exchange([0x0A, 0, 0, 0]) }
        #expect(try frontend.exchange([0xB0, 0x05]) == .ack)
        #expect(try frontend.exchange([0x30, 0x05]) == .frame(MifareClassicTag.valueBlock(110, address: 5)))
        // DECREMENT 200 into block 4 (a negative value, the source's address byte kept).
        #expect(try frontend.exchange([0xC0, 0x05]) == .ack)
        #expect(throws: RFError.self) { try frontend.exchange([0xC8, 0, 0, 0]) }
        #expect(try frontend.exchange([0xB0, 0x04]) == .ack)
        #expect(tag.block(4) == MifareClassicTag.valueBlock(-90, address: 5))
        // RESTORE copies without change; a block not in value format is refused.
        #expect(try frontend.exchange([0xC2, 0x04]) == .ack)
        #expect(throws: RFError.self) { try frontend.exchange([0, 0, 0, 0]) }
        #expect(try frontend.exchange([0xB0, 0x05]) == .ack)
        #expect(tag.block(5) == MifareClassicTag.valueBlock(-90, address: 5))
        #expect(try frontend.exchange([0xC1, 0x06]) == .nak(4))
    }

    @Test func transferWithoutAValueOperationIsRefused() throws {
        let tag = classic1K()
        let (_, frontend) = try setUp(tag, cardRandom: [1, 2])
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
        #expect(try frontend.exchange([0xB0, 0x05]) == .nak(4))
    }

    @Test func aTornWriteLeavesTheOldBlock() throws {
        for tearAfter in [0, 8, 15, 16] {
            let tag = classic1K()
            try tag.setBlock(4, [UInt8](repeating: 0x11, count: 16))
            let (field, frontend) = try setUp(tag, cardRandom: [1, 2])
            try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
            #expect(try frontend.exchange([0xA0, 0x04]) == .ack)
            field.faultPlan = FaultPlan([.tear(frame: 1, afterBytes: tearAfter)])
            #expect(throws: RFError.self) { try frontend.exchange([UInt8](repeating: 0x22, count: 16)) }
            #expect(tag.block(4) == [UInt8](repeating: tearAfter >= 16 ? 0x22 : 0x11, count: 16))
        }
    }

    @Test func invalidAccessBitsBlockTheSector() throws {
        let tag = classic1K()
        try tag.setBlock(7, Self.ff + [0xFF, 0xFF, 0xFF, 0x69] + Self.ff)
        let (_, frontend) = try setUp(tag, cardRandom: [1, 2])
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: Self.ff))
        #expect(try frontend.exchange([0x30, 0x04]) == .nak(4))
    }

    @Test func fourKBigSectorsShareAccessGroupsOfFiveBlocks() throws {
        let tag = try MifareClassicTag(model: .classic4K, uid: [1, 2, 3, 4])
        #expect(tag.activation.sensRes == 0x0002)
        #expect(tag.activation.selRes == 0x18)
        #expect(MifareClassicModel.trailerBlock(ofSector: 39) == 255)
        #expect(MifareClassicModel.accessGroup(ofBlock: 128 + 7) == 1)
        // Sector 32: group 1 (blocks 133–137) read-only (010), others transport.
        // C1 = 0000, C2 = 0010, C3 = 0000 plus trailer 001 (C3 bit 3).
        try tag.setBlock(143, Self.ff + [0xDF, 0x07, 0x82, 0x69] + Self.ff)
        let (_, frontend) = try setUp(tag, cardRandom: [1, 2])
        try frontend.authenticate(.mifareClassic(block: 128, keyType: .a, key: Self.ff))
        #expect(try frontend.exchange([0xA0, 132]) == .ack)
        #expect(try frontend.exchange([UInt8](repeating: 1, count: 16)) == .ack)
        #expect(try frontend.exchange([0xA0, 133]) == .nak(4))
    }

    @Test func hostileFramesNeverTrap() throws {
        var generator = SeededGenerator(seed: 15)
        for _ in 0..<300 {
            let tag = classic1K(.gen1a)
            tag.random = FixedRandomSource([1, 2])
            let n = Int.random(in: 0...20, using: &generator)
            let frame = (0..<n).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = tag.receive(frame, tearAfter: nil)
            let parity = (0..<n).map { _ in UInt8.random(in: 0...1, using: &generator) }
            _ = tag.receive(air: NFCAAirFrame(bytes: frame, parity: parity), tearAfter: nil)
            _ = tag.receive(air: NFCAAirFrame(bytes: frame, parity: []), tearAfter: 3)
        }
    }

    @Test(arguments: MifareClassicModel.allCases)
    func tagFilesRoundTripWithKeysAndMagic(_ model: MifareClassicModel) throws {
        let tag = try MifareClassicTag(model: model, uid: [0xDE, 0xAD, 0xBE, 0xEF], magic: .gen2)
        try tag.setBlock(
            MifareClassicModel.trailerBlock(ofSector: 1),
            [1, 2, 3, 4, 5, 6, 0x78, 0x77, 0x88, 0x00, 7, 8, 9, 10, 11, 12])
        let text = try TagFile.encodeJSON(tag)
        let back = try #require(try TagFile.decodeJSON(text) as? MifareClassicTag)
        #expect(back.memory == tag.memory)
        #expect(back.model == model)
        #expect(back.magic == .gen2)
        #expect(back.key(0x61, sector: 1) == [7, 8, 9, 10, 11, 12])
        #expect(text.contains("\"chip\": \"\(model.rawValue)\""))
        // A block of the wrong size is named.
        let broken = text.replacingOccurrences(of: "\"DE AD BE EF", with: "\"DE AD BE")
        #expect(throws: TagFileError.self) { try TagFile.decodeJSON(broken) }
    }

    @Test func nfcFormattingWritesTheMADAndTheNDEFSectors() throws {
        // AN10787 / AN1305 templates: MAD1 block 1 `14 01 03 E1 …` (CRC-8 14h for an NFC-only 1K), MAD trailer
        // `A0A1A2A3A4A5 787788 C1`, NDEF trailers `D3F7D3F7D3F7 7F0788 40`; MAD2 CRC E8h for an NFC-only 4K.
        let k1 = try #require(
            try TagFile.factory(chip: "mifare-classic-1k", uid: [1, 2, 3, 4], holding: [0xD0, 0x00, 0x00])
                as? MifareClassicTag)
        #expect(Array(k1.block(1).prefix(4)) == [0x14, 0x01, 0x03, 0xE1])
        #expect(k1.block(3) == [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0x78, 0x77, 0x88, 0xC1] + Self.ff)
        #expect(k1.block(7) == [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7, 0x7F, 0x07, 0x88, 0x40] + Self.ff)
        #expect(Array(k1.block(4).prefix(6)) == [0x03, 0x03, 0xD0, 0x00, 0x00, 0xFE])
        #expect(k1.ndefMessage == [0xD0, 0x00, 0x00])
        let k4 = try MifareClassicTag(model: .classic4K, uid: [1, 2, 3, 4])
        try k4.formatForNDEF()
        #expect(Array(k4.block(64).prefix(4)) == [0xE8, 0x01, 0x03, 0xE1])
        #expect(k4.block(3)[9] == 0xC2)
        #expect(k4.ndefMessage == [])
        #expect(throws: MifareClassicTag.FactoryError.self) {
            try k1.formatForNDEF(holding: [UInt8](repeating: 0, count: 15 * 48))
        }
    }
}
