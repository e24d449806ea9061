import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for MIFARE Classic: every sector a key of `--keys FILE` or the built-in
/// dictionary opens, the keys found written into the trailers (a chip never reads key A back).
///
/// A sector no key opened is saved as zeros, trailer included: access bytes `00 00 00` fail their inverted-copy
/// check (MF1S50yyX §8.7.1), which no readable card has, so the file marks the sector as unread; Flipper `.nfc`
/// export writes it as `??` and `restore` skips it (docs/TAG-FILES.md). A key the dump did not learn (a sector
/// opened with the other key, key B not readable) is saved as unknown (`??`), not as the zeros the card answered, and
/// `restore` keeps the card's own key there.
enum MifareClassicDumpCommand {
    /// The family's entry in ``DumpFamily/all``.
    static let family = DumpFamily(
        section: "mifareClassic", takesPassword: false,
        dumps: { if case .mifareClassic = $0.identified.kind { true } else { false } },
        dump: dump,
        restore: { source, path, inv, _ in
            guard let s = source as? MifareClassicTag else { throw DumpFamily.notOfSection(path) }
            return try restore(s, path: path, inv)
        },
        info: { tag in
            let model = MifareClassicCard(target: tag.target, frontend: tag.frontend).model
            return .init(
                chip: "\(tag.chip) (\(model))",
                memory: ("\(model.sectorCount) sectors, \(model.blockCount) blocks of 16 bytes", model.blockCount * 16))
        },
        infoFacts: infoFacts)

    static func dictionary(_ path: String?) throws -> MifareClassicKeyDictionary {
        try Commands.classicDictionary(path) ?? .wellKnown
    }

    static func simulationModel(_ m: MifareClassicCard.Model) -> MifareClassicModel {
        switch m {
        case .mini: return .mini
        case .classic1K: return .classic1K
        case .classic4K: return .classic4K
        }
    }

    static func readerModel(_ m: MifareClassicModel) -> MifareClassicCard.Model {
        switch m {
        case .mini: return .mini
        case .classic1K: return .classic1K
        case .classic4K: return .classic4K
        }
    }

    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        let keys = try dictionary(request.keys)
        let card = MifareClassicCard(target: tag.target, frontend: tag.frontend)
        let dump = try classicStep("read the card") { () throws(TagError) in try card.dump(keys: keys) }
        try session.release()
        let model = card.model
        let unread = (0..<model.sectorCount).filter { s in
            let first = MifareClassicCard.firstBlock(ofSector: s)
            return (first..<first + MifareClassicCard.blockCount(inSector: s)).contains { dump.blocks[$0] == nil }
        }
        let note =
            unread.isEmpty
            ? ""
            : "Sectors not read (no key of the dictionary opens them; give theirs with --keys FILE): "
                + unread.map(String.init).joined(separator: ", ") + "\n"
        if request.output == nil && !request.json {
            var s =
                "Tag:      MIFARE Classic \(model.rawValue.uppercased()), UID \(tag.uid), \(model.blockCount) blocks\n"
            for sector in 0..<model.sectorCount {
                let a = dump.keysA[sector].map { Hex.encode($0) } ?? "?"
                let b = dump.keysB[sector].map { Hex.encode($0) } ?? "?"
                s += "Sector \(sector): key A \(a), key B \(b)\n"
            }
            s += MifareClassicMemoryMap.map(
                blocks: dump.blocks, uidLength: tag.target.identifier.count == 7 ? 7 : 4,
                keys: .crypto1(unknown: { s, isKeyB in (isKeyB ? dump.keysB : dump.keysA)[s] == nil })
            ).text()
            Console.out(s + note)
            return 0
        }
        var memory: [UInt8] = []
        for b in 0..<model.blockCount {
            let s = MifareClassicCard.sector(ofBlock: b)
            memory += unread.contains(s) ? [UInt8](repeating: 0, count: 16) : dump.blocks[b]!
        }
        if unread.contains(0) {
            // Block 0 from the activation: UID, BCC, SAK, ATQA (ISO/IEC 14443-3; manufacturer bytes unknown, zero).
            let uid = Array(tag.target.identifier.suffix(4))
            let atqa = tag.target.sensRes ?? 0x0004
            let block0 =
                uid + [uid.reduce(0, ^), tag.target.selRes ?? 0x08, UInt8(atqa & 0xFF), UInt8(atqa >> 8)]
                + [UInt8](repeating: 0, count: 8)
            memory.replaceSubrange(0..<16, with: block0)
        }
        let virtual: MifareClassicTag
        do {
            virtual = try MifareClassicTag(model: simulationModel(model), memory: memory)
            for s in 0..<model.sectorCount {
                if dump.keysA[s] == nil { virtual.unknownKeys.insert(.init(sector: s, isKeyB: false)) }
                if dump.keysB[s] == nil { virtual.unknownKeys.insert(.init(sector: s, isKeyB: true)) }
            }
        } catch {
            throw CLIError.failure("\(error)")
        }
        try DumpRequest.save(virtual, to: request.output) { output in
            "Saved \(virtual.chip) \(tag.uid) (\(model.blockCount) blocks, keys in the trailers) to \(output).\n"
                + note
        }
        if request.output == nil && !note.isEmpty { Console.err(note) }
        return 0
    }

    /// Whether a saved sector was read: its access bytes pass the inverted-copy check.
    static func wasRead(_ source: MifareClassicTag, sector: Int) -> Bool {
        let t = source.block(MifareClassicModel.trailerBlock(ofSector: sector))
        return (try? MifareClassicAccessBits(bytes: Array(t[6..<9]))) != nil
    }

    /// `restore` of a MIFARE Classic tag file: data blocks and trailers (with the file's keys) onto the card in the
    /// field, opened with the file's keys, then `--keys FILE`, then the built-in ones; with `--block0`, block 0
    /// too (through the gen1a backdoor or a gen2/CUID WRITE). Unread sectors of a partial dump are skipped.
    static func restore(_ source: MifareClassicTag, path: String, _ inv: Invocation) throws -> Int32 {
        let keys = try dictionary(inv.value("keys"))
        let block0 = inv.flag("block0")
        return try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            guard case .mifareClassic = tag.identified.kind else {
                throw CLIError.failure(
                    "'\(path)' is a dump of \(source.chip), but the tag in the field is \(tag.chip) (UID \(tag.uid))")
            }
            let card = MifareClassicCard(target: tag.target, frontend: tag.frontend)
            guard card.model == readerModel(source.model) else {
                throw CLIError.failure(
                    "'\(path)' is a \(source.chip); the card in the field is a MIFARE Classic \(card.model.rawValue)")
            }
            let model = source.model
            let read = (0..<model.sectorCount).map { wasRead(source, sector: $0) }
            let dump = MifareClassicDump(
                model: card.model, uid: source.uid,
                blocks: (0..<model.blockCount).map {
                    read[MifareClassicModel.sector(ofBlock: $0)] ? source.block($0) : nil
                },
                keysA: (0..<model.sectorCount).map {
                    read[$0] && source.isKnown(0x60, sector: $0) ? source.key(0x60, sector: $0) : nil
                },
                keysB: (0..<model.sectorCount).map {
                    read[$0] && source.isKnown(0x61, sector: $0) ? source.key(0x61, sector: $0) : nil
                })
            var written = try classicStep("restore the blocks") { () throws(TagError) in
                try card.restore(dump, keys: keys)
            }
            var how = ""
            if block0 {
                let all = MifareClassicKeyDictionary(keys: [dump.keysA[0], dump.keysB[0]].compactMap { $0 })
                    .followed(by: keys)
                how = try classicStep("write block 0") { () throws(TagError) in
                    try card.writeBlockZero(source.block(0), keys: all)
                }
                written.append(0)
            }
            try session.release()
            let skipped = read.indices.filter { !read[$0] }
            var out = "Restored '\(path)' to MIFARE Classic \(tag.uid): \(written.count) blocks written"
            out += how.isEmpty ? "" : ", block 0 by \(how)"
            out += ".\n"
            if !skipped.isEmpty {
                out += "Sectors skipped (not read in the dump): \(skipped.map(String.init).joined(separator: ", "))\n"
            }
            if !block0 { out += "Block 0 (UID) not written; --block0 writes it on a gen1a or gen2/CUID card.\n" }
            Console.err(out)
            return 0
        }
    }
}

extension MifareClassicDumpCommand {
    /// `opennfc info`'s lines after NDEF: which well-known keys (A and B) open which sectors.
    static func infoFacts(_ tag: ConnectedTag) -> [TagInfo.Fact] {
        let card = MifareClassicCard(target: tag.target, frontend: tag.frontend)
        var opened: [String: [Int]] = [:]
        var closed: [Int] = []
        for sector in 0..<card.model.sectorCount {
            var any = false
            for keyA in [true, false] {
                guard let key = try? card.findKey(sector: sector, keyA: keyA, in: .wellKnown) else { continue }
                opened["key \(keyA ? "A" : "B") \(TagInfo.hex(key))", default: []].append(sector)
                any = true
            }
            if !any { closed.append(sector) }
        }
        var f: [TagInfo.Fact] = []
        var json: [(String, JSONValue)] = []
        for (name, sectors) in opened.sorted(by: { $0.key < $1.key }) {
            f.append(TagInfo.Fact(label: "Keys", text: "\(name) opens \(sectorRanges(sectors))", key: "", json: .null))
            json.append((name, .array(sectors.map { .int($0) })))
        }
        if !closed.isEmpty {
            f.append(
                TagInfo.Fact(
                    label: "Keys", text: "no well-known key opens \(sectorRanges(closed))", key: "", json: .null))
        }
        // One JSON entry for all the lines.
        f = f.enumerated().map { i, fact in
            var fact = fact
            fact.key = i == 0 ? "keys" : ""
            fact.json = i == 0 ? .object(json + [("closed", .array(closed.map { .int($0) }))]) : .null
            return fact
        }
        return f
    }

    /// "sectors 0-15" / "sector 3" / "sectors 0-3, 5" (``Commands/ranges(_:)``).
    static func sectorRanges(_ s: [Int]) -> String {
        (s.count == 1 ? "sector " : "sectors ") + Commands.ranges(s)
    }
}
