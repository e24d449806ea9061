import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Flipper `.nfc` files of ISO 15693 tags (device types `ISO15693-3` and `SLIX`): import, export, errors by line.
@Suite struct FlipperISO15693Tests {
    /// A SLIX2 as Flipper saves it. UID, DSFID 01, AFI 3D, 80 blocks and IC reference 01 are those of the tag in
    /// flipperzero-firmware issue 2781's trace; the block contents are made up (an empty NDEF TLV).
    static func slix2File(_ extra: String = "", blocks: Int = 80) -> String {
        let data = (["E1 40 4F 01", "03 00 FE 00"] + Array(repeating: "00 00 00 00", count: blocks - 2))
            .joined(separator: " ")
        let status = (["01", "00"] + Array(repeating: "00", count: blocks - 2)).joined(separator: " ")
        return """
            Filetype: Flipper NFC device
            Version: 4
            Device type: SLIX
            UID: E0 04 01 08 2F 81 D8 FC
            DSFID: 01
            AFI: 3D
            IC Reference: 01
            Lock DSFID: false
            Lock AFI: true
            Block Count: \(blocks)
            Block Size: 04
            Data Content: \(data)
            Security Status: \(status)
            Password Privacy: 0F 0F 0F 0F
            Signature: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
            Privacy Mode: false
            Protection Pointer: 00
            Protection Condition: 00
            Lock EAS: false
            Lock PPL: false
            \(extra)
            """
    }

    @Test func importsASLIX2() throws {
        let tag = try #require(try FlipperNFCFile.decodeAnyChip(Self.slix2File()) as? ISO15693Tag)
        #expect(tag.chip == "icode-slix2")
        #expect(tag.uid == h("E00401082F81D8FC"))
        #expect(tag.dsfid == 0x01 && tag.afi == 0x3D && tag.afiLocked && !tag.dsfidLocked)
        #expect(tag.lockedBlocks == [0])
        #expect(Array(tag.memory.prefix(8)) == h("E1404F010300FE00"))
        #expect(tag.ndefMessage == [])
        // Export writes the same keys back; re-import gives the same tag.
        let text = try FlipperNFCFile.encode(tag)
        #expect(text.contains("Device type: SLIX\n"))
        #expect(text.contains("Block Count: 80\n"))
        let again = try #require(try FlipperNFCFile.decodeAnyChip(text) as? ISO15693Tag)
        #expect(again.memory == tag.memory && again.lockedBlocks == tag.lockedBlocks && again.afi == tag.afi)
    }

    @Test func errorsNameTheLine() throws {
        #expect {
            _ = try FlipperNFCFile.decodeAnyChip(Self.slix2File(blocks: 81))
        } throws: { e in
            guard let e = e as? TagFileError else { return false }
            return e.line == 10 && e.field == "Block Count" && e.description.contains("no simulated ISO 15693 chip")
        }
        let privacy = Self.slix2File().replacingOccurrences(of: "Privacy Mode: false", with: "Privacy Mode: true")
        #expect {
            _ = try FlipperNFCFile.decodeAnyChip(privacy)
        } throws: { e in (e as? TagFileError)?.line == 16 && (e as? TagFileError)?.field == "Privacy Mode" }
        let short = Self.slix2File().replacingOccurrences(of: "Data Content: E1 40 4F 01 ", with: "Data Content: ")
        #expect {
            _ = try FlipperNFCFile.decodeAnyChip(short)
        } throws: { e in (e as? TagFileError)?.field == "Data Content" }
        let v3 = Self.slix2File().replacingOccurrences(of: "Version: 4", with: "Version: 3")
        #expect(throws: TagFileError.self) { try FlipperNFCFile.decodeAnyChip(v3) }
    }

    @Test func st25dv64kCannotBeExported() throws {
        let tag = try ISO15693Tag.factory(.st25dv64k, uid: h("E002260012345678"))
        #expect {
            _ = try FlipperNFCFile.encode(tag)
        } throws: { e in (e as? TagFileError)?.description.contains("at most 256") == true }
    }
}
