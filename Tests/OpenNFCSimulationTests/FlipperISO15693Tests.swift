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
        let accept = Self.slix2File("Capabilities: AcceptAllPasswords")
        #expect {
            _ = try FlipperNFCFile.decodeAnyChip(accept)
        } throws: { e in (e as? TagFileError)?.line == 21 && (e as? TagFileError)?.field == "Capabilities" }
        // The SLIX (28 blocks) has no privacy mode: only false loads.
        let slix = Self.slix2File(blocks: 28).replacingOccurrences(
            of: "Privacy Mode: false", with: "Privacy Mode: true")
        #expect {
            _ = try FlipperNFCFile.decodeAnyChip(slix)
        } throws: { e in (e as? TagFileError)?.line == 16 && (e as? TagFileError)?.field == "Privacy Mode" }
        let pointer = Self.slix2File().replacingOccurrences(
            of: "Protection Pointer: 00", with: "Protection Pointer: 4F")
        #expect {
            _ = try FlipperNFCFile.decodeAnyChip(pointer)
        } throws: { e in (e as? TagFileError)?.field == "Protection Pointer" }
        let short = Self.slix2File().replacingOccurrences(of: "Data Content: E1 40 4F 01 ", with: "Data Content: ")
        #expect {
            _ = try FlipperNFCFile.decodeAnyChip(short)
        } throws: { e in (e as? TagFileError)?.field == "Data Content" }
        let v3 = Self.slix2File().replacingOccurrences(of: "Version: 4", with: "Version: 3")
        #expect(throws: TagFileError.self) { try FlipperNFCFile.decodeAnyChip(v3) }
    }

    @Test func slixPasswordsPrivacyProtectionAndSignatureTravelBothWays() throws {
        let signature = (0..<32).map { String(format: "%02X", $0) }.joined(separator: " ")
        let text = Self.slix2File()
            .replacingOccurrences(
                of: "Password Privacy: 0F 0F 0F 0F", with: "Password Privacy: 78 56 34 12\nPassword Read: 01 00 00 00"
            )
            .replacingOccurrences(
                of: "Signature: " + Array(repeating: "00", count: 32).joined(separator: " "),
                with: "Signature: \(signature)"
            )
            .replacingOccurrences(of: "Privacy Mode: false", with: "Privacy Mode: true")
            .replacingOccurrences(of: "Protection Pointer: 00", with: "Protection Pointer: 10")
            .replacingOccurrences(of: "Protection Condition: 00", with: "Protection Condition: 11")
            .replacingOccurrences(of: "Lock EAS: false", with: "Lock EAS: true")
        let tag = try #require(try FlipperNFCFile.decodeAnyChip(text + "Capabilities: Default\n") as? ISO15693Tag)
        // Flipper saves the 32-bit password least significant byte first; the chip keeps it as printed.
        #expect(tag.nxp.passwords[0x04] == h("12 34 56 78") && tag.nxp.passwords[0x01] == h("00 00 00 01"))
        #expect(tag.nxp.passwords[0x08] == h("0F 0F 0F 0F"))  // absent: the factory value
        #expect(tag.nxp.signature == (0..<32).map { UInt8($0) })
        #expect(tag.nxp.privacy && tag.nxp.easLocked && !tag.nxp.protectionLocked)
        #expect(tag.nxp.protectionPointer == 0x10 && tag.nxp.protectionCondition == 0x11)
        // The imported chip behaves so: privacy hides it from inventory.
        #expect(tag.receive(h("26 01 00"), tearAfter: nil) == .silence)
        let out = try FlipperNFCFile.encode(tag)
        #expect(out.contains("Password Privacy: 78 56 34 12\n") && out.contains("Password Read: 01 00 00 00\n"))
        #expect(out.contains("Signature: \(signature)\n") && out.contains("Privacy Mode: true\n"))
        #expect(
            out.contains("Protection Pointer: 10\nProtection Condition: 11\n")
                || out.contains("Protection Condition: 11"))
        let again = try #require(try FlipperNFCFile.decodeAnyChip(out) as? ISO15693Tag)
        #expect(again.nxp == tag.nxp)
        // The SLIX exports only its EAS password.
        let slix = try ISO15693Tag.factory(.icodeSLIX, uid: h("E004015012345678"))
        let slixText = try FlipperNFCFile.encode(slix)
        #expect(slixText.contains("Password EAS: 00 00 00 00\n") && !slixText.contains("Password Read"))
        #expect(!slixText.contains("Signature"))
    }

    @Test func st25dv64kCannotBeExported() throws {
        let tag = try ISO15693Tag.factory(.st25dv64k, uid: h("E002260012345678"))
        #expect {
            _ = try FlipperNFCFile.encode(tag)
        } throws: { e in (e as? TagFileError)?.description.contains("at most 256") == true }
    }
}
