import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCTestSupport
import Synchronization
import Testing

/// ISO 15693 through PC/SC: the Part 3 ATR (SS `0B` and `0C`), the UID order, the transparent-session profile and
/// the by-block storage-card profile, APDU by APDU against scripted readers.
@Suite struct PCSCISO15693Tests {
    let reader = "ACS ACR1552 1S CL Reader PICC 00 00"
    /// PC/SC Part 3 ATR, standard 0B (ISO 15693 part 3), card name 00 14 (ICODE SLI); TCK computed.
    static let icodeATR = h("3B8F8001804F0CA0000003060B00140000000077")

    /// A reader answering a fixed script: each command must be the next expected one.
    final class Script: @unchecked Sendable {
        let steps: Mutex<[(command: [UInt8], response: [UInt8])]>
        init(_ steps: [(String, String)]) { self.steps = Mutex(steps.map { (h($0.0), h($0.1)) }) }
        func respond(_ apdu: [UInt8]) -> [UInt8] {
            steps.withLock { s in
                guard let next = s.first else { return [0x6F, 0x00] }
                guard next.command == apdu else { return [0x6F, 0x01] }
                s.removeFirst()
                return next.response
            }
        }
        var remaining: Int { steps.withLock { $0.count } }
    }

    func frontend(atr: [UInt8] = icodeATR, _ script: Script) throws -> PCSCFrontend {
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(FakePCSCBinding.Card(atr: atr) { script.respond($0) }, into: reader)
        return PCSCFrontend(context: try PCSCContext(binding: fake))
    }

    @Test func atrDecodingAcceptsBothStandardBytes() throws {
        #expect(ContactlessCard(atrBytes: Self.icodeATR) == .storage(standard: 0x0B, cardName: 0x0014))
        #expect(ContactlessCard(atrBytes: Self.icodeATR).technology == .nfcV)
        #expect(ContactlessCard(atrBytes: Self.icodeATR).summary == "ICODE SLI (ISO 15693 part 3)")
        // Windows drivers report SS 0C for the same tags (TCK recomputed: 77 ^ 0B ^ 0C = 70).
        let windows = h("3B8F8001804F0CA0000003060C00140000000070")
        #expect(ContactlessCard(atrBytes: windows) == .storage(standard: 0x0C, cardName: 0x0014))
        #expect(ContactlessCard(atrBytes: windows).technology == .nfcV)
        #expect(ContactlessCard.cardName(0x0012) == "Tag-it HF-I")
    }

    @Test func transparentSessionCarriesEveryRequest() throws {
        let uid = h("E004010812345678")
        let script = Script([
            ("FFCA000000", "78563412080104E0 9000"),  // FF CA: this reader answers LSB first
            ("FFC20000028100 00", "C00300900090 00"),  // start session (the probe)
            ("FFC20002048F020203 00", "C00300900090 00"),  // switch to ISO 15693 layer 3
            // GET SYSTEM INFORMATION, addressed, no CRC (the reader adds it)
            (
                "FFC200010C 950A 222B7856341208 0104E0 00",
                "C003009000 920100 96020000 970F 000F7856341208 0104E0 00001B0301 9000"
            ),
            // a write carries the 1-second timer (programming time)
            (
                "FFC2000118 5F460440420F00 950F 22217856341208 0104E0 05 01020304 00",
                "C003009000 970100 9000"
            ),
            // a silent tag: no ICC response
            ("FFC200010C 950A 22207856341208 0104E0 00", "C003016401 9000"),
            ("FFC20000028200 00", "C00300900090 00"),  // end session at deactivation
        ])
        let f = try frontend(script)
        let t = try #require(f.poll([.nfcV]).first)
        #expect(t.identifier == uid)  // reported MSB first whatever the reader's order
        #expect(t.nfcV?.icManufacturerCode == 0x04)
        _ = try f.activate(t)
        #expect(f.activeProfile is TransparentSessionProfile)
        #expect(f.capabilities.frameModes == [.nfcV])
        #expect(try f.exchange(h("222B") + uid.reversed()) == .frame(h("000F7856341208 0104E0 00001B0301")))
        #expect(try f.exchange(h("2221") + uid.reversed() + h("05 01020304")) == .frame([0x00]))
        #expect {
            _ = try f.exchange(h("2220") + uid.reversed())
        } throws: { ($0 as? RFError)?.code == .timeout }
        f.deactivate()
        #expect(script.remaining == 0)
    }

    @Test func part3OnlyReaderReadsAndWritesByBlock() throws {
        let uid = h("E004010812345678")
        let script = Script([
            ("FFCA000000", "E004010812345678 9000"),  // this reader answers MSB first
            ("FFC20000028100 00", "6A81"),  // no transparent session: Part 3 only
            ("FFB0000000", "E1400E01 9000"),  // Read Single Block 0 → the block size (4) is learnt
            ("FFB0000108", "0300FE00 00000000 9000"),  // Read Multiple Blocks 1-2 in one READ BINARY
            ("FFD6000304 01020304", "9000"),  // Write Single Block 3
            ("FFD6001B04 01020304", "6A82"),  // past the memory: error 10
            ("FFD6000104 00000000", "6300"),  // refused: error 0F (the code is not passed on)
        ])
        let f = try frontend(script)
        let t = try #require(f.poll([.nfcV]).first)
        #expect(t.identifier == uid)
        _ = try f.activate(t)
        #expect(f.activeProfile is ISO15693StorageCardProfile)
        let addr = Array(uid.reversed())
        #expect(try f.exchange(h("2220") + addr + [0x00]) == .frame(h("00E1400E01")))
        #expect(try f.exchange(h("2223") + addr + [0x01, 0x01]) == .frame(h("000300FE0000000000")))
        #expect(try f.exchange(h("2221") + addr + h("03 01020304")) == .frame([0x00]))
        #expect(try f.exchange(h("2221") + addr + h("1B 01020304")) == .frame([0x01, 0x10]))
        #expect(try f.exchange(h("2221") + addr + h("01 00000000")) == .frame([0x01, 0x0F]))
        // Commands Part 3 has no form for are refused by name.
        #expect {
            _ = try f.exchange(h("222B") + addr)
        } throws: { e in
            guard let e = e as? RFError, e.code == .unsupported else { return false }
            return e.detail.contains("transparent session") && e.detail.contains("2B")
        }
        #expect(throws: RFError.self) { try f.exchange(h("6220") + addr + [0x00]) }  // Option flag: no Part 3 form
        #expect(script.remaining == 0)
    }
}
