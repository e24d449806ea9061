import Foundation
import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCSimulation

/// Flipper `.nfc` files of a MIFARE Ultralight C, and Flipper files with Windows (CRLF) line ends.
///
/// Flipper's format description (flipperzero-firmware documentation/file_formats/NfcFileFormats.md) stores an
/// Ultralight C as `NTAG/Ultralight type: Mifare Ultralight C` with its 48 pages as the card holds them ("the direct
/// representation of the card's internal state"): AUTH0 in page 42 (2Ah), AUTH1 in page 43 (2Bh) and the 3DES key in
/// pages 44–47 (2Ch–2Fh) in the chip's byte order, k7…k0 then k15…k8 (MF0ICU2 §7.5.7 Table 11). Flipper's own unit
/// test resource `Ultralight_C.nfc` has that header with 48 pages and AUTH0 `05` in page 42.
@Suite struct FlipperUltralightCTests {
    static let key: [UInt8] = Array(0x00...0x0F)

    func protectedTag() throws -> Type2Tag {
        let tag = try Type2Tag.factory(
            .ultralightC, uid: [0x04, 0xBA, 0xFF, 0xCA, 0x4D, 0x5D, 0x80],
            holding: [0xD1, 0x01, 0x04, 0x54, 0x02, 0x65, 0x6E, 0x78])
        try tag.setUltralightCKey(Self.key)
        try tag.setUltralightCAccess(auth0: 0x10, protectReads: true)
        return tag
    }

    @Test func keyAndAuthenticationPagesAreExportedAsTheCardHoldsThem() throws {
        let text = try FlipperNFCFile.encode(try protectedTag())
        #expect(text.contains("NTAG/Ultralight type: Mifare Ultralight C\n"))
        #expect(text.contains("Pages total: 48\nPages read: 48\n"))
        #expect(text.contains("Page 42: 10 00 00 00\n"))  // AUTH0 10h
        #expect(text.contains("Page 43: 00 00 00 00\n"))  // AUTH1 bit 0 clear: reads need the key too
        #expect(
            text.contains("Page 44: 07 06 05 04\nPage 45: 03 02 01 00\nPage 46: 0F 0E 0D 0C\nPage 47: 0B 0A 09 08\n"))
    }

    @Test func importGivesTheKeyAndTheAccessBack() throws {
        let tag = try protectedTag()
        let back = try #require(try FlipperNFCFile.decodeAnyChip(try FlipperNFCFile.encode(tag)) as? Type2Tag)
        #expect(back.profile.name == "ultralight-c")
        #expect(back.ultralightCKeyPages == Self.key)
        #expect(back.memory == tag.memory)
        #expect(back.memory[0x2A * 4] == 0x10)
        #expect(back.memory[0x2B * 4] == 0x00)
        // The JSON tag file of the imported tag names the key, as `tag new --key` writes it.
        let json = try TagFile.encodeJSON(back)
        #expect(json.contains("\"key\": \"00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F\""))
        #expect(try TagFile.encodeJSON(try TagFile.decodeJSON(json)) == json)
    }

    /// A dump whose reader could not authenticate: Flipper writes `Pages read` below 48; the missing pages (the key
    /// among them) are zeros, which is also what the chip answers for its key pages (MF0ICU2 §7.5.7).
    @Test func aDumpWithoutTheKeyReadsAsZeros() throws {
        let full = try FlipperNFCFile.encode(try protectedTag())
        let partial =
            full.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !(16...47).contains(where: { line.hasPrefix("Page \($0):") }) }
            .joined(separator: "\n").replacingOccurrences(of: "Pages read: 48", with: "Pages read: 16")
        let back = try #require(try FlipperNFCFile.decodeAnyChip(partial) as? Type2Tag)
        #expect(back.ultralightCKeyPages == [UInt8](repeating: 0, count: 16))
        #expect(Array(back.memory[0..<64]) == Array(try protectedTag().memory[0..<64]))
    }

    /// CRLF files (a dump edited on Windows): Swift reads "\r\n" as one Character, so they are split at any line break.
    @Test(arguments: ["ultralight-c", "ntag215", "mifare-classic-1k", "desfire-ev1", "icode-slix2", "felica-lite-s"])
    func crlfFilesReadAsLFFiles(_ chip: String) throws {
        let tag = try TagFile.factory(chip: chip, uid: uid(for: chip), holding: [0xD1, 0x01, 0x01, 0x54, 0x00])
        let lf = try FlipperNFCFile.encode(tag)
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(crlf.contains("\r\n"))
        let a = try FlipperNFCFile.decodeAnyChip(lf)
        let b = try FlipperNFCFile.decodeAnyChip(crlf)
        #expect(try FlipperNFCFile.encode(b) == lf, "\(chip)")
        #expect(try TagFile.encodeJSON(a) == TagFile.encodeJSON(b))
        // Errors still name the line in a CRLF file.
        let broken = crlf.replacingOccurrences(of: "\r\nUID: ", with: "\r\nUID ")
        #expect(throws: TagFileError.self) { try FlipperNFCFile.decodeAnyChip(broken) }
        do {
            _ = try FlipperNFCFile.decodeAnyChip(broken)
        } catch {
            let line = lf.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("UID: ") }
            #expect(error.line == line.map { $0 + 1 }, "\(chip): \(error)")
        }
    }

    func uid(for chip: String) -> [UInt8] {
        switch chip {
        case "mifare-classic-1k": return [0xC0, 0xFF, 0xEE, 0x42]
        case "icode-slix2": return [0xE0, 0x04, 0x01, 0x08, 0x49, 0xD0, 0xDC, 0x81]
        case "felica-lite-s": return [0x01, 0x2E, 0x4C, 0x95, 0x10, 0x29, 0x3A, 0x1B]
        default: return [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        }
    }
}
