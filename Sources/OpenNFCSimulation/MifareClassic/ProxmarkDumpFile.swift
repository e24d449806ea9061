internal import OpenNFCBytes

/// Proxmark3 dump files of MIFARE Classic, from the layouts the Proxmark3 client's file utilities write (summarised
/// in docs/TAG-FILES.md, "Proxmark3 dumps"):
///
/// | Format | Layout | Import | Export |
/// |---|---|---|---|
/// | `.eml` | text, one 16-byte block a line as 32 hex digits (320 / 1024 / 4096 bytes: 20 / 64 / 256 lines) | ✓ (`??`/`--` bytes read as 00; lines of another length: error naming the line) | ✓ uppercase, `\n` |
/// | `.bin`, `.mfd` | the raw blocks, nothing else: the size gives Mini (320), 1K (1024) or 4K (4096) | ✓ (another size: error naming it) | ✓ |
/// | `.json` `"FileType": "mfcard"` (also `"mfc v2"`, `"mfc v3"`) | `Created`, `FileType`, `Card {UID, ATQA (on-air order, `0400`), SAK}`, `blocks {"0": hex, …}`, `SectorKeys {"N": {KeyA, KeyB, AccessConditions, AccessConditionsText}}` | ✓ (blocks; `SectorKeys` keys replace the trailers' key bytes) | ✓ (`mfcard`; `AccessConditionsText` in this project's words) |
///
/// The keys are in the trailers in every format (bytes 0–5 key A, 10–15 key B), as a dump with keys has them. The
/// model comes from the size (`.eml`, `.bin`) or from the number of blocks and SAK (`.json`); a 7-byte UID (a
/// Classic EV1 with double-size UID) is refused, as the simulator has only 4-byte UIDs.
package enum ProxmarkDumpFile {
    /// The model of a dump of `blocks` blocks (20, 64, 256).
    static func model(blocks: Int) -> MifareClassicModel? {
        MifareClassicModel.allCases.first { $0.blockCount == blocks }
    }

    static func tag(_ memory: [UInt8], model: MifareClassicModel) throws(TagFileError) -> MifareClassicTag {
        guard memory[0..<4].reduce(0, ^) == memory[4] else {
            throw TagFileError(
                "block 0 byte 4 (\(Hex.encode([memory[4]]))) is not the BCC of a 4-byte UID "
                    + "(\(Hex.encode([memory[0..<4].reduce(0, ^)]))); 7-byte UIDs are not simulated",
                field: "block 0")
        }
        do throws(MifareClassicTag.FactoryError) {
            return try MifareClassicTag(model: model, memory: memory)
        } catch {
            throw TagFileError(error.reason)
        }
    }

    static func classic(_ tag: any VirtualTag, _ what: String) throws(TagFileError) -> MifareClassicTag {
        guard let t = tag as? MifareClassicTag else {
            throw TagFileError("only MIFARE Classic chips can be saved as \(what), not '\(tag.chip)'")
        }
        return t
    }

    /// What a Proxmark3 dump (`.eml`, `.bin`, `.mfd`, `.json` mfcard) of `tag` cannot say, one line a sector:
    /// these formats have no "unknown" marker, so a sector no key opened (its trailer all zeros, as `opennfc dump`
    /// saves it: access bytes `00 00 00` fail their inverted-copy check, MF1S50yyX §8.7.1) and an unknown key
    /// (``MifareClassicTag/unknownKeys``) are written as the zeros the Proxmark3 client also writes for what it
    /// could not read (docs/TAG-FILES.md, "Proxmark3 MIFARE Classic dumps"). Empty for another chip.
    package static func exportLosses(_ tag: any VirtualTag) -> [String] {
        guard let t = tag as? MifareClassicTag else { return [] }
        let keep = "keep the .json or Flipper .nfc form"
        var out: [String] = []
        for s in 0..<t.model.sectorCount {
            if t.block(MifareClassicModel.trailerBlock(ofSector: s)).allSatisfy({ $0 == 0 }) {
                out.append(
                    "sector \(s): unreadable (no key opened it); written as zeros "
                        + "(Proxmark dumps cannot mark unread sectors; \(keep))")
                continue
            }
            let a = t.unknownKeys.contains(.init(sector: s, isKeyB: false))
            let b = t.unknownKeys.contains(.init(sector: s, isKeyB: true))
            guard a || b else { continue }
            let which = a && b ? "keys A and B are" : a ? "key A is" : "key B is"
            out.append(
                "sector \(s): \(which) unknown; written as 000000000000 "
                    + "(Proxmark dumps cannot mark unknown keys; \(keep))")
        }
        return out
    }

    // MARK: .bin / .mfd

    /// A raw dump: 320, 1024 or 4096 bytes.
    package static func decodeBinary(_ data: [UInt8]) throws(TagFileError) -> MifareClassicTag {
        guard data.count % 16 == 0, let model = model(blocks: data.count / 16) else {
            throw TagFileError(
                "a raw MIFARE Classic dump has 320 (Mini), 1024 (1K) or 4096 (4K) bytes, not \(data.count)")
        }
        return try tag(data, model: model)
    }

    package static func encodeBinary(_ tag: any VirtualTag) throws(TagFileError) -> [UInt8] {
        try classic(tag, ".bin/.mfd").memory
    }

    // MARK: .eml

    /// One block a line, 32 hex digits; blank lines and a final newline allowed.
    package static func decodeEML(_ text: String) throws(TagFileError) -> MifareClassicTag {
        var memory: [UInt8] = []
        for (n, line) in text.textLines().enumerated() {
            let digits = line.filter { !$0.isWhitespace }
            if digits.isEmpty { continue }
            guard digits.count == 32 else {
                throw TagFileError(
                    "expected one 16-byte block as 32 hex digits, found \(digits.count) characters", line: n + 1)
            }
            let chars = Array(digits)
            for i in stride(from: 0, to: 32, by: 2) {
                let pair = String(chars[i...i + 1])
                if pair == "??" || pair == "--" {
                    memory.append(0)
                } else if let b = UInt8(pair, radix: 16) {
                    memory.append(b)
                } else {
                    throw TagFileError("'\(pair)' (byte \(i / 2)) is not a hex byte", line: n + 1)
                }
            }
        }
        guard let model = model(blocks: memory.count / 16) else {
            throw TagFileError("a MIFARE Classic .eml has 20, 64 or 256 blocks, found \(memory.count / 16)")
        }
        return try tag(memory, model: model)
    }

    package static func encodeEML(_ tag: any VirtualTag) throws(TagFileError) -> String {
        let t = try classic(tag, ".eml")
        return (0..<t.model.blockCount).map { Hex.encode(t.block($0)) + "\n" }.joined()
    }

    // MARK: .json (mfcard)

    static let fileTypes = ["mfcard", "mfc v2", "mfc v3"]

    /// Whether a parsed JSON document is a Proxmark3 MIFARE Classic dump (it has `FileType` `mfcard`/`mfc v2|v3`).
    static func isProxmarkJSON(_ json: JSONValue) -> Bool {
        guard let type = json["FileType"]?.stringValue else { return false }
        return fileTypes.contains(type)
    }

    static func decodeJSON(_ json: JSONValue) throws(TagFileError) -> MifareClassicTag {
        func hex(_ v: JSONValue?, _ field: String, count: Int? = nil) throws(TagFileError) -> [UInt8] {
            guard let text = v?.stringValue else { throw TagFileError("expected a hex string", field: field) }
            return try TagFileFields.hex(text.replacingOccurrences(of: "??", with: "00"), field: field, count: count)
        }
        guard let blocks = json["blocks"]?.objectValue else {
            throw TagFileError("missing, or not an object of blocks", field: "blocks")
        }
        guard let model = model(blocks: blocks.count) else {
            throw TagFileError("a MIFARE Classic dump has 20, 64 or 256 blocks, found \(blocks.count)", field: "blocks")
        }
        var memory = [UInt8](repeating: 0, count: model.blockCount * 16)
        var seen = Set<Int>()
        for (key, value) in blocks {
            guard let n = Int(key), (0..<model.blockCount).contains(n), !seen.contains(n) else {
                throw TagFileError(
                    "block numbers are 0-\(model.blockCount - 1), each once; found \"\(key)\"", field: "blocks")
            }
            seen.insert(n)
            memory.replaceSubrange(n * 16..<n * 16 + 16, with: try hex(value, "blocks.\(key)", count: 16))
        }
        if let card = json["Card"] {
            let uid = try hex(card["UID"], "Card.UID")
            guard uid.count == 4 else {
                throw TagFileError("a \(uid.count)-byte UID; only 4-byte UIDs are simulated", field: "Card.UID")
            }
            guard Array(memory[0..<4]) == uid else {
                throw TagFileError(
                    "block 0 holds UID \(Hex.encode(memory[0..<4])), not \(Hex.encode(uid))", field: "Card.UID")
            }
        }
        if let keys = json["SectorKeys"]?.objectValue {
            for (key, value) in keys {
                guard let s = Int(key), (0..<model.sectorCount).contains(s) else {
                    throw TagFileError("sectors are 0-\(model.sectorCount - 1), found \"\(key)\"", field: "SectorKeys")
                }
                let t = MifareClassicModel.trailerBlock(ofSector: s) * 16
                if value["KeyA"] != nil {
                    memory.replaceSubrange(t..<t + 6, with: try hex(value["KeyA"], "SectorKeys.\(key).KeyA", count: 6))
                }
                if value["KeyB"] != nil {
                    memory.replaceSubrange(
                        t + 10..<t + 16, with: try hex(value["KeyB"], "SectorKeys.\(key).KeyB", count: 6))
                }
            }
        }
        return try tag(memory, model: model)
    }

    package static func encodeJSON(_ tag: any VirtualTag) throws(TagFileError) -> String {
        let t = try classic(tag, "Proxmark3 JSON")
        let block0 = t.block(0)
        let card: JSONValue = .object([
            ("UID", .string(Hex.encode(t.uid))),
            // On-air order: the least significant byte first (0004 travels as 04 00).
            ("ATQA", .string(Hex.encode([UInt8(t.model.atqa & 0xFF), UInt8(t.model.atqa >> 8)]))),
            ("SAK", .string(Hex.encode([block0[5]]))),
        ])
        let blocks = (0..<t.model.blockCount).map { (String($0), JSONValue.string(Hex.encode(t.block($0)))) }
        let keys = (0..<t.model.sectorCount).map { s -> (String, JSONValue) in
            let b = t.block(MifareClassicModel.trailerBlock(ofSector: s))
            return (
                String(s),
                .object([
                    ("KeyA", .string(Hex.encode(b[0..<6]))), ("KeyB", .string(Hex.encode(b[10..<16]))),
                    ("AccessConditions", .string(Hex.encode(b[6..<10]))),
                    ("AccessConditionsText", accessText(b, sector: s)),
                ])
            )
        }
        return JSONValue.object([
            ("Created", .string("opennfc")), ("FileType", .string("mfcard")), ("Card", card),
            ("blocks", .object(blocks)), ("SectorKeys", .object(keys)),
        ]).pretty + "\n"
    }

    /// The access conditions of a trailer in words (MF1S50yyX Tables 7 and 8), per block of a small sector or per
    /// group of five blocks of a 4K's big sector, and the general purpose byte.
    static func accessText(_ trailer: [UInt8], sector: Int) -> JSONValue {
        func keys(_ k: MifareClassicAccessRules.Keys) -> String {
            k == .both ? "AB" : k == .a ? "A" : k == .b ? "B" : "never"
        }
        guard let c = MifareClassicAccessRules.conditions(trailer[0..<16]) else {
            return .object([("error", .string("inconsistent access bits: sector blocked or not read"))])
        }
        var members: [(String, JSONValue)] = []
        let names = sector < 32 ? ["block0", "block1", "block2"] : ["blocks0-4", "blocks5-9", "blocks10-14"]
        for g in 0..<3 {
            let d = MifareClassicAccessRules.data[Int(c[g])]
            members.append(
                (
                    names[g],
                    .string(
                        "read \(keys(d.read)); write \(keys(d.write)); increment \(keys(d.increment)); "
                            + "decrement, transfer, restore \(keys(d.decrement))")
                ))
        }
        let r = MifareClassicAccessRules.trailer[Int(c[3])]
        members.append(
            (
                sector < 32 ? "block3" : "block15",
                .string(
                    "write key A \(keys(r.keyAWrite)); read access bits \(keys(r.accessRead)); write access bits "
                        + "\(keys(r.accessWrite)); read key B \(keys(r.keyBRead)); write key B \(keys(r.keyBWrite))")
            ))
        members.append(("UserData", .string(Hex.encode([trailer[9]]))))
        return .object(members)
    }
}
