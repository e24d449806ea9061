import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// FeliCa commands the CLI's Type 3 `dump` and `restore` send (JIS X 6319-4 §8.5–§8.6: Polling, Request Service,
/// Read and Write Without Encryption, Search Service Code, Request System Code), over a frontend in the FeliCa
/// frame mode: frames without LEN and CRC, `code IDm parameters`; service codes little-endian, system codes
/// big-endian. Status flags other than `00 00` are returned to the caller (a read past a service's last block is
/// how its size is found); silence and garbled answers are one-line failures.
struct FeliCaRequests {
    let frontend: any RFFrontend

    /// What a Read or Write Without Encryption answered.
    enum Outcome: Equatable {
        case done([[UInt8]])
        case refused(sf1: UInt8, sf2: UInt8)
    }

    /// The answer after `code+1 IDm`, checked for its response code and IDm.
    func send(_ code: UInt8, _ idm: [UInt8], _ parameters: [UInt8], doing what: String) throws(CLIError) -> [UInt8] {
        let response: RFResponse
        do {
            response = try frontend.exchange([code] + idm + parameters)
        } catch {
            switch error.code {
            case .timeout: throw CLIError.failure("the card did not answer while trying to \(what)")
            case .linkLost:
                throw CLIError.failure("the card left the field while trying to \(what); hold it still and try again")
            default: throw CLIError.failure("cannot \(what): \(error)")
            }
        }
        guard case .frame(let b) = response, b.count >= 9, b[0] == code &+ 1, Array(b[1..<9]) == idm else {
            throw CLIError.failure(
                "the card answered \(response) instead of response \(Hex.encode([code &+ 1])) while "
                    + "trying to \(what)")
        }
        return Array(b[9...])
    }

    /// Polling for `systemCode` (request code 00, one slot): the IDm of the system that answered, nil for silence.
    func polling(_ systemCode: UInt16) throws(CLIError) -> [UInt8]? {
        let frame: [UInt8] = [0x00, UInt8(systemCode >> 8), UInt8(systemCode & 0xFF), 0x00, 0x00]
        let response: RFResponse
        do {
            response = try frontend.exchange(frame)
        } catch {
            if error.code == .timeout { return nil }
            throw CLIError.failure("cannot poll system \(Self.hex4(systemCode)): \(error)")
        }
        guard case .frame(let b) = response, b.count >= 17, b[0] == 0x01 else {
            throw CLIError.failure("the card's answer to Polling \(Self.hex4(systemCode)) is not 01 IDm PMm")
        }
        return Array(b[1..<9])
    }

    /// Request System Code (`0C`): every system's code, in the card's order.
    func systemCodes(_ idm: [UInt8]) throws(CLIError) -> [UInt16] {
        let a = try send(0x0C, idm, [], doing: "request the system codes")
        guard let n = a.first.map(Int.init), a.count == 1 + 2 * n else {
            throw CLIError.failure("the card's Request System Code answer has \(a.count) bytes, not 1 + 2 × count")
        }
        return (0..<n).map { i in UInt16(a[1 + 2 * i]) << 8 | UInt16(a[2 + 2 * i]) }
    }

    /// Search Service Code (`0A`) at `index`: an area (code and end) or a service, nil past the last (`FF FF`).
    func searchServiceCode(_ idm: [UInt8], index: Int) throws(CLIError) -> (code: UInt16, end: UInt16?)? {
        let a = try send(0x0A, idm, [UInt8(index & 0xFF), UInt8(index >> 8)], doing: "search service code \(index)")
        guard a.count == 2 || a.count == 4 else {
            throw CLIError.failure("the card's Search Service Code answer at \(index) has \(a.count) bytes, not 2 or 4")
        }
        let code = UInt16(a[0]) | UInt16(a[1]) << 8
        if code == 0xFFFF { return nil }
        return (code, a.count == 4 ? UInt16(a[2]) | UInt16(a[3]) << 8 : nil)
    }

    /// Request Service (`02`): the key version of each node, nil where the card answers `FF FF` (absent).
    func keyVersions(_ idm: [UInt8], _ nodes: [UInt16]) throws(CLIError) -> [UInt16?] {
        var out: [UInt16?] = []
        var i = 0
        while i < nodes.count {
            let group = Array(nodes[i..<min(i + 32, nodes.count)])
            let a = try send(0x02, idm, [UInt8(group.count)] + group.flatMap(Self.le), doing: "request key versions")
            guard a.count == 1 + 2 * group.count, Int(a[0]) == group.count else {
                throw CLIError.failure(
                    "the card's Request Service answer has \(a.count) bytes for \(group.count) nodes")
            }
            for k in 0..<group.count {
                let v = UInt16(a[1 + 2 * k]) | UInt16(a[2 + 2 * k]) << 8
                out.append(v == 0xFFFF ? nil : v)
            }
            i += group.count
        }
        return out
    }

    /// Read Without Encryption (`06`) of `blocks` of one service.
    func read(_ idm: [UInt8], service: UInt16, blocks: [Int]) throws(CLIError) -> Outcome {
        let what =
            "read block\(blocks.count == 1 ? "" : "s") \(blocks.map(String.init).joined(separator: ",")) of "
            + "service \(Self.hex4(service))"
        let a = try send(
            0x06, idm, [0x01] + Self.le(service) + [UInt8(blocks.count)] + Self.elements(blocks), doing: what)
        guard a.count >= 2 else { throw CLIError.failure("the card's answer to \(what) has no status flags") }
        guard a[0] == 0x00 else { return .refused(sf1: a[0], sf2: a[1]) }
        guard a.count == 3 + 16 * blocks.count, Int(a[2]) == blocks.count else {
            throw CLIError.failure("the card answered \(a.count) bytes to \(what), not \(3 + 16 * blocks.count)")
        }
        return .done((0..<blocks.count).map { k in Array(a[3 + 16 * k..<19 + 16 * k]) })
    }

    /// Write Without Encryption (`08`) of one block; a refusal is a failure naming its status flags.
    func write(_ idm: [UInt8], service: UInt16, block: Int, _ data: [UInt8]) throws(CLIError) {
        let what = "write block \(block) of service \(Self.hex4(service))"
        let a = try send(0x08, idm, [0x01] + Self.le(service) + [0x01] + Self.elements([block]) + data, doing: what)
        guard a.count == 2 else { throw CLIError.failure("the card's answer to \(what) has \(a.count) bytes, not 2") }
        guard a[0] == 0x00 else {
            throw CLIError.failure(
                "the card refused to \(what): status flags \(Hex.encode(a, separator: " ")) "
                    + "(\(Self.statusName(a[1])))")
        }
    }

    /// Reads blocks 0, 1, … of `service` until the card answers "no such block" (`A8`): a run of up to `batch`
    /// blocks per command, then the blocks before the failing element once more. Any other refusal ends the walk
    /// and is returned with what was read.
    func readAll(_ idm: [UInt8], service: UInt16, batch: Int) throws(CLIError) -> (
        blocks: [[UInt8]], refusal: (sf1: UInt8, sf2: UInt8)?
    ) {
        var blocks: [[UInt8]] = []
        while blocks.count <= 0xFFFF {
            let n = min(batch, 0x1_0000 - blocks.count)
            let run = Array(blocks.count..<blocks.count + n)
            switch try read(idm, service: service, blocks: run) {
            case .done(let b): blocks += b
            case .refused(let sf1, let sf2):
                let failing = (0..<min(n, 8)).first { sf1 == 1 << UInt8($0) }
                if sf2 == 0xA8, let k = failing {
                    if k > 0, case .done(let b) = try read(idm, service: service, blocks: Array(run.prefix(k))) {
                        blocks += b
                    }
                    return (blocks, nil)
                }
                return (blocks, (sf1, sf2))
            }
        }
        return (blocks, nil)
    }

    /// Blocks per Read on this frontend: the answer `07 IDm SF1 SF2 n data` fits, at most 8 (SF1 names one of 8).
    var readBatch: Int { max(1, min(8, (min(frontend.capabilities.maxResponseSize, 254) - 12) / 16)) }

    static func le(_ c: UInt16) -> [UInt8] { [UInt8(c & 0xFF), UInt8(c >> 8)] }
    static func hex4(_ c: UInt16) -> String { Hex.encode([UInt8(c >> 8), UInt8(c & 0xFF)]) }

    /// Block-list elements, service index 0, access mode 0: 2-byte up to block 255, 3-byte past it.
    static func elements(_ blocks: [Int]) -> [UInt8] {
        blocks.flatMap { b -> [UInt8] in b < 256 ? [0x80, UInt8(b)] : [0x00, UInt8(b & 0xFF), UInt8(b >> 8)] }
    }

    /// SF2 in words (JIS X 6319-4 §8.6; FeliCa Lite-S User's Manual §5.3).
    static func statusName(_ sf2: UInt8) -> String {
        switch sf2 {
        case 0xA1: "service count"
        case 0xA2: "block count or packet length"
        case 0xA3: "service list index"
        case 0xA4: "read-only service"
        case 0xA5: "needs a key"
        case 0xA6: "no such service"
        case 0xA7: "access mode"
        case 0xA8: "no such block, or not writable"
        case 0xA9: "write counter exhausted"
        case 0xB1: "needs external authentication"
        case 0xB2: "needs MAC_A"
        default: "status \(Hex.encode([sf2]))"
        }
    }
}

/// `opennfc dump` and `opennfc restore` for NFC Forum Type 3 (FeliCa). A FeliCa Lite-S (PMm IC code `F1`): every
/// block a Read Without Encryption returns without authentication (S_PAD0–13, REG, ID, D_ID, SER_C, SYS_C, CKV, MC,
/// WCNT, STATE, CRC_CHECK; FeliCa Lite-S User's Manual §3.2), four per command. Any other FeliCa card is read as a
/// FeliCa Standard: Request System Code, then for each system Polling (its own IDm), Search Service Code for its
/// areas and services, Request Service for their key versions, and Read Without Encryption of every block of every
/// service that needs no key (attribute bit 0 set); services that need one are listed, not read.
enum Type3Dump {
    /// PMm byte 1, the IC code: `F0` Lite (RC-S965), `F1` Lite-S (RC-S966), `F2` FeliCa Link in Lite-S mode.
    static func icCode(_ target: RFTarget) -> UInt8? { target.nfcF.map { $0.pmm[1] } }

    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        let requests = FeliCaRequests(frontend: tag.frontend)
        let pmm = tag.target.nfcF?.pmm ?? []
        if let ic = icCode(tag.target), [0xF0, 0xF1, 0xF2].contains(ic) {
            let image = try readLiteS(requests, idm: tag.target.identifier)
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
        let image = try readStandard(requests, target: tag.target)
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
                    + keyed.map { "\(FeliCaRequests.hex4($0.0.code)) (system \(FeliCaRequests.hex4($0.1)))" }
                    .joined(separator: ", ") + ".\n"
            }
            return s
        }
        return 0
    }

    // MARK: FeliCa Lite-S

    /// The Lite-S blocks a dump reads, with their names (Lite-S User's Manual §3.2 Table 3-1).
    static let liteSBlocks: [(block: Int, name: String)] =
        (0..<14).map { ($0, "S_PAD\($0)") } + [
            (0x0E, "REG"), (0x82, "ID"), (0x83, "D_ID"), (0x84, "SER_C"), (0x85, "SYS_C"), (0x86, "CKV"),
            (0x88, "MC"), (0x90, "WCNT"), (0x92, "STATE"), (0xA0, "CRC_CHECK"),
        ]

    /// Block number → its 16 bytes, or the status flags that refused it.
    typealias LiteSImage = [Int: Result<[UInt8], LiteSRefusal>]
    struct LiteSRefusal: Error, Equatable {
        var sf1: UInt8
        var sf2: UInt8
    }

    static func readLiteS(_ r: FeliCaRequests, idm: [UInt8]) throws(CLIError) -> LiteSImage {
        var image: LiteSImage = [:]
        let numbers = liteSBlocks.map(\.block)
        var i = 0
        while i < numbers.count {
            let group = Array(numbers[i..<min(i + 4, numbers.count)])
            switch try r.read(idm, service: 0x000B, blocks: group) {
            case .done(let blocks):
                for (b, d) in zip(group, blocks) { image[b] = .success(d) }
            case .refused:
                // One at a time: which of the four is refused (a read-restricted S_PAD needs authentication).
                for b in group {
                    switch try r.read(idm, service: 0x000B, blocks: [b]) {
                    case .done(let d): image[b] = .success(d[0])
                    case .refused(let sf1, let sf2): image[b] = .failure(LiteSRefusal(sf1: sf1, sf2: sf2))
                    }
                }
            }
            i += group.count
        }
        return image
    }

    static func liteSListing(_ image: LiteSImage, idm: [UInt8], pmm: [UInt8]) -> String {
        let ic = pmm.count == 8 ? pmm[1] : 0
        let product =
            ic == 0xF1 ? "FeliCa Lite-S (RC-S966)" : ic == 0xF0 ? "FeliCa Lite (RC-S965)" : "FeliCa Link (Lite-S mode)"
        var s = "Tag:      \(product), IDm \(Hex.encode(idm)), PMm \(Hex.encode(pmm))\n"
        s += "Block  Bytes                                            Name\n"
        for (b, name) in liteSBlocks {
            let bytes: String
            switch image[b] {
            case .success(let d)?: bytes = Hex.encode(d, separator: " ")
            case .failure(let f)?:
                bytes =
                    "-- (refused: \(Hex.encode([f.sf1, f.sf2], separator: " ")), \(FeliCaRequests.statusName(f.sf2)))"
            case nil: bytes = "--"
            }
            let pad = String(repeating: " ", count: max(0, 47 - bytes.count))
            s += "  \(Hex.encode([UInt8(b)]))   \(bytes)\(pad)  \(name)\n"
        }
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
                    "block \(Hex.encode([UInt8(b)])) was refused (\(FeliCaRequests.statusName(f.sf2))); a tag file "
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

    struct StandardImage {
        var systems: [SystemImage]
    }

    struct SystemImage {
        var code: UInt16
        var idm: [UInt8]
        var areas: [(code: UInt16, end: UInt16, keyVersion: UInt16?)]
        var services: [ServiceImage]
    }

    struct ServiceImage {
        var code: UInt16
        var keyVersion: UInt16?
        /// The blocks read; nil for a service that needs a key (not read).
        var blocks: [[UInt8]]?
        /// What ended the read other than "no such block".
        var refusal: (sf1: UInt8, sf2: UInt8)?

        var needsKey: Bool { code & 0x01 == 0 }
        var kind: String {
            switch code & 0x3C {
            case 0x08: "random"
            case 0x0C: "cyclic"
            case 0x10, 0x14, 0x18, 0x1C: "purse"
            default: "other"
            }
        }
        var isReadOnly: Bool { code & 0x02 != 0 }
        /// Writable without a key: a random or cyclic read/write service without key.
        var isWritable: Bool { !needsKey && !isReadOnly && (kind == "random" || kind == "cyclic") }
    }

    static func readStandard(_ r: FeliCaRequests, target: RFTarget) throws(CLIError) -> StandardImage {
        let first = target.identifier
        let codes = try r.systemCodes(first)
        var systems: [SystemImage] = []
        for (k, code) in codes.enumerated() {
            let idm: [UInt8]
            if k == 0 && (target.nfcF?.systemCode == nil || target.nfcF?.systemCode == code) {
                idm = first
            } else {
                guard let answered = try r.polling(code) else {
                    throw CLIError.failure("system \(FeliCaRequests.hex4(code)) did not answer Polling")
                }
                idm = answered
            }
            var nodes: [(code: UInt16, end: UInt16?)] = []
            while nodes.count < 0x1_0000, let node = try r.searchServiceCode(idm, index: nodes.count) {
                nodes.append(node)
            }
            let versions = try r.keyVersions(idm, nodes.map(\.code))
            var system = SystemImage(code: code, idm: idm, areas: [], services: [])
            for (node, version) in zip(nodes, versions) {
                if let end = node.end {
                    system.areas.append((node.code, end, version))
                    continue
                }
                var service = ServiceImage(code: node.code, keyVersion: version, blocks: nil, refusal: nil)
                if !service.needsKey {
                    let (blocks, refusal) = try r.readAll(idm, service: node.code, batch: r.readBatch)
                    service.blocks = blocks
                    service.refusal = refusal
                }
                system.services.append(service)
            }
            systems.append(system)
        }
        return StandardImage(systems: systems)
    }

    static func standardListing(_ image: StandardImage, pmm: [UInt8]) -> String {
        let hex4 = FeliCaRequests.hex4
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
                    line += "\(FeliCaRequests.statusName(f.sf2)))"
                }
                s += line + "\n"
                for (i, b) in blocks.enumerated() {
                    let num = String(repeating: " ", count: max(0, 4 - String(i).count)) + String(i)
                    let ascii = String(b.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." })
                    s += "    \(num)  \(Hex.encode(b, separator: " "))  \(ascii)\n"
                }
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
            let r = FeliCaRequests(frontend: session.frontend)
            let card = try readStandard(r, target: target)
            var plan: [(idm: [UInt8], service: UInt16, block: Int, data: [UInt8])] = []
            var skipped: [String] = []
            for sys in source.systems {
                guard let mine = card.systems.first(where: { $0.code == sys.code }),
                    Set(mine.services.map(\.code)) == Set(sys.services.map(\.code))
                else {
                    throw CLIError.failure(
                        "'\(path)' has system \(FeliCaRequests.hex4(sys.code)) with services "
                            + sys.services.map { FeliCaRequests.hex4($0.code) }.joined(separator: " ")
                            + "; the card in the field does not: restore writes only to a card with the same "
                            + "systems and services")
                }
                for v in sys.services {
                    let have = mine.services.first { $0.code == v.code }!
                    guard have.isWritable else {
                        if let b = have.blocks, b != v.blocks { skipped.append(FeliCaRequests.hex4(v.code)) }
                        continue
                    }
                    let now = have.blocks ?? []
                    guard now.count == v.blocks.count else {
                        throw CLIError.failure(
                            "service \(FeliCaRequests.hex4(v.code)) has \(v.blocks.count) blocks in '\(path)' and "
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
            for w in plan { try r.write(w.idm, service: w.service, block: w.block, w.data) }
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
            let r = FeliCaRequests(frontend: session.frontend)
            let idm = target.identifier
            let image = try readLiteS(r, idm: idm)
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
            for (b, d) in writes { try r.write(idm, service: 0x0009, block: b, d) }
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
                Console.out("\(chip) \(idm) already holds '\(path)'; nothing written.\n")
            } else {
                Console.out("Restored '\(path)' to \(chip) \(idm): \(writes) writes.\n")
            }
            for n in notes { Console.out("Note: \(n).\n") }
        }
        return 0
    }
}
