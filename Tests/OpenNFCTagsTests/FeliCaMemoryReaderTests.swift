import OpenNFCBytes
import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

private let idm = "0102030405060708"

/// 16 bytes of `b`, as one block's contents.
private func block(_ b: UInt8) -> String { [UInt8](repeating: b, count: 16).hexString }

/// Scripted transcripts of the FeliCa memory reader behind `opennfc dump`/`restore` (JIS X 6319-4 §8.5–§8.6; FeliCa
/// Lite-S User's Manual §3.2; FeliCa Card User's Manual, Excerpted Edition §4.4): every command byte exact.
@Suite struct FeliCaMemoryReaderTests {
    func link(_ transcript: String, maxResponseSize: Int = 256) -> (Type3Link, ScriptedFrontend) {
        let f = ScriptedFrontend(maxResponseSize: maxResponseSize, technologies: [.nfcF], transcript: transcript)
        return (Type3Link(frontend: f, idm: h(idm)), f)
    }

    @Test func liteSReadsFourBlocksACommandAndARefusedGroupOneByOne() throws {
        let all = (0..<4).map { block(UInt8($0)) }.joined()
        let (l, f) = link(
            """
            06 \(idm) 01 0B00 04 8000 8001 8002 8003 -> 07 \(idm) 01 A5       # Read Without Encryption S_PAD0–3: refused
            06 \(idm) 01 0B00 01 8000 -> 07 \(idm) 0000 01 \(block(0))       # S_PAD0 alone
            06 \(idm) 01 0B00 01 8001 -> 07 \(idm) 0000 01 \(block(1))       # S_PAD1
            06 \(idm) 01 0B00 01 8002 -> 07 \(idm) 01 A5                     # S_PAD2 needs authentication
            06 \(idm) 01 0B00 01 8003 -> 07 \(idm) 0000 01 \(block(3))       # S_PAD3
            06 \(idm) 01 0B00 04 8004 8005 8006 8007 -> 07 \(idm) 0000 04 \(all)  # S_PAD4–7
            06 \(idm) 01 0B00 04 8008 8009 800A 800B -> 07 \(idm) 0000 04 \(all)  # S_PAD8–11
            06 \(idm) 01 0B00 04 800C 800D 800E 8082 -> 07 \(idm) 0000 04 \(all)  # S_PAD12–13, REG, ID
            06 \(idm) 01 0B00 04 8083 8084 8085 8086 -> 07 \(idm) 0000 04 \(all)  # D_ID, SER_C, SYS_C, CKV
            06 \(idm) 01 0B00 04 8088 8090 8092 80A0 -> 07 \(idm) 0000 04 \(all)  # MC, WCNT, STATE, CRC_CHECK
            """)
        let image = try FeliCaMemoryReader.readLiteS(l)
        #expect(f.isComplete)
        #expect(image.count == FeliCaMemoryReader.liteSBlocks.count)
        #expect(image[2] == .failure(FeliCaMemoryReader.Refusal(sf1: 0x01, sf2: 0xA5)))
        #expect(image[3] == .success(h(block(3))))
        #expect(image[0x88] == .success(h(block(0))))
    }

    @Test func standardWalksSystemsAreasServicesAndReadsUntilNoSuchBlock() throws {
        let target = RFTarget(
            .nfcF(
                NFCFActivation(
                    idm: h(idm), pmm: h("0120220427674EFF"), systemCode: 0x0003)))
        let (l, f) = link(
            """
            0C \(idm) -> 0D \(idm) 01 0003                                # Request System Code: one system, 0003
            0A \(idm) 0000 -> 0B \(idm) 0000 FEFF                         # Search Service Code 0: area 0000–FFFE
            0A \(idm) 0100 -> 0B \(idm) 0B10                              # 1: service 100B (random, read-only, no key)
            0A \(idm) 0200 -> 0B \(idm) 0810                              # 2: service 1008 (needs a key)
            0A \(idm) 0300 -> 0B \(idm) FFFF                              # 3: end of the list
            02 \(idm) 03 0000 0B10 0810 -> 03 \(idm) 03 0000 0100 FFFF    # Request Service: key versions
            06 \(idm) 01 0B10 08 8000 8001 8002 8003 8004 8005 8006 8007 -> 07 \(idm) 04 A8  # Read 0–7: element 3 is past the end
            06 \(idm) 01 0B10 02 8000 8001 -> 07 \(idm) 0000 02 \(block(0xA0))\(block(0xA1))  # Read 0–1 again
            """)
        let image = try FeliCaMemoryReader.readStandard(l, target: target)
        #expect(f.isComplete)
        #expect(image.systems.count == 1)
        let system = try #require(image.systems.first)
        #expect(system.code == 0x0003 && system.idm == h(idm))
        #expect(system.areas == [FeliCaMemoryReader.Area(code: 0x0000, end: 0xFFFE, keyVersion: 0x0000)])
        #expect(system.services.map(\.code) == [0x100B, 0x1008])
        #expect(
            system.services[0].keyVersion == 0x0001 && system.services[0].blocks == [h(block(0xA0)), h(block(0xA1))])
        #expect(system.services[0].refusal == nil && system.services[0].kind == "random")
        #expect(system.services[1].keyVersion == nil && system.services[1].blocks == nil && system.services[1].needsKey)
    }

    @Test func anotherSystemIsPolledForItsOwnIDm() throws {
        let (l, f) = link(
            """
            00 FE00 00 00 -> 01 1102030405060708 0120220427674EFF        # Polling FE00, request code 00: system 1's IDm
            00 88B4 00 00 -> TIMEOUT                                      # Polling 88B4: no such system
            """)
        #expect(try l.polling(0xFE00)?.idm == h("1102030405060708"))
        #expect(try l.polling(0x88B4) == nil)
        #expect(f.isComplete)
    }

    @Test func aRefusedWriteCarriesItsStatusFlags() throws {
        let (l, f) = link(
            """
            08 \(idm) 01 0900 01 8001 \(block(0x55)) -> 09 \(idm) 01 A8   # Write Without Encryption block 1: refused
            """)
        #expect {
            try l.write(service: 0x0009, block: 1, h(block(0x55)))
        } throws: { ($0 as? TagError)?.feliCaStatus == [0x01, 0xA8] && ($0 as? TagError)?.code == .commandRejected }
        #expect(f.isComplete)
    }

    @Test func anAnswerFromAnotherIDmIsInvalid() throws {
        let (l, f) = link(
            """
            0C \(idm) -> 0D 1102030405060708 01 0003                      # Request System Code answered by another IDm
            """)
        #expect { try l.systemCodes() } throws: { ($0 as? TagError)?.code == .invalidResponse }
        #expect(f.isComplete)
    }

    @Test func traceNamesFeliCaCommandsAndAnswers() {
        let read = h("06 \(idm) 01 0B00 02 8000 8001")
        #expect(
            FrameDescription.describe(command: read, mode: .felica)
                == "Read Without Encryption services 000B, blocks 0, 1")
        #expect(
            FrameDescription.describe(response: .frame(h("07 \(idm) 01 A8")), to: read, mode: .felica)
                == "status 01A8: illegal block number")
    }
}
