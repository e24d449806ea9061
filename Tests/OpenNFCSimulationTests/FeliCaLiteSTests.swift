import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The card side of the virtual FeliCa Lite-S: every command, every status path, MC rules, MAC and external
/// authentication, tearing, tag files and hostile frames.
@Suite struct FeliCaLiteSTests {
    /// IDm and PMm of a real RC-S966 answering a wildcard Polling (Flipper Zero issue #3871 trace).
    static let idm = "012E4CE445055B87"
    static let pmm = "00F1000000014300"

    func card(formatted: Bool = true) throws -> FeliCaLiteSTag {
        try FeliCaLiteSTag.factory(idm: h(Self.idm), ndefFormatted: formatted)
    }

    func send(_ tag: FeliCaLiteSTag, _ hex: String, tearAfter: Int? = nil) -> VirtualAnswer {
        tag.receive(h(hex), tearAfter: tearAfter)
    }

    /// `06 IDm 01 0B00 n elements` / `08 IDm 01 0900 n elements data`.
    func read(_ elements: String) -> String { "06 \(Self.idm) 01 0B00 \(elements)" }
    func write(_ elements: String, _ data: String) -> String { "08 \(Self.idm) 01 0900 \(elements) \(data)" }
    static let zeros16 = String(repeating: "00", count: 16)

    @Test func pollingAnswersItsSystemCodesWithWildcardsAndRequestCodes() throws {
        let tag = try card()
        expectTranscript(
            tag,
            """
            00 FFFF 00 00 -> 01 \(Self.idm) \(Self.pmm)            # wildcard, no request data (real trace)
            00 FFFF 01 00 -> 01 \(Self.idm) \(Self.pmm) 88B4       # RC 01: the native code answers a wildcard
            00 FFFF 02 00 -> 01 \(Self.idm) \(Self.pmm) 0001       # RC 02: 212 kbit/s only
            00 12FC 01 0F -> 01 \(Self.idm) \(Self.pmm) 12FC       # NDEF system code (SYS_OP set), 16 slots
            00 88B4 01 03 -> 01 \(Self.idm) \(Self.pmm) 88B4
            00 88FF 01 00 -> 01 \(Self.idm) \(Self.pmm) 88B4       # wildcard lower byte
            00 FFFC 01 00 -> 01 \(Self.idm) \(Self.pmm) 12FC       # wildcard upper byte matches 12FC only
            00 0003 00 00 -> TIMEOUT                               # a system the card does not have
            00 FFFF 00    -> TIMEOUT                               # short Polling
            """)
        let blank = try card(formatted: false)
        #expect(send(blank, "00 12FC 00 00") == .silence)
        #expect(send(blank, "00 88B4 00 00") == .data(h("01 \(Self.idm) \(Self.pmm)")))
    }

    @Test func requestServiceResponseAndSystemCode() throws {
        let tag = try card()
        expectTranscript(
            tag,
            """
            02 \(Self.idm) 03 0000 0B00 0900 -> 03 \(Self.idm) 03 0000 0000 0000   # area 0, read and write services
            02 \(Self.idm) 02 1000 4B00      -> 03 \(Self.idm) 02 FFFF FFFF        # absent nodes
            02 \(Self.idm) 00                -> TIMEOUT                             # node count 0
            02 \(Self.idm) 02 0B00           -> TIMEOUT                             # list shorter than its count
            04 \(Self.idm)                   -> 05 \(Self.idm) 00                   # mode 0
            0C \(Self.idm)                   -> 0D \(Self.idm) 02 88B4 12FC         # system codes, BE
            0C 0102030405060708              -> TIMEOUT                             # another IDm: silence
            0A \(Self.idm) 0000              -> TIMEOUT                             # Search Service Code: not on a Lite-S
            """)
        let blank = try card(formatted: false)
        #expect(send(blank, "0C \(Self.idm)") == .data(h("0D \(Self.idm) 01 88B4")))
    }

    @Test func readWithTwoAndThreeByteElementsAndTheSystemBlocks() throws {
        let tag = try card()
        let attribute = "10040100 0D000000 00000100 00000023"
        expectTranscript(
            tag,
            """
            \(read("01 8000")) -> 07 \(Self.idm) 0000 01 \(attribute)                   # block 0, 2-byte element
            \(read("02 000000 8001")) -> 07 \(Self.idm) 0000 02 \(attribute) \(Self.zeros16)  # 3-byte + 2-byte
            \(read("01 8083")) -> 07 \(Self.idm) 0000 01 \(Self.idm) \(Self.pmm)        # D_ID
            \(read("01 8085")) -> 07 \(Self.idm) 0000 01 88B4 \(String(repeating: "00", count: 14))  # SYS_C
            \(read("01 8088")) -> 07 \(Self.idm) 0000 01 FFFFFF0107 \(String(repeating: "00", count: 11))  # MC
            \(read("01 8087")) -> 07 \(Self.idm) 0000 01 \(Self.zeros16)                # CK reads zero
            \(read("01 8090")) -> 07 \(Self.idm) 0000 01 \(Self.zeros16)                # WCNT
            \(read("01 0082 00")) -> 07 \(Self.idm) 0000 01 \(Self.idm) 0000000000000000  # ID, 3-byte element
            """)
    }

    @Test func readStatusFlags() throws {
        let tag = try card()
        expectTranscript(
            tag,
            """
            06 \(Self.idm) 02 0B00 0900 01 8000 -> 07 \(Self.idm) FFA1   # two services
            06 \(Self.idm) 00 01 8000           -> 07 \(Self.idm) FFA1   # no service
            \(read("05 8000 8001 8002 8003 8004")) -> 07 \(Self.idm) FFA2   # five blocks
            \(read("00")) -> 07 \(Self.idm) FFA2                         # no block
            \(read("02 8000")) -> 07 \(Self.idm) FFA2                    # list shorter than its count
            \(read("01 8000 00")) -> 07 \(Self.idm) FFA2                 # trailing byte
            06 \(Self.idm) 01 0900 01 8000      -> 07 \(Self.idm) 01A6   # the write service cannot read
            \(read("02 8000 8110")) -> 07 \(Self.idm) 02A3               # service index 1 in element 1
            \(read("03 8000 8001 9002")) -> 07 \(Self.idm) 04A7          # access mode 1 in element 2
            \(read("01 800F")) -> 07 \(Self.idm) 01A8                    # no block 0F
            \(read("01 8081")) -> 07 \(Self.idm) 01A8                    # MAC alone
            \(read("02 8000 8081")) -> 07 \(Self.idm) 02B2               # MAC before RC was written
            \(read("01 8091")) -> 07 \(Self.idm) 01B2                    # MAC_A before RC was written
            06 \(Self.idm) 01                   -> 07 \(Self.idm) FFA2   # truncated service list
            06 0102030405060708 01 0B00 01 8000 -> TIMEOUT               # another IDm
            06 \(Self.idm)                      -> 07 \(Self.idm) FFA2   # nothing after the IDm
            """)
    }

    @Test func writeRulesAndStatusFlags() throws {
        let tag = try card()
        let data = "000102030405060708090A0B0C0D0E0F"
        expectTranscript(
            tag,
            """
            \(write("01 8001", data)) -> 09 \(Self.idm) 0000              # S_PAD1
            \(read("01 8001")) -> 07 \(Self.idm) 0000 01 \(data)
            \(read("01 8090")) -> 07 \(Self.idm) 0000 01 010000 \(String(repeating: "00", count: 13))  # WCNT 1
            \(write("01 8001", "00")) -> 09 \(Self.idm) FFA2              # short data
            \(write("02 8001 8002", data + data)) -> 09 \(Self.idm) FFA2  # two blocks without MAC_A
            08 \(Self.idm) 01 0B00 01 8001 \(data) -> 09 \(Self.idm) 01A6 # the read service cannot write
            \(write("01 8083", data)) -> 09 \(Self.idm) 01A8              # D_ID is read-only
            \(write("01 8090", data)) -> 09 \(Self.idm) 01A8              # WCNT is read-only
            \(write("01 8092", data)) -> 09 \(Self.idm) 01B2              # STATE needs MAC_A
            \(write("01 8091", data)) -> 09 \(Self.idm) 01A8              # MAC_A alone
            \(write("02 8001 8091", data + Self.zeros16)) -> 09 \(Self.idm) 02B2  # MAC_A without a session
            """)
        #expect(tag.writeCount == 1)
    }

    @Test func registerBlockOnlyCountsDown() throws {
        let tag = try card()
        expectTranscript(
            tag,
            """
            \(write("01 800E", "10000000 20000000 0102030405060708")) -> 09 \(Self.idm) 01A8  # A increases from 0
            """)
        tag.user[0x0E] = h("10000000 20000000 0000000000000000")
        expectTranscript(
            tag,
            """
            \(write("01 800E", "0F000000 20000000 AABBCCDDEEFF0011")) -> 09 \(Self.idm) 0000  # A down, B equal
            \(write("01 800E", "0F000000 21000000 0000000000000000")) -> 09 \(Self.idm) 01A8  # B up: refused
            \(read("01 800E")) -> 07 \(Self.idm) 0000 01 0F000000 20000000 AABBCCDDEEFF0011
            """)
    }

    @Test func memoryConfigurationMergesAndTakesEffectAtPowerUp() throws {
        let tag = try card()
        // Clear write permission of S_PAD1, lock the system blocks, turn NDEF off, set read restriction of S_PAD2.
        let mc = "FDFF 00 00 07 00 0400 0000 0000 00 FFFFFF"
        expectTranscript(
            tag,
            """
            \(write("01 8088", mc)) -> 09 \(Self.idm) 0000
            \(read("01 8088")) -> 07 \(Self.idm) 0000 01 FDFF0000070004000000000000000000
            """)
        // Still the power-up copy: S_PAD1 writable, 12FC answered.
        #expect(send(tag, write("01 8001", Self.zeros16)) == .data(h("09 \(Self.idm) 0000")))
        #expect(send(tag, "00 12FC 00 00") != .silence)
        tag.powerOn()
        #expect(tag.effectiveMC == h("FDFF0000070004000000000000000000"))
        #expect(send(tag, write("01 8001", Self.zeros16)) == .data(h("09 \(Self.idm) 01A8")))
        #expect(send(tag, "00 12FC 00 00") == .silence)
        #expect(send(tag, read("01 8002")) == .data(h("07 \(Self.idm) 01B1")))
        #expect(send(tag, write("01 8085", Self.zeros16)) == .data(h("09 \(Self.idm) 01A8")))  // SYS_C locked
        // Locked system bytes stay; permission bits cannot come back; restriction bits cannot go.
        #expect(
            send(tag, write("01 8088", "FFFF FF 01 07 00 0000 0000 0000 00 000000")) == .data(h("09 \(Self.idm) 0000")))
        #expect(tag.mc == h("FDFF0000070004000000000000000000"))
    }

    @Test func writeCounterWarningOnceSystemBlocksAreLocked() throws {
        let tag = try card()
        tag.mc[2] = 0x00
        tag.powerOn()
        tag.writeCount = 0x1026
        #expect(send(tag, write("01 8001", Self.zeros16)) == .data(h("09 \(Self.idm) FF71")))
        tag.writeCount = 0xFF_FE00
        #expect(send(tag, write("01 8001", Self.zeros16)) == .data(h("09 \(Self.idm) 01A9")))
        #expect(tag.writeCount == 0xFF_FE00)
    }

    /// Internal then external authentication with card key 00 01 … 0F and challenge 10 11 … 1F (the manual's
    /// notation). The session key, the MAC over the ID block and the MAC_A of the STATE write were computed
    /// independently with Python `cryptography`'s TripleDES (CBC) from the Lite-S User's Manual §4 description.
    @Test func internalAndExternalAuthenticationWithMACAndMACA() throws {
        let tag = try card()
        expectTranscript(
            tag,
            """
            \(write("01 8087", "07060504030201000F0E0D0C0B0A0908")) -> 09 \(Self.idm) 0000   # CK, halves reversed
            \(write("01 8080", "17161514131211101F1E1D1C1B1A1918")) -> 09 \(Self.idm) 0000   # RC
            \(read("02 8082 8081")) -> 07 \(Self.idm) 0000 02 \(Self.idm) 0000000000000000 E984BEF3D3ACC866 0000000000000000
            \(write("02 8092 8091", "01" + String(repeating: "00", count: 15) + "55BF9EBF0274180C 020000 0000000000")) -> 09 \(Self.idm) 0000
            \(read("01 8092")) -> 07 \(Self.idm) 0000 01 01 \(String(repeating: "00", count: 15))
            \(write("02 8092 8091", "01" + String(repeating: "00", count: 15) + "55BF9EBF0274180C 020000 0000000000")) -> 09 \(Self.idm) 02B2
            """)
        #expect(tag.externallyAuthenticated)
        // A read-restricted block is readable now; after re-activation the session is gone.
        tag.mc[6] = 0x04
        tag.powerOn()
        #expect(send(tag, read("01 8002")) == .data(h("07 \(Self.idm) 01B1")))
    }

    @Test func tornBlockWriteIsAllOrNothing() throws {
        let tag = try card()
        let data = "FFEEDDCCBBAA99887766554433221100"
        #expect(send(tag, write("01 8003", data), tearAfter: 15) == .silence)
        #expect(tag.user[3] == [UInt8](repeating: 0, count: 16) && tag.writeCount == 0)
        #expect(send(tag, write("01 8003", data), tearAfter: 16) == .silence)
        #expect(tag.user[3] == h(data) && tag.writeCount == 1)
        #expect(tag.processingTime(for: h(write("01 8003", data))) == FeliCaLiteSTag.blockWriteTime)
    }

    @Test func tagFileRoundTripAndFactoryNDEF() throws {
        let message = h("D1 01 0B 55 03 65 78 61 6D 70 6C 65 2E 6F 72 67")
        let tag = try TagFile.factory(chip: "felica-lite-s", uid: h(Self.idm), holding: message)
        #expect(TagFile.ndefMessage(of: tag) == message)
        let json = try TagFile.encodeJSON(tag)
        let back = try TagFile.decodeJSON(json)
        #expect(try TagFile.encodeJSON(back) == json)
        #expect((back as? FeliCaLiteSTag)?.user[0] == FeliCaLiteSTag.attributeBlock(length: message.count))
        let report = try #require(TagFile.chip(for: tag)?.report?(tag))
        #expect(report.ndefAccess == "read/write")
        #expect(throws: TagFileError.self) {
            try TagFile.factory(chip: "felica-lite-s", uid: h(Self.idm), holding: [UInt8](repeating: 0, count: 209))
        }
        let bad = json.replacingOccurrences(of: "\"writeCount\"", with: "\"writeCounter\"")
        #expect(throws: TagFileError.self) { try TagFile.decodeJSON(bad) }
    }

    @Test func twentyThousandHostileFramesNeverTrap() throws {
        var rng = SeededGenerator(seed: 0xFE11_CA00)
        let tag = try card()
        let idm = h(Self.idm)
        var answered = 0
        for i in 0..<20_000 {
            if i % 500 == 0 { tag.powerOn() }
            let length = Int.random(in: 0...40, using: &rng)
            var frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if length > 9, Int.random(in: 0..<4, using: &rng) > 0 {
                frame[0] = [0x00, 0x02, 0x04, 0x06, 0x08, 0x0C].randomElement(using: &rng)!
                frame.replaceSubrange(1..<9, with: idm)
                if length > 12, Int.random(in: 0..<2, using: &rng) == 0 {
                    frame[9] = 1
                    frame[10...11] = frame[0] == 0x06 ? [0x0B, 0x00] : [0x09, 0x00]
                }
            }
            let tear = Int.random(in: 0..<50, using: &rng) == 0 ? Int.random(in: 0...20, using: &rng) : nil
            if case .data = tag.receive(frame, tearAfter: tear) { answered += 1 }
        }
        #expect(answered > 1_000)
        #expect(tag.idm == idm)
    }
}
