public import OpenNFCRF

/// A FeliCa Standard card (JIS X 6319-4 §8.5–§8.6 commands; the FeliCa Card User's Manual's file system: systems,
/// areas and services), with a tree of systems, areas and services defined by its tag file. Frames arrive without LEN
/// and CRC: `code IDm(8) parameters`.
///
/// | Command | Code | Supported | Notes |
/// |---|---|---|---|
/// | Polling | `00` | ✓ | each system answers with its own IDm; `FF` wildcards per byte (the first matching system answers); request codes 00, 01 (system code), 02 (`00 83`: 212 and 424 kbit/s, automatic detection) |
/// | Request Service | `02` | ✓ | key version (little-endian) of each area or service node, `FF FF` when absent; 1–32 nodes |
/// | Request Response | `04` | ✓ | the mode: always 0 (no authentication happens) |
/// | Read Without Encryption | `06` | ✓ | 1–16 services, 1–15 blocks, 2- and 3-byte block-list elements; random and cyclic services without key |
/// | Write Without Encryption | `08` | ✓ | 1–16 services, 1–11 blocks; random RW services, cyclic RW services (block 0: a new record) |
/// | Search Service Code | `0A` | ✓ | the system's areas (code + end) and services in code order, then `FF FF` |
/// | Request System Code | `0C` | ✓ | every system's code, big-endian |
/// | Request Service V2 | `32` | ✓ | encryption identifier `4F` (AES only) and the AES key versions |
/// | Request Specification Version | `3C` | ✓ | format 00, basic version 3.00, no option version (an AES-only card) |
/// | Reset Mode | `3E` | ✓ | back to mode 0 |
/// | Authentication1/2, Read/Write with encryption, purse services, issuance commands | | — | FeliCa's mutual authentication and its key derivation are not public: services that need a key (attribute bit 0 clear) refuse unencrypted access with `SF1 A5`, and purse/cashback access modes are `A7` |
///
/// Status flags (JIS X 6319-4 §8.6; SF1 `FF` for a whole-command error, else the failing element's bit, i mod 8):
/// `A1` service count outside 1–16, `A2` block count or packet length, `A3` service-list index out of range, `A4`
/// write to a read-only service, `A5` a service that needs a key, `A6` a service code the system lacks (SF1 `FF`),
/// `A7` access mode ≠ 0, `A8` block number past the service's blocks (cyclic writes: block ≠ 0).
///
/// Each service code holds its own blocks: overlapping service codes (several codes of one service number over the
/// same data, FeliCa Card User's Manual) are not modelled.
///
/// Tearing: a write command is one transaction: a torn write commits all its blocks (`tearAfter` ≥ 16 × blocks) or
/// none. Polling time slots are the field's.
public final class FeliCaStandardTag: VirtualTag {
    /// One service: its code (little-endian on the wire; low 6 bits the attribute), key version, and blocks.
    public struct Service: Sendable, Hashable {
        public var code: UInt16
        public var keyVersion: UInt16
        public var blocks: [[UInt8]]
        public init(code: UInt16, keyVersion: UInt16 = 0, blocks: [[UInt8]]) {
            self.code = code
            self.keyVersion = keyVersion
            self.blocks = blocks
        }
        /// Attribute bits 5–2: `0010` random, `0011` cyclic, `01xx` purse.
        public var isRandom: Bool { code & 0x3C == 0x08 }
        public var isCyclic: Bool { code & 0x3C == 0x0C }
        public var isPurse: Bool { code & 0x30 == 0x10 }
        /// Attribute bit 0 set: no key needed.
        public var needsKey: Bool { code & 0x01 == 0 }
        /// Attribute bit 1 set on random and cyclic services: read-only.
        public var isReadOnly: Bool { code & 0x02 != 0 }
    }

    /// One area: its code and end code (the service and area codes it spans).
    public struct Area: Sendable, Hashable {
        public var code: UInt16
        public var end: UInt16
        public var keyVersion: UInt16
        public init(code: UInt16, end: UInt16, keyVersion: UInt16 = 0) {
            self.code = code
            self.end = end
            self.keyVersion = keyVersion
        }
    }

    /// One system: its code (big-endian on the wire), IDm, areas and services.
    public struct System: Sendable, Hashable {
        public var code: UInt16
        public var idm: [UInt8]
        public var areas: [Area]
        public var services: [Service]
        public init(code: UInt16, idm: [UInt8], areas: [Area], services: [Service]) {
            self.code = code
            self.idm = idm
            self.areas = areas
            self.services = services
        }
    }

    public var systems: [System]
    public var pmm: [UInt8]
    /// The system the last Polling selected (commands carry its IDm).
    public internal(set) var current = 0
    /// Request Response's mode (0: no authentication).
    var mode: UInt8 = 0
    var lastProgramming = NFCDuration.zero

    /// EEPROM programming of one write command (modelled value).
    public static let writeTime = NFCDuration.microseconds(2_900)
    /// PMm of a FeliCa Standard card: IC code `01` (RC-S915), Read and Write time parameters.
    public static let defaultPMm: [UInt8] = [0x03, 0x01, 0x4B, 0x02, 0x4F, 0x49, 0x93, 0xFF]

    public init(systems: [System], pmm: [UInt8] = FeliCaStandardTag.defaultPMm) {
        precondition(!systems.isEmpty)
        self.systems = systems
        self.pmm = pmm
    }

    public var chip: String { "felica-standard" }

    public var activation: VirtualActivation {
        VirtualActivation(.nfcF(NFCFActivation(idm: systems[0].idm, pmm: pmm, systemCode: systems[0].code)))
    }

    public func reset() { mode = 0 }

    public func processingTime(for frame: [UInt8]) -> NFCDuration { lastProgramming }

    public func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        lastProgramming = .zero
        guard let code = frame.first else { return .silence }
        if code == 0x00 { return polling(frame) }
        guard frame.count >= 9, let s = systems.firstIndex(where: { $0.idm == Array(frame[1..<9]) }) else {
            return .silence
        }
        current = s
        let idm = systems[s].idm
        let p = Array(frame[9...])
        let body: [UInt8]?
        switch code {
        case 0x02: body = requestService(p, v2: false)
        case 0x04: body = p.isEmpty ? [mode] : nil
        case 0x06: body = read(p)
        case 0x08:
            guard let status = write(p, tearAfter: tearAfter) else { return .silence }
            body = status
        case 0x0A: body = p.count == 2 ? searchServiceCode(Int(p[0]) | Int(p[1]) << 8) : nil
        case 0x0C:
            body =
                p.isEmpty
                ? [UInt8(systems.count)] + systems.flatMap { [UInt8($0.code >> 8), UInt8($0.code & 0xFF)] } : nil
        case 0x32: body = requestService(p, v2: true)
        case 0x3C: body = p == [0x00, 0x00] ? [0x00, 0x00, 0x00, 0x00, 0x03, 0x00] : nil
        case 0x3E:
            guard p == [0x00, 0x00] else { return .silence }
            mode = 0
            body = [0x00, 0x00]
        default: body = nil
        }
        guard let body else { return .silence }
        return .data([code &+ 1] + idm + body)
    }

    func polling(_ f: [UInt8]) -> VirtualAnswer {
        guard f.count == 5 else { return .silence }
        guard
            let k = systems.firstIndex(where: { sys in
                (f[1] == 0xFF || f[1] == UInt8(sys.code >> 8)) && (f[2] == 0xFF || f[2] == UInt8(sys.code & 0xFF))
            })
        else { return .silence }
        current = k
        mode = 0
        var answer = [0x01] + systems[k].idm + pmm
        switch f[3] {
        case 0x01: answer += [UInt8(systems[k].code >> 8), UInt8(systems[k].code & 0xFF)]
        case 0x02: answer += [0x00, 0x83]
        default: break
        }
        return .data(answer)
    }

    /// The key version of node `code` in the current system: area 0000 and the areas and services it holds.
    func keyVersion(_ code: UInt16) -> UInt16? {
        let sys = systems[current]
        if let a = sys.areas.first(where: { $0.code == code }) { return a.keyVersion }
        if let s = sys.services.first(where: { $0.code == code }) { return s.keyVersion }
        return nil
    }

    func requestService(_ p: [UInt8], v2: Bool) -> [UInt8]? {
        guard let n = p.first.map(Int.init), (1...32).contains(n), p.count == 1 + 2 * n else { return nil }
        let versions = (0..<n).map { i in keyVersion(UInt16(p[1 + 2 * i]) | UInt16(p[2 + 2 * i]) << 8) }
        let bytes = versions.flatMap { v in v.map { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } ?? [0xFF, 0xFF] }
        return v2 ? [0x00, 0x00, 0x4F, UInt8(n)] + bytes : [UInt8(n)] + bytes
    }

    /// Search Service Code: the nodes of the system in code order, areas as code + end, services as code.
    func searchServiceCode(_ index: Int) -> [UInt8] {
        let sys = systems[current]
        var nodes: [(code: UInt16, end: UInt16?)] =
            sys.areas.map { ($0.code, $0.end) } + sys.services.map { ($0.code, nil) }
        nodes.sort { $0.code < $1.code }
        guard index < nodes.count else { return [0xFF, 0xFF] }
        let n = nodes[index]
        let code: [UInt8] = [UInt8(n.code & 0xFF), UInt8(n.code >> 8)]
        return n.end.map { code + [UInt8($0 & 0xFF), UInt8($0 >> 8)] } ?? code
    }

    /// Parses `nSvc svc… nBlk elements…`: the services (indices into the system's), elements and where they end.
    func parseBlocks(_ p: [UInt8], maxBlocks: Int) -> Result<
        ([Int], [FeliCaBlockElement], Int), FeliCaLiteSTag.BlockStatus
    > {
        typealias S = FeliCaLiteSTag.BlockStatus
        guard let nSvc = p.first.map(Int.init) else { return .failure(S(0xFF, 0xA2)) }
        guard (1...16).contains(nSvc) else { return .failure(S(0xFF, 0xA1)) }
        guard p.count >= 2 + 2 * nSvc else { return .failure(S(0xFF, 0xA2)) }
        var services: [Int] = []
        for i in 0..<nSvc {
            let code = UInt16(p[1 + 2 * i]) | UInt16(p[2 + 2 * i]) << 8
            guard let k = systems[current].services.firstIndex(where: { $0.code == code }) else {
                return .failure(S(0xFF, 0xA6))
            }
            services.append(k)
        }
        let nBlk = Int(p[1 + 2 * nSvc])
        guard (1...maxBlocks).contains(nBlk) else { return .failure(S(0xFF, 0xA2)) }
        var offset = 2 + 2 * nSvc
        guard let elements = FeliCaBlockElement.parse(p, count: nBlk, offset: &offset) else {
            return .failure(S(0xFF, 0xA2))
        }
        for (i, e) in elements.enumerated() {
            let flag = FeliCaBlockElement.flag(i)
            guard e.serviceIndex < nSvc else { return .failure(S(flag, 0xA3)) }
            guard e.accessMode == 0 else { return .failure(S(flag, 0xA7)) }
            if systems[current].services[services[e.serviceIndex]].needsKey { return .failure(S(flag, 0xA5)) }
        }
        return .success((services, elements, offset))
    }

    func read(_ p: [UInt8]) -> [UInt8] {
        let (services, elements, end): ([Int], [FeliCaBlockElement], Int)
        switch parseBlocks(p, maxBlocks: 15) {
        case .failure(let s): return s.bytes
        case .success(let r): (services, elements, end) = r
        }
        guard end == p.count else { return [0xFF, 0xA2] }
        var data: [UInt8] = []
        for (i, e) in elements.enumerated() {
            let svc = systems[current].services[services[e.serviceIndex]]
            guard !svc.isPurse, e.block < svc.blocks.count else { return [FeliCaBlockElement.flag(i), 0xA8] }
            data += svc.blocks[e.block]
        }
        return [0x00, 0x00, UInt8(elements.count)] + data
    }

    func write(_ p: [UInt8], tearAfter: Int?) -> [UInt8]? {
        let (services, elements, end): ([Int], [FeliCaBlockElement], Int)
        switch parseBlocks(p, maxBlocks: 11) {
        case .failure(let s): return tearAfter == nil ? s.bytes : nil
        case .success(let r): (services, elements, end) = r
        }
        guard p.count == end + 16 * elements.count else { return tearAfter == nil ? [0xFF, 0xA2] : nil }
        for (i, e) in elements.enumerated() {
            let svc = systems[current].services[services[e.serviceIndex]]
            let flag = FeliCaBlockElement.flag(i)
            if svc.isReadOnly || svc.isPurse { return tearAfter == nil ? [flag, 0xA4] : nil }
            let ok = svc.isCyclic ? e.block == 0 : e.block < svc.blocks.count
            if !ok { return tearAfter == nil ? [flag, 0xA8] : nil }
        }
        if let t = tearAfter, t < 16 * elements.count { return nil }
        for (i, e) in elements.enumerated() {
            let k = services[e.serviceIndex]
            let data = Array(p[end + 16 * i..<end + 16 * i + 16])
            if systems[current].services[k].isCyclic {
                var blocks = systems[current].services[k].blocks
                blocks.insert(data, at: 0)
                blocks.removeLast()
                systems[current].services[k].blocks = blocks
            } else {
                systems[current].services[k].blocks[e.block] = data
            }
        }
        lastProgramming = Self.writeTime
        return tearAfter == nil ? [0x00, 0x00] : nil
    }
}
