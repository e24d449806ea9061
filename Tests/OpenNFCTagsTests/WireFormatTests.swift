import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// Golden tables for the wire structures the procedures decode: NDEF framing, the Type 2 CC and control TLVs,
/// the Type 4 CC, and the APDUs the procedures build.
@Suite struct WireFormatTests {
    @Test(
        arguments: [
            ("D0 00 00", nil),  // empty record: the empty message (NDEF §3.2)
            ("D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67", nil),  // nfcpy URI record
            ("91 01 01 54 00 51 01 01 55 00", nil),  // two records, MB then ME
            ("C5 00 00 00 00 02 AA BB", nil),  // long-form payload length
            ("D9 01 00 02 54 69 64", nil),  // IL: ID length 2
            ("B5 00 01 AA 36 00 00 56 00 01 BB", nil),  // chunked: CF first, TNF 6 middle and last (ME)
            ("", "missing"),
            ("51 01 00 54", "MB clear"),  // no MB on the first record
            ("91 01 00 54", "missing"),  // no ME anywhere
            ("D1 01 05 54 00", "needs 4 bytes more"),  // payload cut short
            ("D0 00 00 00", "follow the record"),  // trailing byte after ME
            ("D1 01", "truncated"),  // header cut short
            ("91 01 00 54 D1 01 00 54", "MB set"),  // MB on the second record
        ] as [(String, String?)])
    func ndefFraming(bytes: String, problem: String?) {
        let found = NDEFFraming.problem(in: h(bytes))
        if let problem {
            #expect(found?.contains(problem) == true, "\(found ?? "nil")")
        } else {
            #expect(found == nil)
        }
    }

    @Test func type2CapabilityContainerFields() {
        let cc = Type2CapabilityContainer(page: h("E1 10 6D 0F"))
        #expect(cc.dataAreaSize == 872)
        #expect(cc.majorVersion == 1 && cc.minorVersion == 0)
        #expect(cc.readAccess == 0 && cc.writeAccess == 0xF)
        #expect(cc.unsupportedReason == nil)
        #expect(cc.bytes == h("E1 10 6D 0F"))
        #expect(Type2CapabilityContainer(page: h("E1 12 12 00")).unsupportedReason == nil)  // minor ignored
        #expect(Type2CapabilityContainer(page: h("E1 10 00 00")).unsupportedReason?.contains("size") == true)
    }

    @Test func lockControlTLVDecoding() {
        // NTAG213 factory `A0 0C 34`: page 10 × 16 + 0 = byte 160, 12 bits, 8 bytes per bit.
        let ntag213 = TLVLockArea(lockControl: h("A0 0C 34"))
        #expect(ntag213 == TLVLockArea(address: 160, bits: 12, bytesPerBit: 8))
        #expect(ntag213.lockedBytes == [0xFF, 0x0F])
        // nfcpy vector `A0 10 23`: 10 × 8 = byte 80, 16 bits.
        #expect(TLVLockArea(lockControl: h("A0 10 23")).range == 80..<82)
        // 0 bits means 256.
        #expect(TLVLockArea(lockControl: h("00 00 44")).bits == 256)
        // Default area for a 64-byte data area: byte 80, 2 bits; none for 48 bytes.
        #expect(TLVLockArea.type2DefaultArea(dataAreaSize: 64) == TLVLockArea(address: 80, bits: 2, bytesPerBit: 8))
        #expect(TLVLockArea.type2DefaultArea(dataAreaSize: 48) == nil)
        #expect(tlvReservedRange(memoryControl: h("62 02 02")) == 26..<28)
    }

    @Test func addressSpaceFlowsAroundReservedBytes() {
        var space = TLVAddressSpace(dataEnd: 32)
        space.reserved = [20..<24, 26..<27]
        #expect(space.next(19) == 24)
        #expect(space.advance(18, by: 3) == 25)
        #expect(space.addresses(from: 19, count: 5) == [19, 24, 25, 27, 28])
        #expect(space.usableCount(from: 16) == 11)
        #expect(space.advance(30, by: 5) == 32)
    }

    /// `usableCount` is computed from the reserved ranges (docs/PERFORMANCE.md); it must equal the count of the
    /// addresses the walk visits, for overlapping, nested, empty and out-of-area ranges alike.
    @Test func usableCountEqualsTheWalk() {
        var rng = SeededGenerator(seed: 0x7105_C0DE)
        for _ in 0..<2_000 {
            var space = TLVAddressSpace(dataEnd: Int.random(in: 0...80, using: &rng))
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let lower = Int.random(in: 0...90, using: &rng)
                space.reserved.append(lower..<(lower + Int.random(in: 0...12, using: &rng)))
            }
            for start in 0...space.dataEnd + 2 {
                var walked = 0
                var a = space.usable(from: start)
                while a < space.dataEnd {
                    walked += 1
                    a = space.next(a)
                }
                #expect(space.usableCount(from: start) == walked, "\(space) from \(start)")
            }
        }
    }

    @Test func type4CapabilityContainerFields() throws {
        let cc = try Type4CapabilityContainer.parse(h("00 0F 20 00 3B 00 34 04 06 E1 04 10 00 00 FF")).get()
        #expect(cc.mappingVersion == 0x20)
        #expect(cc.maxResponseData == 59 && cc.maxCommandData == 52)
        #expect(cc.fileID == 0xE104 && cc.maxFileSize == 4096)
        #expect(!cc.isWritable)
        #expect(cc.capacity == 4094)
        let big = try Type4CapabilityContainer.parse(h("00 0F 20 00 FF 00 FF 04 06 E1 04 FF FE 00 00")).get()
        #expect(big.capacity == 0x7FFE)  // short offsets reach 0x7FFF
    }

    @Test func type4CommandEncodings() {
        #expect(Type4Command.selectApplication(v2: true) == h("00 A4 04 00 07 D2 76 00 00 85 01 01 00"))
        #expect(Type4Command.selectApplication(v2: false) == h("00 A4 04 00 07 D2 76 00 00 85 01 00"))
        #expect(Type4Command.selectFile(0xE103, v2: true) == h("00 A4 00 0C 02 E1 03"))
        #expect(Type4Command.selectFile(0xE103, v2: false) == h("00 A4 00 00 02 E1 03"))
        #expect(Type4Command.readBinary(offset: 2, length: 256) == h("00 B0 00 02 00"))
        #expect(Type4Command.readBinary(offset: 0x0102, length: 1023) == h("00 B0 01 02 00 03 FF"))
        #expect(Type4Command.updateBinary(offset: 14, data: [0xFF][...]) == h("00 D6 00 0E 01 FF"))
        let big = [UInt8](repeating: 7, count: 300)
        #expect(Type4Command.updateBinary(offset: 2, data: big[...]) == h("00 D6 00 02 00 01 2C") + big)
    }

    @Test func classicAndUnsupportedKindsHaveNoNDEFProcedure() {
        let f = ScriptedFrontend([])
        let classic = IdentifiedTag(target: ntagTarget, kind: .mifareClassic)
        #expect(classic.ndefProcedure(frontend: f) == nil)
        #expect(IdentifiedTag(target: ntagTarget, kind: .unsupported("x")).ndefProcedure(frontend: f) == nil)
        #expect(IdentifiedTag(target: ntagTarget, kind: .type2(.ntag215)).ndefProcedure(frontend: f) is Type2NDEF)
        #expect(IdentifiedTag(target: ntagTarget, kind: .iso7816).ndefProcedure(frontend: f) is Type4NDEF)
    }
}
