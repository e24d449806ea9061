import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for NFC Forum Type 3 (FeliCa) as the user sees them: the listing, the JSON,
/// the tag file. The reads and writes are ``FeliCaMemoryReader``'s and ``Type3Link``'s (`OpenNFCTags/Type3/`).
enum Type3Dump {
    /// The family's entries in ``DumpFamily/all``: `dump` reads a FeliCa Lite-S or a FeliCa Standard; `restore`
    /// takes a felica-lite-s dump (section `felica`) in ``family`` and a felica-standard dump (`felicaStandard`) in
    /// ``standardFamily``.
    static let family = DumpFamily(
        section: "felica", takesPassword: false,
        dumps: { if case .type3 = $0.identified.kind { true } else { false } },
        dump: dump,
        restore: { source, path, inv, _ in
            guard let s = source as? FeliCaLiteSTag else { throw DumpFamily.notOfSection(path) }
            return try restoreLiteS(s, path: path, inv)
        },
        info: { tag in .init(chip: "\(tag.chip) (NFC Forum Type 3, FeliCa)") })

    static let standardFamily = DumpFamily(
        section: "felicaStandard", takesPassword: false, dumps: { _ in false }, dump: dump,
        restore: { source, path, inv, _ in
            guard let s = source as? FeliCaStandardTag else { throw DumpFamily.notOfSection(path) }
            return try restoreStandard(s, path: path, inv)
        })

    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        let link = Type3Link(frontend: tag.frontend, idm: tag.target.identifier)
        let pmm = tag.target.nfcF?.pmm ?? []
        if let ic = FeliCaMemoryReader.icCode(tag.target), FeliCaMemoryReader.isLiteS(tag.target) {
            let image = try tagStep("read the card's blocks") { () throws(TagError) in
                try FeliCaMemoryReader.readLiteS(link)
            }
            try session.release()
            if request.output == nil && !request.json {
                Console.out(liteSListing(image, idm: tag.target.identifier, pmm: pmm))
                return 0
            }
            guard ic == 0xF1 else {
                throw CLIError.failure(
                    "tag files hold the FeliCa Lite-S (IC code F1); this card (IC code \(Hex.encode([ic]))) can only "
                        + "be printed (omit -o)")
            }
            let virtual = try liteSTag(image, idm: tag.target.identifier, pmm: pmm)
            try DumpRequest.save(virtual, to: request.output) { output in
                "Saved felica-lite-s \(tag.uid) (15 user blocks and the system blocks) to \(output).\n"
                    + "CK never reads back from a card: it is saved as zeros.\n"
            }
            return 0
        }
        let image = try tagStep("read the card's systems and services") { () throws(TagError) in
            try FeliCaMemoryReader.readStandard(link, target: tag.target)
        }
        try session.release()
        if request.output == nil && !request.json {
            Console.out(standardListing(image, pmm: pmm))
            return 0
        }
        let virtual = standardTag(image, pmm: pmm)
        let keyed = image.systems.flatMap { s in s.services.filter { $0.blocks == nil }.map { ($0, s.code) } }
        try DumpRequest.save(virtual, to: request.output) { output in
            var s =
                "Saved felica-standard \(tag.uid) (\(image.systems.count) system\(image.systems.count == 1 ? "" : "s"), "
            s += "\(image.systems.reduce(0) { $0 + $1.services.count }) services) to \(output).\n"
            if !keyed.isEmpty {
                s +=
                    "Services that need a key were not read and are saved as one zero block: "
                    + keyed.map { "\(FeliCaFrame.hex4($0.0.code)) (system \(FeliCaFrame.hex4($0.1)))" }
                    .joined(separator: ", ") + ".\n"
            }
            return s
        }
        if let output = request.output, TagFile.Format(path: output) == .flipper,
            let loss = FlipperNFCFile.exportLoss(virtual)
        {
            Console.err("Warning: \(output): \(loss).\n")
        }
        return 0
    }

    // MARK: FeliCa Lite-S

    typealias LiteSImage = FeliCaMemoryReader.LiteSImage

    static func liteSListing(_ image: LiteSImage, idm: [UInt8], pmm: [UInt8]) -> String {
        let ic = pmm.count == 8 ? pmm[1] : 0
        let product =
            ic == 0xF1 ? "FeliCa Lite-S (RC-S966)" : ic == 0xF0 ? "FeliCa Lite (RC-S965)" : "FeliCa Link (Lite-S mode)"
        var s = "Tag:      \(product), IDm \(Hex.encode(idm)), PMm \(Hex.encode(pmm))\n"
        // The one memory map: every block by number with its name; a refused block as `--` with the status flags.
        s += MemoryMap(
            rows: FeliCaMemoryReader.liteSBlocks.map { b, name in
                switch image[b] {
                // S_PAD1-13 unnamed (block 0 names them), so that runs of identical user blocks collapse.
                case .success(let d)?:
                    let note = b == 0 ? "S_PAD0 (user blocks S_PAD0-13)" : (1..<14).contains(b) ? "" : name
                    return .init(number: b, bytes: d, note: note)
                case .failure(let f)?:
                    return .init(
                        number: b, bytes: nil,
                        note: name + " (refused: \(Hex.encode([f.sf1, f.sf2], separator: " ")), "
                            + "\(FeliCaFrame.statusName(f.sf2)))")
                case nil: return .init(number: b, bytes: nil, note: name + " (not read)")
                }
            }, rowWidth: 16
        ).text()
        if case .success(let mc)? = image[0x88] {
            s +=
                "System blocks \(mc[2] == 0xFF ? "writable" : "read-only"), NDEF system code 12FC "
                + "\(mc[3] & 0x01 != 0 ? "enabled" : "disabled"); CK never reads back.\n"
        }
        return s
    }

    static func liteSTag(_ image: LiteSImage, idm: [UInt8], pmm: [UInt8]) throws -> FeliCaLiteSTag {
        func block(_ b: Int) throws -> [UInt8] {
            switch image[b] {
            case .success(let d)?: return d
            case .failure(let f)?:
                throw CLIError.failure(
                    "block \(Hex.encode([UInt8(b)])) was refused (\(FeliCaFrame.statusName(f.sf2))); a tag file "
                        + "needs every block: omit -o to print what was read")
            case nil: throw CLIError.failure("block \(Hex.encode([UInt8(b)])) was not read")
            }
        }
        let wcnt = try block(0x90)
        return FeliCaLiteSTag(
            idm: idm, pmm: pmm, user: try (0...0x0E).map(block), idData: Array(try block(0x82)[8..<16]),
            serC: try block(0x84), sysC: try block(0x85), ckv: try block(0x86),
            ck: [UInt8](repeating: 0, count: 16), mc: try block(0x88),
            writeCount: Int(wcnt[0]) | Int(wcnt[1]) << 8 | Int(wcnt[2]) << 16)
    }

    // MARK: FeliCa Standard

    typealias StandardImage = FeliCaMemoryReader.StandardImage

    static func standardListing(_ image: StandardImage, pmm: [UInt8]) -> String {
        let hex4 = FeliCaFrame.hex4
        var s = "Tag:      FeliCa Standard, PMm \(Hex.encode(pmm)), \(image.systems.count) system"
        s += image.systems.count == 1 ? "\n" : "s\n"
        for sys in image.systems {
            s += "System \(hex4(sys.code)): IDm \(Hex.encode(sys.idm))\n"
            for a in sys.areas {
                s += "  Area \(hex4(a.code))-\(hex4(a.end))\(a.keyVersion.map { ", key version \(hex4($0))" } ?? "")\n"
            }
            for v in sys.services {
                let access = v.isReadOnly ? "read-only" : "read/write"
                var line = "  Service \(hex4(v.code)): \(v.kind), \(access), "
                line += v.needsKey ? "key" : "no key"
                if let kv = v.keyVersion { line += ", key version \(hex4(kv))" }
                guard let blocks = v.blocks else {
                    s += line + ": not read (needs a key)\n"
                    continue
                }
                line += ", \(blocks.count) block\(blocks.count == 1 ? "" : "s")"
                if let f = v.refusal {
                    line += " (reading stopped: \(Hex.encode([f.sf1, f.sf2], separator: " ")), "
                    line += "\(FeliCaFrame.statusName(f.sf2)))"
                }
                s += line + "\n"
                s += MemoryMap(bytes: blocks.flatMap { $0 }, width: 16).text(indent: "    ")
            }
        }
        return s
    }

    /// The virtual card holding `image`; a service without readable blocks gets one zero block (a tag file's
    /// service has at least one).
    static func standardTag(_ image: StandardImage, pmm: [UInt8]) -> FeliCaStandardTag {
        let zero = [UInt8](repeating: 0, count: 16)
        return FeliCaStandardTag(
            systems: image.systems.map { sys in
                FeliCaStandardTag.System(
                    code: sys.code, idm: sys.idm,
                    areas: sys.areas.map { .init(code: $0.code, end: $0.end, keyVersion: $0.keyVersion ?? 0) },
                    services: sys.services.map { v in
                        let blocks = v.blocks ?? []
                        return .init(
                            code: v.code, keyVersion: v.keyVersion ?? 0, blocks: blocks.isEmpty ? [zero] : blocks)
                    })
            }, pmm: pmm.count == 8 ? pmm : FeliCaStandardTag.defaultPMm)
    }

    // MARK: restore

    /// `restore` of a felica-standard dump onto a FeliCa Standard card with the same systems and services: the
    /// blocks of every service writable without a key that differ (a random service block by block; a cyclic
    /// service's records oldest first, so block 0 ends as the dump's newest). Read-only and keyed services are
    /// never written; a writable service with another block count is refused before anything is written.
    static func restoreStandard(_ source: FeliCaStandardTag, path: String, _ inv: Invocation) throws -> Int32 {
        try TagSession.run(inv) { session in
            let target = try session.connect()
            guard let f = target.nfcF, ![0xF0, 0xF1, 0xF2].contains(f.pmm[1]) else {
                throw CLIError.failure(
                    "'\(path)' is a dump of felica-standard, but the card in the field is not a FeliCa Standard "
                        + "card; restore writes only to the same kind of card")
            }
            let link = Type3Link(frontend: session.frontend, idm: target.identifier)
            let card = try tagStep("read the card's systems and services") { () throws(TagError) in
                try FeliCaMemoryReader.readStandard(link, target: target)
            }
            var plan: [(idm: [UInt8], service: UInt16, block: Int, data: [UInt8])] = []
            var skipped: [String] = []
            for sys in source.systems {
                guard let mine = card.systems.first(where: { $0.code == sys.code }),
                    Set(mine.services.map(\.code)) == Set(sys.services.map(\.code))
                else {
                    throw CLIError.failure(
                        "'\(path)' has system \(FeliCaFrame.hex4(sys.code)) with services "
                            + sys.services.map { FeliCaFrame.hex4($0.code) }.joined(separator: " ")
                            + "; the card in the field does not: restore writes only to a card with the same "
                            + "systems and services")
                }
                for v in sys.services {
                    let have = mine.services.first { $0.code == v.code }!
                    guard have.isWritable else {
                        if let b = have.blocks, b != v.blocks { skipped.append(FeliCaFrame.hex4(v.code)) }
                        continue
                    }
                    let now = have.blocks ?? []
                    guard now.count == v.blocks.count else {
                        throw CLIError.failure(
                            "service \(FeliCaFrame.hex4(v.code)) has \(v.blocks.count) blocks in '\(path)' and "
                                + "\(now.count) on the card; nothing was written")
                    }
                    if have.kind == "cyclic" {
                        if now != v.blocks {
                            for b in v.blocks.indices.reversed() { plan.append((mine.idm, v.code, 0, v.blocks[b])) }
                        }
                    } else {
                        for b in v.blocks.indices where now[b] != v.blocks[b] {
                            plan.append((mine.idm, v.code, b, v.blocks[b]))
                        }
                    }
                }
            }
            for w in plan {
                try tagStep("write block \(w.block) of service \(FeliCaFrame.hex4(w.service))") { () throws(TagError) in
                    try link.addressing(w.idm).write(service: w.service, block: w.block, w.data)
                }
            }
            try session.release()
            return report(
                inv, chip: "felica-standard", idm: target.identifier.hexString, path: path, writes: plan.count,
                notes: skipped.isEmpty
                    ? [] : ["read-only services that differ were not written: \(skipped.joined(separator: ", "))"])
        }
    }

    /// `restore` of a felica-lite-s dump onto a FeliCa Lite-S: the user blocks that differ (an NDEF attribute
    /// block first marked as being written, WriteF `0F`, and block 0 written last, NFC Forum T3T §7), then ID,
    /// SER_C, SYS_C and CKV when they differ, and MC last (it can lock the system blocks; it takes effect at the
    /// next power-up). CK (never readable) and WCNT (the card's own counter) are not restored. A block that
    /// differs but is not writable without authentication is refused before anything is written.
    static func restoreLiteS(_ source: FeliCaLiteSTag, path: String, _ inv: Invocation) throws -> Int32 {
        try TagSession.run(inv) { session in
            let target = try session.connect()
            guard let f = target.nfcF, f.pmm[1] == 0xF1 else {
                throw CLIError.failure(
                    "'\(path)' is a dump of felica-lite-s, but the card in the field is not a FeliCa Lite-S (PMm IC "
                        + "code F1); restore writes only to the same chip")
            }
            let idm = target.identifier
            let link = Type3Link(frontend: session.frontend, idm: idm)
            let image = try tagStep("read the card's blocks") { () throws(TagError) in
                try FeliCaMemoryReader.readLiteS(link)
            }
            func now(_ b: Int) throws(CLIError) -> [UInt8] {
                guard case .success(let d)? = image[b] else {
                    throw CLIError.failure(
                        "block \(Hex.encode([UInt8(b)])) of the card cannot be read; nothing was written")
                }
                return d
            }
            let mc = try now(0x88)
            func bit(_ offset: Int, _ b: Int) -> Bool { (Int(mc[offset]) | Int(mc[offset + 1]) << 8) >> b & 1 != 0 }
            var users: [Int] = []
            for b in 0...0x0E where try now(b) != source.user[b] { users.append(b) }
            for b in users {
                guard bit(0, b), !bit(8, b), !bit(10, b) else {
                    throw CLIError.failure(
                        "block \(Hex.encode([UInt8(b)])) differs from '\(path)' but the card's MC does not let it be "
                            + "written without authentication; nothing was written")
                }
            }
            if users.contains(0x0E) {
                let old = try now(0x0E)
                let new = source.user[0x0E]
                guard le32(new, 0) <= le32(old, 0), le32(new, 4) <= le32(old, 4) else {
                    throw CLIError.failure(
                        "REG differs from '\(path)' but its counters A and B can only decrease; nothing was written")
                }
            }
            let systemBlocks: [(Int, [UInt8])] = [
                (0x82, source.idm + source.idData), (0x84, source.serC), (0x85, source.sysC), (0x86, source.ckv),
            ]
            var system: [(Int, [UInt8])] = []
            for (b, d) in systemBlocks {
                let differs = b == 0x82 ? Array(try now(0x82)[8..<16]) != source.idData : try now(b) != d
                if differs { system.append((b, d)) }
            }
            let mcDiffers = mc != source.mc
            if (!system.isEmpty || mcDiffers) && mc[2] != 0xFF {
                throw CLIError.failure(
                    "the system blocks differ from '\(path)' but the card's are read-only (MC byte 2 is not FF); "
                        + "nothing was written")
            }
            var writes: [(Int, [UInt8])] = []
            let data = users.filter { $0 != 0 && $0 != 0x0E }
            var block0 = try now(0)
            if !data.isEmpty, isAttributeBlock(block0), block0[9] == 0x00 {
                block0[9] = 0x0F
                let sum = block0[0..<14].reduce(0) { $0 + Int($1) }
                block0[14] = UInt8(sum >> 8 & 0xFF)
                block0[15] = UInt8(sum & 0xFF)
                writes.append((0, block0))
            }
            writes += data.map { ($0, source.user[$0]) }
            if users.contains(0x0E) { writes.append((0x0E, source.user[0x0E])) }
            if users.contains(0) || writes.first?.0 == 0 { writes.append((0, source.user[0])) }
            writes += system
            if mcDiffers { writes.append((0x88, source.mc)) }
            for (b, d) in writes {
                try tagStep("write block \(Hex.encode([UInt8(b)]))") { () throws(TagError) in
                    try link.write(service: FeliCaMemoryReader.liteSWriteService, block: b, d)
                }
            }
            try session.release()
            return report(
                inv, chip: "felica-lite-s", idm: idm.hexString, path: path, writes: writes.count,
                notes: mcDiffers ? ["MC takes effect at the card's next power-up"] : [])
        }
    }

    static func le32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    /// Whether `b` is an NFC Forum T3T attribute block: version 1.x and the checksum of bytes 0–13 (T3T §7.1).
    static func isAttributeBlock(_ b: [UInt8]) -> Bool {
        b.count == 16 && b[0] >> 4 == 1 && b[0..<14].reduce(0) { $0 + Int($1) } & 0xFFFF == Int(b[14]) << 8 | Int(b[15])
    }

    static func report(
        _ inv: Invocation, chip: String, idm: String, path: String, writes: Int, notes: [String]
    ) -> Int32 {
        if inv.flag("json") {
            Console.out(
                JSONValue.object([
                    ("chip", .string(chip)), ("uid", .string(idm)), ("source", .string(path)),
                    ("writes", .int(writes)), ("notes", .array(notes.map { .string($0) })),
                ]).pretty + "\n")
        } else {
            if writes == 0 {
                Console.err("\(chip) \(idm) already holds '\(path)'; nothing written.\n")
            } else {
                Console.err("Restored '\(path)' to \(chip) \(idm): \(writes) writes.\n")
            }
            for n in notes { Console.err("Note: \(n).\n") }
        }
        return 0
    }
}
