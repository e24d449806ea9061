import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for NFC Forum Type 2 tags (NTAG, Ultralight): every page, configuration
/// pages included, and the originality signature (NTAG21x §10.10, MF0ULx1 §9.13).
enum Type2Dump {
    /// The family's entry in ``DumpFamily/all``.
    static let family = DumpFamily(
        section: "type2", takesPassword: true,
        dumps: { $0.type2Chip != nil },
        dump: dump,
        restore: { source, path, inv, password in
            guard let s = source as? Type2Tag else { throw DumpFamily.notOfSection(path) }
            return try restore(s, path: path, inv, password: password)
        },
        info: { tag in
            guard let c = tag.type2Chip else { return .init(chip: tag.chip) }
            let memory = c.memoryPages.map { pages in ("\(pages) pages of 4 bytes (\(pages * 4) bytes)", pages * 4) }
            return .init(chip: "\(c.name) (NFC Forum Type 2)", memory: memory)
        },
        infoFacts: infoFacts)

    /// Reads every page of the Type 2 tag in the field and prints its memory map or saves it.
    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        guard let chip = tag.type2Chip else {
            throw CLIError.failure(
                "dump reads Type 2 tags (NTAG, Ultralight); this tag is \(tag.chip), UID \(tag.uid)")
        }
        try Commands.authenticateIfKeyGiven(request.ultralightCKey, tag)
        let reader = Type2MemoryReader(
            target: tag.target, chip: chip, frontend: tag.frontend, password: request.password)
        let image = try tagStep("read its memory") { () throws(TagError) in try reader.read() }
        let pack = reader.pack
        let signature = Type2MemoryReader.readSignature(chip, tag.frontend)
        try session.release()
        let map = Type2PageMap(
            chip: chip, image: image, profile: TagFileBridge.profile(for: tag, pages: image.pages.count))
        var notes = map.notes
        let saving = request.output != nil || request.json
        if saving, let pack, let password = request.password, let p = map.profile, p.configPage != nil {
            notes.removeAll { $0.hasPrefix("PWD and PACK") }
            notes.append("PWD and PACK saved as given (\(password.hexString) / \(pack.hexString))")
        }
        if request.output == nil && !request.json {
            Console.out("Tag:      \(tag.chip), UID \(tag.uid), \(image.pages.count) pages\n")
            Console.out(map.listing())
            for n in notes { Console.out("Note: \(n)\n") }
            return 0
        }
        guard let profile = map.profile else {
            throw CLIError.failure(
                "tag files hold the simulated chips (\(Type2ChipProfile.all.map(\.name).joined(separator: ", "))); "
                    + "this \(tag.chip) of \(image.pages.count) pages can only be printed (omit -o)")
        }
        var memory = image.bytes
        if let password = request.password, let pack, let cfg = profile.configPage {
            memory.replaceSubrange(((cfg + 2) * 4)..<((cfg + 3) * 4), with: password)
            memory.replaceSubrange(((cfg + 3) * 4)..<((cfg + 3) * 4 + 2), with: pack)
        }
        let virtual: Type2Tag
        do {
            virtual = try Type2Tag(
                profile: profile, memory: memory, signature: signature ?? Array(repeating: 0, count: 32))
            // The key pages never read back (MF0ICU2 §7.5.7): the key that authenticated is the chip's.
            if let key = request.ultralightCKey { try virtual.setUltralightCKey(key) }
        } catch {
            throw CLIError.failure("\(error)")
        }
        try DumpRequest.save(virtual, to: request.output) { output in
            "Saved \(tag.chip) \(tag.uid) (\(image.pages.count) pages) to \(output).\n"
        }
        for n in notes { Console.err("Note: \(n)\n") }
        return 0
    }

    /// Writes the user memory of a Type 2 dump to the same chip in the field, tear-safely.
    static func restore(_ source: Type2Tag, path: String, _ inv: Invocation, password: [UInt8]?) throws -> Int32 {
        let profile = source.profile
        return try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            guard let chip = tag.type2Chip, TagFileBridge.profile(for: tag, pages: profile.pageCount) == profile
            else {
                throw CLIError.failure(
                    "'\(path)' is a dump of \(profile.name), but the tag in the field is \(tag.chip) (UID "
                        + "\(tag.uid)); restore writes only to the same chip")
            }
            let wanted = stride(from: 0, to: source.memory.count, by: 4).map { Array(source.memory[$0..<($0 + 4)]) }
            let reader = Type2MemoryReader(
                target: tag.target, chip: chip, frontend: tag.frontend, password: password)
            let image = try tagStep("read its memory") { () throws(TagError) in try reader.read() }
            if let p = image.firstProtectedPage, p <= profile.lastUserPage {
                throw CLIError.failure(
                    "pages from \(p) on are password-protected on the tag; give --password to restore them")
            }
            let writer = Type2MemoryWriter(target: tag.target, frontend: tag.frontend)
            let written = try tagStep("restore the memory") { () throws(TagError) in
                try writer.restore(current: image.pages, wanted: wanted, userPages: 4...profile.lastUserPage)
            }
            try session.release()
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([
                        ("chip", .string(tag.chip)), ("uid", .string(tag.uid)), ("source", .string(path)),
                        ("pagesWritten", .int(written)),
                    ]).pretty + "\n")
            } else if written == 0 {
                Console.err("\(tag.chip) \(tag.uid) already holds the user memory of '\(path)'; nothing written.\n")
            } else {
                Console.err(
                    "Restored the user memory of '\(path)' to \(tag.chip) \(tag.uid): \(written) page writes.\n")
            }
            return 0
        }
    }
}

extension Type2Dump {
    /// `opennfc info`'s lines after NDEF, for NTAG21x and Ultralight EV1 only: AUTH0 from the configuration pages,
    /// and READ_SIG (NTAG213/215/216 §10.8).
    static func infoFacts(_ tag: ConnectedTag) -> [TagInfo.Fact] {
        var f: [TagInfo.Fact] = []
        guard let chip = tag.type2Chip, [.ntag21x, .ultralightEV1].contains(chip.family) else { return f }
        if let password = try? NTAGPassword(target: tag.target, chip: chip, frontend: tag.frontend),
            let config = try? password.configuration()
        {
            let total = password.totalPages
            let text =
                config.isProtecting(totalPages: total)
                ? "set: pages from \(String(format: "%02Xh", config.auth0)) need it for "
                    + (config.protectsReads ? "reading and writing" : "writing")
                : "none (AUTH0 \(String(format: "%02Xh", config.auth0)): no page protected)"
            f.append(
                TagInfo.Fact(
                    label: "Password", text: text, key: "passwordProtected",
                    json: .bool(config.isProtecting(totalPages: total))))
        }
        if let sig = Type2MemoryReader.readSignature(chip, tag.frontend) {
            let all0 = sig.allSatisfy { $0 == 0 }
            f.append(
                TagInfo.Fact(
                    label: "Signature",
                    text: all0 ? "all zeros (not personalised)" : "\(TagInfo.hex(sig)) (NXP originality, not verified)",
                    key: "signature", json: .string(TagInfo.hex(sig))))
        }
        return f
    }
}
