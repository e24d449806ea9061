import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for NFC Forum Type 1 tags (Topaz): the whole memory, block by block.
enum Type1Dump {
    /// The family's entry in ``DumpFamily/all``.
    static let family = DumpFamily(
        section: "type1", takesPassword: false,
        dumps: { if case .type1 = $0.identified.kind { true } else { false } },
        dump: { tag, session, request in
            try dump(tag, session, output: request.output, json: request.json)
        },
        restore: { source, path, inv, _ in
            guard let s = source as? Type1Tag else { throw DumpFamily.notOfSection(path) }
            return try restore(s, path: path, inv)
        },
        info: { tag in .init(chip: "\(tag.chip) (NFC Forum Type 1, Topaz)") })

    /// `dump` of the Type 1 tag in the field: prints the memory map, or saves a topaz96/topaz512 tag file.
    static func dump(_ tag: ConnectedTag, _ session: TagSession, output: String?, json: Bool) throws -> Int32 {
        let procedure = Type1NDEF(target: tag.target, frontend: tag.frontend)
        let image = try tagStep("read its memory") { () throws(TagError) in try procedure.readImage() }
        try session.release()
        if output == nil && !json {
            Console.out(listing(image, tag))
            return 0
        }
        let virtual = try virtualTag(image)
        try DumpRequest.save(virtual, to: output) { output in
            "Saved \(virtual.chip) \(tag.uid) (\(image.bytes.count / 8) blocks) to \(output).\n"
        }
        return 0
    }

    /// The virtual chip holding `image`, chosen by HR0/HR1.
    static func virtualTag(_ image: Type1MemoryImage) throws -> Type1Tag {
        guard let profile = Type1ChipProfile.all.first(where: { $0.hr0 == image.hr0 && $0.hr1 == image.hr1 }),
            profile.memorySize == image.bytes.count
        else {
            throw CLIError.failure(
                "tag files hold Topaz 96 (HR 11 48) and Topaz 512 (HR 12 4C); this Type 1 tag (HR "
                    + "\(Hex.encode([image.hr0, image.hr1]))) can only be printed (omit -o)")
        }
        do {
            return try Type1Tag(profile: profile, memory: image.bytes)
        } catch {
            throw CLIError.failure("\(error)")
        }
    }

    /// Block by block, with what each special block holds (Topaz datasheet §7).
    static func listing(_ image: Type1MemoryImage, _ tag: ConnectedTag) -> String {
        var s = "Tag:      \(tag.chip), UID \(tag.uid), HR0 \(Hex.encode([image.hr0])) HR1 \(Hex.encode([image.hr1])), "
        s += "\(image.bytes.count / 8) blocks\n"
        s += MemoryMap(
            bytes: image.bytes, width: 8,
            note: { b in
                switch b {
                case 0: "UID0-6, reserved"
                case 1: "CC, data"
                case 0x0D: "reserved"
                case 0x0E: "LOCK0-1, OTP0-5"
                case 0x0F: "reserved, dynamic lock bytes"
                default: ""
                }
            }
        ).text()
        return s
    }

    /// `restore` of a topaz96/topaz512 dump onto the Type 1 tag in the field (same HR0/HR1 and size).
    static func restore(_ source: Type1Tag, path: String, _ inv: Invocation) throws -> Int32 {
        try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            let header = tag.target.nfcA?.type1
            guard case .type1 = tag.identified.kind,
                header == nil || (header?.hr0 == source.profile.hr0 && header?.hr1 == source.profile.hr1)
            else {
                throw CLIError.failure(
                    "'\(path)' is a dump of \(source.chip), but the tag in the field is \(tag.chip) (UID \(tag.uid)); "
                        + "restore writes only to the same chip")
            }
            let procedure = Type1NDEF(target: tag.target, frontend: tag.frontend)
            let written = try tagStep("restore the memory") { () throws(TagError) in
                try procedure.restore(source.memory)
            }
            try session.release()
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([
                        ("chip", .string(source.chip)), ("uid", .string(tag.uid)), ("source", .string(path)),
                        ("writes", .int(written)),
                    ]).pretty + "\n")
            } else if written == 0 {
                Console.err("\(source.chip) \(tag.uid) already holds the data blocks of '\(path)'; nothing written.\n")
            } else {
                Console.err(
                    "Restored the data blocks of '\(path)' to \(source.chip) \(tag.uid): \(written) writes.\n")
            }
            return 0
        }
    }
}
