import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Reader-side pieces of MIFARE Classic that need no card: access bits (NXP MF1S50yyX §8.7), the MAD (NXP AN10787)
/// and key files.
@Suite struct MifareClassicReaderTests {
    @Test func accessBitsOfTheWellKnownTrailers() throws {
        // Byte images as published in MF1S50yyX §8.7.1 (transport FF 07 80) and NXP AN1305 §6.1 (7F 07 88, 07 8F 0F,
        // MAD 78 77 88).
        #expect(MifareClassicAccessBits.transport.bytes == h("FF0780"))
        #expect(MifareClassicAccessBits.ndefReadWrite.bytes == h("7F0788"))
        #expect(MifareClassicAccessBits.ndefReadOnly.bytes == h("078F0F"))
        #expect(MifareClassicAccessBits.mad.bytes == h("787788"))
        for c in 0..<8 {
            let bits = try MifareClassicAccessBits(conditions: [UInt8(c), UInt8(7 - c), UInt8(c), UInt8(c)])
            #expect(try MifareClassicAccessBits(bytes: bits.bytes) == bits)
        }
        let t = try MifareClassicAccessBits(bytes: h("FF0780"))
        #expect(t.conditions == [0, 0, 0, 1])
        #expect(t.keyBIsReadable)
        #expect(!t.isFrozen)
        #expect(MifareClassicAccessBits.ndefReadOnly.isFrozen)
        #expect(MifareClassicAccessBits.ndefReadWrite.data(0).write == .either)
        #expect(MifareClassicAccessBits.mad.data(1).write == .keyB)
    }

    @Test func inconsistentAccessBitsNameTheByte() {
        do {
            _ = try MifareClassicAccessBits(bytes: h("FF0788"))
            Issue.record("accepted")
        } catch {
            #expect(error.reason.contains("byte 6 bits 7-4"))
        }
    }

    @Test func madCRCMatchesThePublishedTemplates() throws {
        // AN10787 CRC-8 over an NFC-only MAD1 gives 14h, over an NFC-only MAD2 E8h (the templates of NXP's NFC
        // Forum MIFARE Classic formatting, as Android's rw_mfc uses them).
        let mad = MifareApplicationDirectory.allSectors(MifareApplicationDirectory.ndefAID, model: .classic4K)
        #expect(Array(mad.mad1Blocks[0].prefix(4)) == h("1401 03E1"))
        #expect(Array(mad.mad2Blocks[0].prefix(4)) == h("E801 03E1"))
        let back = try MifareApplicationDirectory.decode(
            mad1: mad.mad1Blocks.flatMap { $0 }, mad2: mad.mad2Blocks.flatMap { $0 }, sectorCount: 40)
        #expect(back.sectors(for: MifareApplicationDirectory.ndefAID) == Array(1..<16) + Array(17..<40))
        var broken = mad.mad1Blocks.flatMap { $0 }
        broken[5] ^= 1
        #expect(throws: TagError.self) { try MifareApplicationDirectory.decode(mad1: broken, sectorCount: 16) }
    }

    @Test func keyFilesParseAndNameTheBadLine() throws {
        let d = try MifareClassicKeyDictionary.parse(
            "# site keys\nA0A1A2A3A4A5\n\nB0:B1:B2:B3:B4:B5  # reader key\nffffffffffff\nA0A1A2A3A4A5\n", name: "k.txt")
        #expect(d.keys == [h("A0A1A2A3A4A5"), h("B0B1B2B3B4B5"), h("FFFFFFFFFFFF")])
        #expect(
            MifareClassicKeyDictionary.wellKnown.keys.prefix(3) == [
                h("FFFFFFFFFFFF"), h("A0A1A2A3A4A5"), h("D3F7D3F7D3F7"),
            ])
        do {
            _ = try MifareClassicKeyDictionary.parse("FFFFFFFFFFFF\nnot a key\n", name: "k.txt")
            Issue.record("accepted")
        } catch {
            #expect(error.reason.hasPrefix("k.txt:2:"))
        }
    }

    @Test func valueBlocksDecodeAndNameTheBrokenByte() throws {
        let b = MifareClassicCard.valueBlock(-2, address: 9)
        #expect(b == h("FEFFFFFF 01000000 FEFFFFFF 09F609F6"))
        #expect(try MifareClassicCard.decodeValue(b, block: 9) == (-2, 9))
        var broken = b
        broken[6] = 0x55
        do {
            _ = try MifareClassicCard.decodeValue(broken, block: 9)
            Issue.record("accepted")
        } catch {
            #expect(error.reason.contains("byte 6"))
        }
    }
}
