import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for MIFARE Plus EV1/EV2 in SL0/SL3 (a card in SL1 is a MIFARE Classic to
/// the reader and dumps as one). The reading is `OpenNFCTags/MIFAREPlus/MIFAREPlusMemory.swift`; here only the
/// key file, the listing and the tag file.
///
/// `--keys FILE`: one AES key (32 hex digits) a line, each tried for every sector key before the public defaults.
/// Keys the dump did not find are saved unknown (`??`); blocks no key read are saved as zeros and listed.
enum MIFAREPlusDumpCommand {
    /// The family's entry in ``DumpFamily/all``.
    static let family = DumpFamily(
        section: "mifarePlus", takesPassword: false,
        dumps: { if case .mifarePlus = $0.identified.kind { true } else { false } },
        dump: dump,
        restore: { source, path, inv, _ in
            guard let s = source as? MIFAREPlusTag else { throw DumpFamily.notOfSection(path) }
            return try restore(s, path: path, inv)
        },
        info: { tag in
            guard case .mifarePlus(let v) = tag.identified.kind else { return .init(chip: tag.chip) }
            let blocks = v.is4K ? 256 : 128
            return .init(
                chip: "\(v) (MIFARE Plus, security level 0 or 3)",
                memory: ("\(v.sectorCount) sectors, \(blocks) blocks of 16 bytes", blocks * 16))
        })

    static func keys(_ path: String?) throws -> [[UInt8]] {
        guard let path else { return [] }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw CLIError.failure("cannot read the key file '\(path)'") }
        do throws(TagError) {
            return try MIFAREPlusMemory.parseKeys(text, file: path)
        } catch {
            throw CLIError.failure(error.reason)
        }
    }

    static func step<T>(_ what: String, _ body: () throws(TagError) -> T) throws -> T {
        do throws(TagError) {
            return try body()
        } catch {
            throw CLIError.failure(TagErrorText.describe(error, doing: what))
        }
    }

    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        guard case .mifarePlus(let version) = tag.identified.kind else { return 1 }
        let dictionary = try keys(request.keys)
        let reader = MIFAREPlusMemory(target: tag.target, frontend: tag.frontend, version: version)
        let image = try step("read the card") { () throws(TagError) in try reader.read(keys: dictionary) }
        try session.release()
        let model = MIFAREPlusModel(
            generation: version.generation == "ev2" ? .ev2 : .ev1, is4K: version.is4K, uidLength: version.uidLength)
        let unread = (0..<image.blockCount).filter { image.blocks[$0] == nil }
        let note: String
        if image.securityLevel == 0 {
            note = "The card is in security level 0 (not personalised): it has no readable blocks yet.\n"
        } else if unread.isEmpty {
            note = ""
        } else {
            let sectors = Set(unread.map { MifareClassicModel.sector(ofBlock: $0) }).sorted()
            note =
                "Sectors not read (no key of --keys or the defaults opens them): "
                + sectors.map(String.init).joined(separator: ", ") + "\n"
        }
        if request.output == nil && !request.json {
            var s = "Tag:      \(model.displayName), UID \(tag.uid), security level \(image.securityLevel)\n"
            s += "Signature: \(image.signature.map { Hex.encode($0) } ?? "none")\n"
            for sector in 0..<model.sectorCount where image.securityLevel == 3 {
                let a = UInt16(0x4000 + 2 * sector)
                s +=
                    "Sector \(sector): AES key A \(image.keys[a].map { Hex.encode($0) } ?? "?"), "
                    + "key B \(image.keys[a + 1].map { Hex.encode($0) } ?? "?")\n"
            }
            if image.securityLevel == 3 {
                s += MifareClassicMemoryMap.map(blocks: image.blocks, uidLength: version.uidLength, keys: .aes).text()
            }
            Console.out(s + note)
            return 0
        }
        let virtual: MIFAREPlusTag
        do {
            virtual = try MIFAREPlusTag(model: model, uid: tag.target.identifier, securityLevel: image.securityLevel)
            for (b, bytes) in image.blocks.enumerated() {
                if let bytes {
                    try virtual.setBlock(b, bytes)
                } else if b != 0 {
                    try virtual.setBlock(b, [UInt8](repeating: 0, count: 16))
                }
            }
            for address in model.keyAddresses {
                if let key = image.keys[address] {
                    try virtual.setKey(address, key)
                } else {
                    virtual.unknownKeys.insert(address)
                }
            }
            virtual.restoreState(
                signature: image.signature, production: Array(version.production.suffix(7)), personalised: [])
        } catch {
            throw CLIError.failure("\(error)")
        }
        try DumpRequest.save(virtual, to: request.output) { output in
            "Saved \(virtual.chip) \(tag.uid) (security level \(image.securityLevel), \(model.blockCount) blocks, "
                + "\(image.keys.count) sector keys found) to \(output).\n" + note
        }
        if request.output == nil && !note.isEmpty { Console.err(note) }
        return 0
    }

    /// `restore` of a MIFARE Plus tag file: its data blocks (not block 0, trailers or keys) onto the SL3 card in the
    /// field, each sector opened with the file's keys, then `--keys FILE`, then the defaults.
    static func restore(_ source: MIFAREPlusTag, path: String, _ inv: Invocation) throws -> Int32 {
        let dictionary = try keys(inv.value("keys"))
        return try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            guard case .mifarePlus(let version) = tag.identified.kind else {
                throw CLIError.failure(
                    "'\(path)' is a dump of \(source.chip), but the tag in the field is \(tag.chip) (UID \(tag.uid))")
            }
            guard version.is4K == source.model.is4K else {
                throw CLIError.failure("'\(path)' is a \(source.chip); the card in the field is a \(version)")
            }
            var keys: [UInt16: [UInt8]] = [:]
            for address in source.model.keyAddresses where !source.unknownKeys.contains(address) {
                keys[address] = source.keys[address]
            }
            let image = MIFAREPlusImage(
                version: version, securityLevel: source.securityLevel, signature: nil, keys: keys,
                blocks: (0..<source.model.blockCount).map { source.block($0) })
            let writer = MIFAREPlusMemory(target: tag.target, frontend: tag.frontend, version: version)
            let written = try step("restore the blocks") { () throws(TagError) in
                try writer.restore(image, keys: dictionary)
            }
            try session.release()
            Console.err(
                "Restored '\(path)' to \(version) \(tag.uid): \(written) data blocks written "
                    + "(block 0, trailers and keys are left as the card has them).\n")
            return 0
        }
    }
}
