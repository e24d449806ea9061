import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation

/// `opennfc dump` and `opennfc restore` for ISO/IEC 15693 tags (NFC Forum Type 5): every block, its lock state,
/// DSFID and AFI, read with Get System Information, Read Multiple Blocks and Get Multiple Block Security Status
/// (ISO/IEC 15693-3 §10.4).
enum Type5Dump {
    /// Read Multiple Blocks run: at most 32 blocks (ST chips do not read across their 32-block sectors, AOSP reads at
    /// most 128 bytes), fewer when the frontend's answers are shorter.
    static func run(_ frontend: any RFFrontend, blockSize: Int) -> Int {
        max(1, min(32, (frontend.capabilities.maxResponseSize - 1) / max(1, blockSize)))
    }

    struct Image {
        var info: ISO15693Requests.SystemInfo
        var blockCount: Int
        var blockSize: Int
        var memory: [UInt8]
        var locked: Set<Int>
    }

    static func read(_ link: ISO15693Requests, _ frontend: any RFFrontend) throws -> Image {
        let info = try link.systemInfo()
        guard let count = info.blockCount, let size = info.blockSize else {
            throw CLIError.failure("the tag's system information does not give its memory size; it cannot be dumped")
        }
        let run = run(frontend, blockSize: size)
        let memory = try link.readBlocks(0, count: count, blockSize: size, run: run)
        let locked = try link.lockedBlocks(count: count, run: 64)
        return Image(info: info, blockCount: count, blockSize: size, memory: memory, locked: locked)
    }

    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        let link = ISO15693Requests(frontend: tag.frontend, uid: tag.target.identifier)
        let image = try read(link, tag.frontend)
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
        s += "\nBlock  Bytes\(String(repeating: " ", count: max(0, image.blockSize * 3 - 5)))  ASCII\n"
        for b in 0..<image.blockCount {
            let bytes = Array(image.memory[(b * image.blockSize)..<((b + 1) * image.blockSize)])
            let ascii = String(bytes.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." })
            let num = String(b)
            let pad = String(repeating: " ", count: max(0, 5 - num.count)) + num
            s += "\(pad)  \(Hex.encode(bytes, separator: " "))  \(ascii)\(image.locked.contains(b) ? "  locked" : "")\n"
        }
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
            let link = ISO15693Requests(frontend: session.frontend, uid: target.identifier)
            let image = try read(link, session.frontend)
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
                try link.writeBlock(b, Array(source.memory[(b * p.blockSize)..<((b + 1) * p.blockSize)]))
            }
            var writes = changed.count
            if let d = image.info.dsfid, d != source.dsfid {
                try link.write(0x29, [source.dsfid], doing: "write the DSFID")
                writes += 1
            }
            if let a = image.info.afi, a != source.afi {
                try link.write(0x27, [source.afi], doing: "write the AFI")
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
                Console.out("\(source.chip) \(link.uid.hexString) already holds '\(path)'; nothing written.\n")
            } else {
                Console.out("Restored '\(path)' to \(source.chip) \(link.uid.hexString): \(writes) writes.\n")
            }
            return 0
        }
    }
}
