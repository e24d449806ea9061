/// Read and Write Without Encryption over the Lite-S block map, with the access rules of the FeliCa Lite-S User's
/// Manual §3.2–§3.3 (block by block) and the status flags of §5.3.
///
/// | Block | Read | Write |
/// |---|---|---|
/// | `00`–`0D` S_PAD | yes; with the MC read-restricted bit (bytes 6–7) only after external authentication (`B1`) | MC bytes 0–1 bit set (else `A8`); the write-restricted bit (bytes 8–9) needs external authentication (`B1`); the write-with-MAC bit (bytes 10–11) needs MAC_A (`B2`) |
/// | `0E` REG | as S_PAD (bit 14) | as S_PAD; A (bytes 0–3) and B (4–7), little-endian, may only decrease, else `A8` |
/// | `80` RC | reads 00 | always: starts a session (session key from RC and CK) |
/// | `81` MAC | with at least one block before it (else `A8`); `B2` without a session | no (`A8`) |
/// | `82` ID | yes | bytes 8–15 only, while MC byte 2 is `FF` |
/// | `83` D_ID | IDm, PMm | no |
/// | `84` SER_C, `85` SYS_C | yes | while MC byte 2 is `FF` |
/// | `86` CKV, `87` CK | CKV yes, CK reads 00 | while MC byte 2 is `FF`, or with MAC_A when MC byte 5 bit 0 is set |
/// | `88` MC | yes | bytes 0–1 can only be cleared (AND), bytes 2–5 are replaced only while MC byte 2 is `FF`, bytes 6–12 can only be set (OR), bytes 13–15 stay 00; bit 15 of bytes 0–1 clear freezes bytes 0–1 |
/// | `90` WCNT | yes | no |
/// | `91` MAC_A | MAC_A over the blocks before it, then WCNT; `B2` without a session; `B0` together with MAC | only as the second element of a write with MAC |
/// | `92` STATE | byte 0 = 01 after external authentication | only with MAC_A (`B2`); byte 0 bit 0 is the external authentication |
/// | `A0` CRC_CHECK | 00 | no |
extension FeliCaLiteSTag {
    static let readService: [UInt8] = [0x0B, 0x00]
    static let writeService: [UInt8] = [0x09, 0x00]
    static let readableSystemBlocks: Set<Int> = [
        0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x90, 0x91, 0x92, 0xA0,
    ]

    /// The 16 bytes of block `b` as a read returns them (MAC and MAC_A excluded: they depend on the read).
    func blockData(_ b: Int) -> [UInt8]? {
        switch b {
        case 0x00...0x0E: return user[b]
        case 0x80, 0x87, 0xA0: return [UInt8](repeating: 0, count: 16)
        case 0x82: return idm + idData
        case 0x83: return idm + pmm
        case 0x84: return serC
        case 0x85: return sysC
        case 0x86: return ckv
        case 0x88: return mc
        case 0x90: return counterBytes + [UInt8](repeating: 0, count: 13)
        case 0x92: return [externallyAuthenticated ? 0x01 : 0x00] + [UInt8](repeating: 0, count: 15)
        default: return nil
        }
    }

    /// WCNT as 3 bytes, little-endian.
    var counterBytes: [UInt8] {
        [UInt8(writeCount & 0xFF), UInt8(writeCount >> 8 & 0xFF), UInt8(writeCount >> 16 & 0xFF)]
    }

    /// Bit `b` (0–15) of a 2-byte little-endian field of the effective MC at `offset`.
    func mcBit(_ offset: Int, _ b: Int) -> Bool {
        let word = Int(effectiveMC[offset]) | Int(effectiveMC[offset + 1]) << 8
        return word >> b & 1 != 0
    }

    /// Parses the common head of both commands: `IDm nSvc svc… nBlk elements…` from byte 9. Returns the elements and
    /// the offset after them, or the whole-command status flags.
    func parseBlockCommand(_ f: [UInt8], service: [UInt8], counts: ClosedRange<Int>) -> Result<
        ([FeliCaBlockElement], Int), BlockStatus
    > {
        guard f.count >= 10 else { return .failure(BlockStatus(0xFF, 0xA2)) }
        guard f[9] == 1 else { return .failure(BlockStatus(0xFF, 0xA1)) }
        guard f.count >= 13 else { return .failure(BlockStatus(0xFF, 0xA2)) }
        let n = Int(f[12])
        guard counts.contains(n) else { return .failure(BlockStatus(0xFF, 0xA2)) }
        var offset = 13
        guard let elements = FeliCaBlockElement.parse(f, count: n, offset: &offset) else {
            return .failure(BlockStatus(0xFF, 0xA2))
        }
        guard Array(f[10..<12]) == service else { return .failure(BlockStatus(0x01, 0xA6)) }
        for (i, e) in elements.enumerated() {
            if e.serviceIndex != 0 { return .failure(BlockStatus(FeliCaBlockElement.flag(i), 0xA3)) }
            if e.accessMode != 0 { return .failure(BlockStatus(FeliCaBlockElement.flag(i), 0xA7)) }
        }
        return .success((elements, offset))
    }

    /// Read Without Encryption; the answer after `07 IDm`: `SF1 SF2 [n data]`.
    func read(_ f: [UInt8]) -> [UInt8] {
        let elements: [FeliCaBlockElement]
        switch parseBlockCommand(f, service: Self.readService, counts: 1...4) {
        case .failure(let s): return s.bytes
        case .success(let (e, end)):
            guard end == f.count else { return [0xFF, 0xA2] }
            elements = e
        }
        var data: [UInt8] = []
        var readBlocks: [Int] = []
        var sawMAC = false
        for (i, e) in elements.enumerated() {
            let flag = FeliCaBlockElement.flag(i)
            let b = e.block
            guard (0x00...0x0E).contains(b) || Self.readableSystemBlocks.contains(b) else { return [flag, 0xA8] }
            if b <= 0x0E, mcBit(6, b), !externallyAuthenticated { return [flag, 0xB1] }
            switch b {
            case 0x81, 0x91:
                if sawMAC { return [flag, 0xB0] }
                sawMAC = true
                guard !readBlocks.isEmpty || b == 0x91 else { return [flag, 0xA8] }
                guard let key = sessionKey, let rc else { return [flag, 0xB2] }
                if b == 0x81 {
                    guard let mac = Self.mac(data, key: key, iv: Self.ivFrom(rc)) else { return [flag, 0xB2] }
                    data += mac + [UInt8](repeating: 0, count: 8)
                } else {
                    let head = Self.readMACHead(readBlocks)
                    guard let mac = Self.mac(head + data, key: key, iv: Self.ivFrom(rc)) else { return [flag, 0xB2] }
                    data += mac + counterBytes + [UInt8](repeating: 0, count: 5)
                }
            default:
                guard let d = blockData(b) else { return [flag, 0xA8] }
                data += d
            }
            readBlocks.append(b)
        }
        return [0x00, 0x00, UInt8(elements.count)] + data
    }

    /// Write Without Encryption; the answer after `09 IDm`: `SF1 SF2`, or nil (silence) for a torn write.
    func write(_ f: [UInt8], tearAfter: Int?) -> [UInt8]? {
        let status = applyWrite(f, tearAfter: tearAfter)
        return tearAfter == nil ? status.bytes : nil
    }

    func applyWrite(_ f: [UInt8], tearAfter: Int?) -> BlockStatus {
        let elements: [FeliCaBlockElement]
        let dataStart: Int
        switch parseBlockCommand(f, service: Self.writeService, counts: 1...2) {
        case .failure(let s): return s
        case .success(let (e, end)):
            elements = e
            dataStart = end
        }
        guard f.count == dataStart + 16 * elements.count else { return BlockStatus(0xFF, 0xA2) }
        guard elements.count == 1 || elements[1].block == 0x91 else { return BlockStatus(0xFF, 0xA2) }
        let block = elements[0].block
        let data = Array(f[dataStart..<dataStart + 16])
        var withMAC = false
        if elements.count == 2 {
            guard let key = sessionKey, let rc else { return BlockStatus(0x02, 0xB2) }
            let macA = Array(f[dataStart + 16..<dataStart + 24])
            let head = counterBytes + [0x00, UInt8(block & 0xFF), 0x00, 0x91, 0x00]
            let flipped = Array(key[8..<16] + key[0..<8])
            guard let expected = Self.mac(head + data, key: flipped, iv: Self.ivFrom(rc)), expected == macA else {
                return BlockStatus(0x02, 0xB2)
            }
            withMAC = true
        }
        let systemOpen = effectiveMC[2] == 0xFF
        let limit = systemOpen ? Self.counterLimitOpen : Self.counterLimitLocked
        guard writeCount < limit else { return BlockStatus(0x01, 0xA9) }
        var commit: () -> Void
        switch block {
        case 0x00...0x0E:
            guard mcBit(0, block) else { return BlockStatus(0x01, 0xA8) }
            if mcBit(8, block), !externallyAuthenticated { return BlockStatus(0x01, 0xB1) }
            if mcBit(10, block), !withMAC { return BlockStatus(0x01, 0xB2) }
            if block == 0x0E {
                let old = user[0x0E]
                guard Self.le32(data, 0) <= Self.le32(old, 0), Self.le32(data, 4) <= Self.le32(old, 4) else {
                    return BlockStatus(0x01, 0xA8)
                }
            }
            commit = { self.user[block] = data }
        case 0x80:
            commit = { self.startSession(data) }
        case 0x82:
            guard systemOpen else { return BlockStatus(0x01, 0xA8) }
            commit = { self.idData = Array(data[8..<16]) }
        case 0x84, 0x85:
            guard systemOpen else { return BlockStatus(0x01, 0xA8) }
            commit = { if block == 0x84 { self.serC = data } else { self.sysC = data } }
        case 0x86, 0x87:
            guard systemOpen || (withMAC && effectiveMC[5] & 0x01 != 0) else { return BlockStatus(0x01, 0xA8) }
            commit = { if block == 0x86 { self.ckv = data } else { self.ck = data } }
        case 0x88:
            commit = { self.mc = self.mergedMC(data) }
        case 0x92:
            guard withMAC else { return BlockStatus(0x01, 0xB2) }
            commit = { self.externallyAuthenticated = data[0] & 0x01 != 0 }
        default:
            return BlockStatus(0x01, 0xA8)
        }
        if let t = tearAfter, t < 16 { return BlockStatus(0x00, 0x00) }
        commit()
        writeCount += 1
        lastProgramming = Self.blockWriteTime
        if !systemOpen, (0x00_1027...0xFF_FDFF).contains(writeCount) { return BlockStatus(0xFF, 0x71) }
        return BlockStatus(0x00, 0x00)
    }

    /// The MC after writing `new` over the stored one (the merge rules of the extension's table).
    func mergedMC(_ new: [UInt8]) -> [UInt8] {
        var m = mc
        if mcBit(0, 15) {
            m[0] &= new[0]
            m[1] &= new[1]
        }
        if effectiveMC[2] == 0xFF {
            for i in 2...5 { m[i] = new[i] }
        }
        for i in 6...12 { m[i] |= new[i] }
        for i in 13...15 { m[i] = 0 }
        return m
    }

    static func le32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    /// Status flags of one command.
    struct BlockStatus: Sendable, Hashable, Error {
        var sf1: UInt8
        var sf2: UInt8
        init(_ sf1: UInt8, _ sf2: UInt8) {
            self.sf1 = sf1
            self.sf2 = sf2
        }
        var bytes: [UInt8] { [sf1, sf2] }
    }
}
