import Foundation
import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCSimulation

/// MIFARE Classic in Flipper `.nfc` and Proxmark3 `.eml`, `.bin`/`.mfd` and `.json` (mfcard) files: lossless round
/// trips through `TagFile`, the `??` convention, and errors that name the line, block or size.
@Suite struct MifareClassicDumpFileTests {
    /// A 1K with an NFC Forum message, a value block and a sector with its own keys.
    func card(_ model: MifareClassicModel = .classic1K) throws -> MifareClassicTag {
        let tag = try MifareClassicTag(model: model, uid: [0xC0, 0xFF, 0xEE, 0x01])
        try tag.formatForNDEF(holding: [0xD1, 0x01, 0x04, 0x54, 0x02, 0x65, 0x6E, 0x78])
        try tag.setBlock(2 * 4 + 1, MifareClassicTag.valueBlock(1234, address: 9))
        try tag.setBlock(
            MifareClassicModel.trailerBlock(ofSector: 3),
            h("112233445566") + [0x7F, 0x07, 0x88, 0x40] + h("665544332211"))
        return tag
    }

    func roundTrip(_ tag: MifareClassicTag, _ name: String) throws -> MifareClassicTag {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mfc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(name).path
        try TagFile.write(tag, path: path)
        return try #require(try TagFile.read(path: path) as? MifareClassicTag)
    }

    @Test(arguments: ["c.eml", "c.bin", "c.mfd", "c.nfc"])
    func everyFormatRoundTripsEveryModel(_ name: String) throws {
        for model in MifareClassicModel.allCases {
            let tag = try card(model)
            let back = try roundTrip(tag, name)
            #expect(back.model == model)
            #expect(back.memory == tag.memory, "\(name) \(model)")
            #expect(back.key(0x60, sector: 3) == h("112233445566"))
        }
    }

    /// A key a dump did not learn is `??` in JSON and Flipper files (a whole key, in a trailer, nowhere else).
    @Test func unknownKeysAreQuestionMarksInJSONAndFlipperFiles() throws {
        let tag = try card()
        tag.unknownKeys = [.init(sector: 3, isKeyB: true)]
        let json = try TagFile.encodeJSON(tag)
        #expect(json.contains("\"11 22 33 44 55 66 7F 07 88 40 ?? ?? ?? ?? ?? ??\""))
        let back = try #require(try TagFile.decodeJSON(json) as? MifareClassicTag)
        #expect(back.unknownKeys == tag.unknownKeys)
        #expect(back.key(0x61, sector: 3) == [0, 0, 0, 0, 0, 0])
        #expect(try TagFile.encodeJSON(back) == json)
        let nfc = try FlipperNFCFile.encode(tag)
        #expect(nfc.contains("Block 15: 11 22 33 44 55 66 7F 07 88 40 ?? ?? ?? ?? ?? ??\n"))
        let fromNFC = try #require(try FlipperNFCFile.decodeAnyChip(nfc) as? MifareClassicTag)
        #expect(fromNFC.unknownKeys == tag.unknownKeys)
        #expect(try FlipperNFCFile.encode(fromNFC) == nfc)
        // A trailer write that may change the key makes it known again.
        try back.setBlock(15, MifareClassicTag.transportTrailer)
        #expect(back.unknownKeys.isEmpty)
        let b4 = Hex.encode(tag.block(4), separator: " ")
        for (bad, message) in [
            (
                json.replacingOccurrences(of: "\"\(b4)\"", with: "\"?? \(b4.dropFirst(3))\""),
                "only the keys of a sector trailer may be unknown (??); block 4 is data"
            ),
            (
                json.replacingOccurrences(of: "7F 07 88 40 ??", with: "7F ?? 88 40 ??"),
                "byte 7 is an access or GPB byte"
            ),
            (
                json.replacingOccurrences(of: "40 ?? ?? ?? ?? ?? ??", with: "40 66 ?? ?? ?? ?? ??"),
                "key B is partly unknown"
            ),
        ] {
            #expect(bad != json)
            do {
                _ = try TagFile.decodeJSON(bad)
                Issue.record("accepted: \(message)")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
                #expect("\(error)".contains("blocks"), "\(error)")
            }
        }
    }

    @Test func emlIsOneBlockALineAndBinIsTheRawMemory() throws {
        let tag = try card()
        let eml = try ProxmarkDumpFile.encodeEML(tag)
        let lines = eml.split(separator: "\n")
        #expect(lines.count == 64)
        #expect(lines[0] == "C0FFEE01D00804006263646566676869")
        #expect(lines[15] == "112233445566" + "7F078840" + "665544332211")
        #expect(try ProxmarkDumpFile.encodeBinary(tag) == tag.memory)
        #expect(try ProxmarkDumpFile.encodeBinary(tag).count == 1024)
        // Lower case, CRLF, blank lines and unknown bytes (?? or --) are read.
        let loose = eml.lowercased().replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"
        #expect(try ProxmarkDumpFile.decodeEML(loose).memory == tag.memory)
        let unknown = eml.replacingOccurrences(of: "112233445566", with: "????????????")
        #expect(try ProxmarkDumpFile.decodeEML(unknown).key(0x60, sector: 3) == [0, 0, 0, 0, 0, 0])
    }

    @Test func badProxmarkFilesSayWhere() throws {
        let eml = try ProxmarkDumpFile.encodeEML(try card())
        var lines = eml.split(separator: "\n").map(String.init)
        lines[6] = String(lines[6].dropLast(2))
        #expect(throws: TagFileError("expected one 16-byte block as 32 hex digits, found 30 characters", line: 7)) {
            try ProxmarkDumpFile.decodeEML(lines.joined(separator: "\n"))
        }
        lines[6] = "ZZ" + String(repeating: "0", count: 30)
        #expect(throws: TagFileError("'ZZ' (byte 0) is not a hex byte", line: 7)) {
            try ProxmarkDumpFile.decodeEML(lines.joined(separator: "\n"))
        }
        #expect(throws: TagFileError("a MIFARE Classic .eml has 20, 64 or 256 blocks, found 63")) {
            try ProxmarkDumpFile.decodeEML(
                lines.dropLast().joined(separator: "\n").replacingOccurrences(of: "ZZ", with: "00"))
        }
        #expect(
            throws: TagFileError("a raw MIFARE Classic dump has 320 (Mini), 1024 (1K) or 4096 (4K) bytes, not 1000")
        ) { try ProxmarkDumpFile.decodeBinary([UInt8](repeating: 0, count: 1000)) }
        var memory = try card().memory
        memory[4] ^= 0xFF
        #expect(throws: TagFileError.self) { try ProxmarkDumpFile.decodeBinary(memory) }
        #expect(throws: TagFileError("only MIFARE Classic chips can be saved as .eml, not 'ntag215'")) {
            try ProxmarkDumpFile.encodeEML(try Type2Tag.factory(.ntag215, uid: [4, 1, 2, 3, 4, 5, 6]))
        }
    }

    @Test func proxmarkJSONCarriesCardBlocksAndSectorKeys() throws {
        let tag = try card()
        let text = try ProxmarkDumpFile.encodeJSON(tag)
        let json = try JSONValue(parsing: text)
        #expect(json["FileType"]?.stringValue == "mfcard")
        #expect(json["Card"]?["UID"]?.stringValue == "C0FFEE01")
        #expect(json["Card"]?["ATQA"]?.stringValue == "0400")
        #expect(json["Card"]?["SAK"]?.stringValue == "08")
        #expect(json["blocks"]?.objectValue?.count == 64)
        #expect(json["blocks"]?["15"]?.stringValue == "1122334455667F078840665544332211")
        let s3 = try #require(json["SectorKeys"]?["3"])
        #expect(s3["KeyA"]?.stringValue == "112233445566")
        #expect(s3["KeyB"]?.stringValue == "665544332211")
        #expect(s3["AccessConditions"]?.stringValue == "7F078840")
        #expect(
            s3["AccessConditionsText"]?["block3"]?.stringValue
                == "write key A B; read access bits AB; write access bits B; read key B never; write key B B")
        #expect(ProxmarkDumpFile.isProxmarkJSON(json))
        #expect(try ProxmarkDumpFile.decodeJSON(json).memory == tag.memory)
        // Through TagFile.read: a .json with FileType mfcard is a Proxmark3 dump, not an opennfc tag file.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mfc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("hf-mf-C0FFEE01-dump.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect((try TagFile.read(path: path) as? MifareClassicTag)?.memory == tag.memory)
    }

    /// A file as the Proxmark3 client writes it after a dump (the keys it found in `SectorKeys`, key A zero in the
    /// trailer blocks as the card reads back): the SectorKeys keys go into the trailers.
    @Test func proxmarkJSONSectorKeysFillTheTrailers() throws {
        let tag = try MifareClassicTag(model: .mini, uid: [0x01, 0x02, 0x03, 0x04])
        var blocks: [(String, JSONValue)] = []
        for b in 0..<20 {
            var data = tag.block(b)
            if MifareClassicModel.isTrailer(b) { data.replaceSubrange(0..<6, with: [0, 0, 0, 0, 0, 0]) }
            blocks.append((String(b), .string(Hex.encode(data))))
        }
        let keys = (0..<5).map { s in
            (String(s), JSONValue.object([("KeyA", .string("A0A1A2A3A4A\(s)")), ("KeyB", .string("FFFFFFFFFFFF"))]))
        }
        let json = JSONValue.object([
            ("Created", .string("proxmark3")), ("FileType", .string("mfc v2")),
            ("Card", .object([("UID", .string("01020304")), ("ATQA", .string("0400")), ("SAK", .string("09"))])),
            ("blocks", .object(blocks)), ("SectorKeys", .object(keys)),
        ])
        let back = try ProxmarkDumpFile.decodeJSON(json)
        #expect(back.model == .mini)
        #expect(back.key(0x60, sector: 4) == h("A0A1A2A3A4A4"))
        let wrongUID = JSONValue.object([
            ("FileType", .string("mfcard")), ("Card", .object([("UID", .string("0A0B0C0D"))])),
            ("blocks", .object(blocks)),
        ])
        #expect(throws: TagFileError("block 0 holds UID 01020304, not 0A0B0C0D", field: "Card.UID")) {
            try ProxmarkDumpFile.decodeJSON(wrongUID)
        }
        let short = JSONValue.object([("FileType", .string("mfcard")), ("blocks", .object(Array(blocks.prefix(19))))])
        #expect(throws: TagFileError("a MIFARE Classic dump has 20, 64 or 256 blocks, found 19", field: "blocks")) {
            try ProxmarkDumpFile.decodeJSON(short)
        }
    }

    @Test func flipperFileHasTheDocumentedHeaderAndQuestionMarksForUnreadSectors() throws {
        let tag = try card()
        // A sector a dump could not read is saved all zeros (see Dump+MifareClassic): exported as ??.
        for b in 16..<20 { try tag.setBlock(b, [UInt8](repeating: 0, count: 16)) }
        let text = try FlipperNFCFile.encode(tag)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("Device type: Mifare Classic"))
        #expect(lines.contains("UID: C0 FF EE 01"))
        #expect(lines.contains("ATQA: 00 04"))
        #expect(lines.contains("SAK: 08"))
        #expect(lines.contains("Mifare Classic type: 1K"))
        #expect(lines.contains("Data format version: 2"))
        #expect(lines.contains("Block 15: 11 22 33 44 55 66 7F 07 88 40 66 55 44 33 22 11"))
        #expect(lines.contains("Block 17: " + Array(repeating: "??", count: 16).joined(separator: " ")))
        let back = try FlipperNFCFile.decodeAnyChip(text)
        #expect((back as? MifareClassicTag)?.memory == tag.memory)
        // Errors name the line.
        let bad = text.replacingOccurrences(of: "Block 5: ", with: "Block 5: 00 ")
        #expect(
            throws: TagFileError(
                "expected 16 bytes, found 17", field: "Block 5",
                line: lines.firstIndex { $0.hasPrefix("Block 5:") }! + 1)
        ) {
            try FlipperNFCFile.decodeAnyChip(bad)
        }
        let type = text.replacingOccurrences(of: "Mifare Classic type: 1K", with: "Mifare Classic type: 2K")
        #expect(throws: TagFileError.self) { try FlipperNFCFile.decodeAnyChip(type) }
        let missing = lines.filter { !$0.hasPrefix("Block 63:") }.joined(separator: "\n")
        #expect(throws: TagFileError("missing", field: "Block 63")) { try FlipperNFCFile.decodeAnyChip(missing) }
    }
}
