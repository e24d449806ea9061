import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for ISO/IEC 15693 tags (NFC Forum Type 5) as the user sees them: the
/// listing, the JSON, the tag file. The reads and writes are ``Type5MemoryReader``'s (`OpenNFCTags/Type5/`).
enum Type5Dump {
    /// The family's entry in ``DumpFamily/all``.
    static let family = DumpFamily(
        section: "type5", takesPassword: false,
        dumps: { if case .type5 = $0.identified.kind { true } else { false } },
        dump: dump,
        restore: { source, path, inv, _ in
            guard let s = source as? ISO15693Tag else { throw DumpFamily.notOfSection(path) }
            return try restore(s, path: path, inv)
        },
        info: { tag in
            guard case .type5(let c) = tag.identified.kind else { return .init(chip: tag.chip) }
            guard let n = c.systemInfo?.blockCount, let size = c.systemInfo?.blockSize else {
                return .init(chip: "\(c.name) (NFC Forum Type 5)")
            }
            return .init(
                chip: "\(c.name) (NFC Forum Type 5)",
                memory: ("\(n) blocks of \(size) bytes (\(n * size) bytes)", n * size))
        })

    typealias Image = Type5MemoryReader.Image

    static func read(_ link: Type5Link) throws(CLIError) -> Image {
        try ISO15693Steps.step("read the memory") { () throws(TagError) in try Type5MemoryReader.read(link) }
    }

    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        let link = Type5Link(frontend: tag.frontend, uid: tag.target.identifier)
        let image = try read(link)
        try session.release()
        let profile = ISO15693ChipProfile.all.first {
            $0.uidPrefix.prefix(2) == link.uid.prefix(2) && $0.blockCount == image.blockCount
                && $0.blockSize == image.blockSize
        }
        if request.output == nil && !request.json {
            Console.out(listing(image, uid: tag.uid, chip: profile?.name ?? "iso15693"))
            return 0
        }
        guard let profile else {
            throw CLIError.failure(
                "tag files hold icode-slix, icode-slix2, st25dv04k, st25dv64k and tagit-hfi-plus; this ISO 15693 tag "
                    + "(UID \(tag.uid), \(image.blockCount) blocks of \(image.blockSize)) can only be printed (omit -o)"
            )
        }
        let virtual: ISO15693Tag
        do {
            virtual = try ISO15693Tag(profile: profile, uid: link.uid, memory: image.memory)
        } catch {
            throw CLIError.failure("\(error)")
        }
        virtual.lockedBlocks = image.locked
        virtual.dsfid = image.info.dsfid ?? 0
        virtual.afi = image.info.afi ?? 0
        try DumpRequest.save(virtual, to: request.output) { output in
            "Saved \(virtual.chip) \(tag.uid) (\(image.blockCount) blocks) to \(output).\n"
        }
        return 0
    }

    static func listing(_ image: Image, uid: String, chip: String) -> String {
        var s = "Tag:      \(chip), UID \(uid), \(image.blockCount) blocks of \(image.blockSize) bytes"
        if let d = image.info.dsfid { s += ", DSFID \(Hex.encode([d]))" }
        if let a = image.info.afi { s += ", AFI \(Hex.encode([a]))" }
        if let ic = image.info.icReference { s += ", IC reference \(Hex.encode([ic]))" }
        s += "\n"
        s += MemoryMap(
            bytes: Array(image.memory.prefix(image.blockCount * image.blockSize)), width: image.blockSize,
            note: { image.locked.contains($0) ? "locked" : "" }
        ).text()
        return s
    }

    /// `restore` of an ISO 15693 dump onto a tag of the same chip: the blocks that differ, in ascending order, then
    /// DSFID and AFI when they differ. Locked blocks that differ are refused before anything is written.
    static func restore(_ source: ISO15693Tag, path: String, _ inv: Invocation) throws -> Int32 {
        try TagSession.run(inv) { session in
            let target = try session.connect()
            guard target.nfcV != nil else {
                throw CLIError.failure(
                    "'\(path)' is a dump of \(source.chip), but the tag in the field is not ISO 15693")
            }
            let link = Type5Link(frontend: session.frontend, uid: target.identifier)
            let steps = ISO15693Steps(link: link)
            let image = try read(link)
            let p = source.profile
            guard link.uid.prefix(2) == source.uid.prefix(2), image.blockCount == p.blockCount,
                image.blockSize == p.blockSize
            else {
                throw CLIError.failure(
                    "'\(path)' is a dump of \(source.chip) (\(p.blockCount) blocks of \(p.blockSize)); the tag in the "
                        + "field (UID \(link.uid.hexString)) has \(image.blockCount) blocks of \(image.blockSize): "
                        + "restore writes only to the same chip")
            }
            let changed = (0..<p.blockCount).filter { b in
                image.memory[(b * p.blockSize)..<((b + 1) * p.blockSize)]
                    != source.memory[(b * p.blockSize)..<((b + 1) * p.blockSize)]
            }
            if let b = changed.first(where: { image.locked.contains($0) }) {
                throw CLIError.failure(
                    "block \(b) differs from '\(path)' but is locked on the tag; nothing was written")
            }
            for b in changed {
                let data = Array(source.memory[(b * p.blockSize)..<((b + 1) * p.blockSize)])
                try ISO15693Steps.step("write block \(b)") { () throws(TagError) in
                    try Type5MemoryReader.writeBlock(link, b, data)
                }
            }
            var writes = changed.count
            if let d = image.info.dsfid, d != source.dsfid {
                try steps.write(.writeDSFID(source.dsfid), doing: "write the DSFID")
                writes += 1
            }
            if let a = image.info.afi, a != source.afi {
                try steps.write(.writeAFI(source.afi), doing: "write the AFI")
                writes += 1
            }
            try session.release()
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([
                        ("chip", .string(source.chip)), ("uid", .string(link.uid.hexString)),
                        ("source", .string(path)), ("writes", .int(writes)),
                    ]).pretty + "\n")
            } else if writes == 0 {
                Console.err("\(source.chip) \(link.uid.hexString) already holds '\(path)'; nothing written.\n")
            } else {
                Console.err("Restored '\(path)' to \(source.chip) \(link.uid.hexString): \(writes) writes.\n")
            }
            return 0
        }
    }
}
