internal import OpenNFCBytes
internal import OpenNFCCrypto

/// Security level 3 (and the AES authentication of SL1): the three-pass AES authentication, EV0 secure messaging,
/// Read and Write in each communication mode (MIFARE Plus EV1 datasheet §8.7–§8.9; the EV0 secure messaging that
/// MIFARE Plus EV1 and EV2 both start in).
///
/// | Step | Card side |
/// |---|---|
/// | `70 KeyNr LenCap PCDcap2` / `76 KeyNr` | RndB drawn, `90 ‖ E(K, RndB)`: CBC with a zero IV (first) or the response IV (following) |
/// | `72 E(RndA ‖ RndB<<<1)` | decrypted with a zero IV (first) or the command IV; RndB<<<1 checked (`06` otherwise) |
/// | session keys | Kenc = E(K, RndA[11..15] ‖ RndB[11..15] ‖ (RndA[4..8] ⊕ RndB[4..8]) ‖ `11`), Kmac = E(K, RndA[7..11] ‖ RndB[7..11] ‖ (RndA[0..4] ⊕ RndB[0..4]) ‖ `22`) |
/// | first answer | `90 ‖ E(TI ‖ RndA<<<1 ‖ PICCcap2 ‖ PCDcap2)`, counters 0 |
/// | following answer | `90 ‖ E(RndA<<<1)`, TI and counters kept |
/// | MAC | AES-CMAC(Kmac, …), the odd-indexed bytes 1, 3 … 15 |
/// | Read MACs | command `cmd ‖ R_Ctr ‖ TI ‖ BNr ‖ Ext`, response `90 ‖ R_Ctr+1 ‖ TI ‖ BNr ‖ Ext ‖ data` |
/// | Write MACs | command `cmd ‖ W_Ctr ‖ TI ‖ BNr ‖ data as sent`, response `90 ‖ W_Ctr+1 ‖ TI` |
/// | IVs | command (write data, AuthenticateContinue): `TI ‖ (R_Ctr ‖ W_Ctr)×3`; response (read data, following RndB): `(R_Ctr ‖ W_Ctr)×3 ‖ TI`, R_Ctr already incremented for reads |
///
/// A wrong MAC (`08`) or a failed authentication (`06`) ends the session; a refused access (`06`, `09`) keeps it
/// [?: the datasheet does not say].
extension MIFAREPlusTag {
    // MARK: Authentication

    /// Key addresses an AES authentication may name in the current level: the sector keys, `9000` and `9001` in
    /// SL3; `9003` (level switch) and `9004` (SL1 card authentication) in SL1.
    func mayAuthenticate(with address: UInt16) -> Bool {
        switch securityLevel {
        case 3:
            return address >= 0x4000 && address < 0x4000 + UInt16(model.sectorCount * 2) || address == 0x9000
                || address == 0x9001
        case 1: return address == 0x9003 || address == 0x9004
        default: return false
        }
    }

    func authenticationCommand(_ frame: [UInt8], tearAfter: Int?) -> (UInt8, [UInt8]) {
        guard securityLevel != 0 else { return (Status.notAllowed, []) }
        switch frame[0] {
        case 0x78:
            guard frame.count == 1 else { return (Status.length, []) }
            pending = nil
            session = nil
            return (Status.ok, [])
        case 0x70, 0x76:
            let first = frame[0] == 0x70
            guard frame.count >= 3 else { return (Status.length, []) }
            let address = UInt16(frame[1]) | UInt16(frame[2]) << 8
            var capabilities: [UInt8] = []
            if first {
                guard frame.count >= 4, frame[3] <= 6, frame.count == 4 + Int(frame[3]) else {
                    return (Status.length, [])
                }
                capabilities = Array(frame.dropFirst(4))
            } else {
                guard frame.count == 3 else { return (Status.length, []) }
                guard securityLevel == 3, session != nil else { return (Status.notAllowed, []) }
            }
            pending = nil
            guard mayAuthenticate(with: address), let key = keys[address] else {
                session = nil
                return (Status.block, [])
            }
            let rndB = random.bytes(16)
            let iv = first ? Self.zeroBlock : session.map(responseIV) ?? Self.zeroBlock
            guard let challenge = Self.cbc(key, iv, rndB, encrypt: true) else { return (Status.failure, []) }
            pending = PendingAuthentication(
                keyAddress: address, key: key, rndB: rndB, first: first, pcdCapabilities: capabilities)
            if first { session = nil }
            return (Status.ok, challenge)
        default:
            return authenticateContinue(frame, tearAfter: tearAfter)
        }
    }

    private func authenticateContinue(_ frame: [UInt8], tearAfter: Int?) -> (UInt8, [UInt8]) {
        guard let p = pending else { return (Status.notAllowed, []) }
        pending = nil
        guard frame.count == 33 else {
            session = nil
            return (Status.length, [])
        }
        let previous = session
        let commandIV = p.first ? Self.zeroBlock : previous.map(commandIV) ?? Self.zeroBlock
        guard let plain = Self.cbc(p.key, commandIV, Array(frame.dropFirst()), encrypt: false) else {
            return (Status.failure, [])
        }
        let rndA = Array(plain.prefix(16))
        guard Array(plain.suffix(16)) == Self.rotateLeft(p.rndB), !unknownKeys.contains(p.keyAddress),
            let keys = Self.sessionKeys(p.key, rndA: rndA, rndB: p.rndB)
        else {
            session = nil
            return (Status.authentication, [])
        }
        if securityLevel == 1 {
            // SL1: the AES authentication proves the card (9004) or switches it to SL3 (9003); Classic's state is
            // untouched.
            guard let answer = Self.cbc(p.key, Self.zeroBlock, firstAnswer(rndA, p, ti: random.bytes(4)), encrypt: true)
            else { return (Status.failure, []) }
            if p.keyAddress == 0x9003, tearAfter.map({ $0 >= 1 }) ?? true { nextLevel = 3 }
            return (Status.ok, answer)
        }
        if p.first {
            let ti = random.bytes(4)
            let s = Session(
                keyAddress: p.keyAddress, key: p.key, kEnc: keys.enc, kMac: keys.mac, ti: ti, readCounter: 0,
                writeCounter: 0)
            guard let answer = Self.cbc(p.key, Self.zeroBlock, firstAnswer(rndA, p, ti: ti), encrypt: true) else {
                return (Status.failure, [])
            }
            session = s
            return (Status.ok, answer)
        }
        guard var s = previous, let answer = Self.cbc(p.key, responseIV(s), Self.rotateLeft(rndA), encrypt: true)
        else { return (Status.failure, []) }
        s.keyAddress = p.keyAddress
        s.key = p.key
        s.kEnc = keys.enc
        s.kMac = keys.mac
        session = s
        return (Status.ok, answer)
    }

    private func firstAnswer(_ rndA: [UInt8], _ p: PendingAuthentication, ti: [UInt8]) -> [UInt8] {
        let pcd = Array(p.pcdCapabilities.prefix(6)) + [UInt8](repeating: 0, count: 6 - min(6, p.pcdCapabilities.count))
        return ti + Self.rotateLeft(rndA) + [UInt8](repeating: 0, count: 6) + pcd
    }

    // MARK: Read and Write

    /// Read `30`–`37`: bit 0 MAC on the response, bit 1 plain data, bit 2 no MAC on the command.
    func read(_ frame: [UInt8]) -> (UInt8, [UInt8]) {
        guard securityLevel == 3 else { return (Status.notAllowed, []) }
        let command = frame[0]
        let macOnCommand = command & 0x04 == 0
        let plain = command & 0x02 != 0
        guard frame.count == 4 + (macOnCommand ? 8 : 0), frame[3] >= 1 else { return (Status.length, []) }
        guard var s = session else { return (Status.authentication, []) }
        guard s.readCounter < 0xFFFF else { return (Status.overflow, []) }
        let header = Array(frame[1..<4])
        if macOnCommand {
            guard let mac = Self.mac(s.kMac, [command] + Self.le(s.readCounter) + s.ti + header),
                mac == Array(frame.suffix(8))
            else {
                session = nil
                return (Status.mac, [])
            }
        }
        let first = Int(frame[1]) | Int(frame[2]) << 8
        var data: [UInt8] = []
        for address in first..<first + Int(frame[3]) {
            switch readable(address, session: s, plain: plain) {
            case .success(let bytes): data += bytes
            case .failure(let refusal): return (refusal.status, [])
            }
        }
        s.readCounter += 1
        if !plain {
            guard let e = Self.cbc(s.kEnc, responseIV(s), data, encrypt: true) else { return (Status.failure, []) }
            data = e
        }
        session = s
        guard command & 0x01 != 0 else { return (Status.ok, data) }
        guard let mac = Self.mac(s.kMac, [Status.ok] + Self.le(s.readCounter) + s.ti + header + data) else {
            return (Status.failure, [])
        }
        return (Status.ok, data + mac)
    }

    /// Write `A0`–`A3`: bit 0 MAC on the response, bit 1 plain data; the command is always MACed.
    func write(_ frame: [UInt8], tearAfter: Int?) -> (UInt8, [UInt8]) {
        guard securityLevel == 3 else { return (Status.notAllowed, []) }
        let command = frame[0]
        let encrypted = command & 0x02 == 0
        guard frame.count >= 3 + 16 + 8, (frame.count - 11) % 16 == 0, (frame.count - 11) / 16 <= 3 else {
            return (Status.length, [])
        }
        guard var s = session else { return (Status.authentication, []) }
        guard s.writeCounter < 0xFFFF else { return (Status.overflow, []) }
        let sent = Array(frame[3..<frame.count - 8])
        guard let mac = Self.mac(s.kMac, [command] + Self.le(s.writeCounter) + s.ti + Array(frame[1..<3]) + sent),
            mac == Array(frame.suffix(8))
        else {
            session = nil
            return (Status.mac, [])
        }
        var data = sent
        if encrypted {
            guard let d = Self.cbc(s.kEnc, commandIV(s), sent, encrypt: false) else { return (Status.failure, []) }
            data = d
        }
        let first = Int(frame[1]) | Int(frame[2]) << 8
        var writes: [(Int, [UInt8])] = []
        for i in 0..<data.count / 16 {
            let bytes = Array(data[i * 16..<i * 16 + 16])
            switch writable(first + i, bytes, session: s, encrypted: encrypted) {
            case .success(let stored): writes.append((first + i, stored))
            case .failure(let refusal): return (refusal.status, [])
            }
        }
        for (i, (address, bytes)) in writes.enumerated() {
            // Whole blocks: a tear keeps those whose 16 bytes had arrived.
            if let t = tearAfter, t < (i + 1) * 16 { break }
            if address < model.blockCount {
                classic.memory.replaceSubrange(address * 16..<address * 16 + 16, with: bytes)
            } else {
                try? setKey(UInt16(address), bytes)
            }
        }
        s.writeCounter += 1
        session = s
        guard command & 0x01 != 0 else { return (Status.ok, []) }
        guard let answer = Self.mac(s.kMac, [Status.ok] + Self.le(s.writeCounter) + s.ti) else {
            return (Status.failure, [])
        }
        return (Status.ok, answer)
    }

    struct Refusal: Error {
        var status: UInt8
        static let access = Refusal(status: Status.authentication)
        static let block = Refusal(status: Status.block)
    }

    /// The sector and key type (`60` key A, `61` key B) of a session on a sector key, else nil.
    private func sectorKey(_ s: Session) -> (sector: Int, keyType: UInt8)? {
        guard s.keyAddress >= 0x4000, s.keyAddress < 0x4000 + UInt16(model.sectorCount * 2) else { return nil }
        return (Int(s.keyAddress - 0x4000) / 2, s.keyAddress & 1 == 0 ? 0x60 : 0x61)
    }

    /// The access conditions of a block's sector for the session, or a refusal.
    private func rules(_ block: Int, _ s: Session) -> Result<(conditions: [UInt8], keyType: UInt8), Refusal> {
        guard let (sector, keyType) = sectorKey(s), sector == MIFAREPlusModel.sector(ofBlock: block) else {
            return .failure(.access)
        }
        let trailer = self.block(MifareClassicModel.trailerBlock(ofSector: sector))
        guard let c = MifareClassicAccessRules.conditions(trailer[0..<16]) else { return .failure(.access) }
        return .success((c, keyType))
    }

    /// Trailer byte 5 in SL3: high nibble bit g set → group g encrypted only; valid when the low nibble is its
    /// inverse (otherwise every group may go plain).
    private func encryptedOnly(_ block: Int) -> Bool {
        let sector = MIFAREPlusModel.sector(ofBlock: block)
        let b = self.block(MifareClassicModel.trailerBlock(ofSector: sector))[5]
        guard b & 0x0F == ~(b >> 4) & 0x0F else { return false }
        return (b >> 4) >> UInt8(MifareClassicModel.accessGroup(ofBlock: block)) & 1 == 1
    }

    private func readable(_ address: Int, session s: Session, plain: Bool) -> Result<[UInt8], Refusal> {
        if address < model.blockCount {
            let r: (conditions: [UInt8], keyType: UInt8)
            switch rules(address, s) {
            case .success(let v): r = v
            case .failure(let e): return .failure(e)
            }
            if plain && encryptedOnly(address) { return .failure(.access) }
            var bytes = block(address)
            if MifareClassicModel.isTrailer(address) {
                // The key areas read as zeros; the access bits as the trailer rules allow.
                for i in Array(0..<5) + Array(10..<16) { bytes[i] = 0 }
                if !MifareClassicAccessRules.trailer[Int(r.conditions[3])].accessRead.grants(r.keyType) {
                    return .failure(.access)
                }
                return .success(bytes)
            }
            guard
                MifareClassicAccessRules.data[Int(r.conditions[MifareClassicModel.accessGroup(ofBlock: address)])]
                    .read.grants(r.keyType)
            else { return .failure(.access) }
            return .success(bytes)
        }
        guard address <= 0xFFFF else { return .failure(.block) }
        let a = UInt16(address)
        if let c = configuration[a] {
            guard s.keyAddress == (a == 0xB000 ? 0x9000 : 0x9001) else { return .failure(.access) }
            return .success(c)
        }
        return .failure(keys[a] != nil ? .access : .block)
    }

    /// What a Write stores at `address`, or a refusal.
    private func writable(_ address: Int, _ bytes: [UInt8], session s: Session, encrypted: Bool) -> Result<
        [UInt8], Refusal
    > {
        if address < model.blockCount {
            guard address != 0 else { return .failure(.access) }
            let r: (conditions: [UInt8], keyType: UInt8)
            switch rules(address, s) {
            case .success(let v): r = v
            case .failure(let e): return .failure(e)
            }
            if !encrypted && encryptedOnly(address) { return .failure(.access) }
            if MifareClassicModel.isTrailer(address) {
                guard MifareClassicAccessRules.trailer[Int(r.conditions[3])].accessWrite.grants(r.keyType) else {
                    return .failure(.access)
                }
                // SL3 trailers: byte 5 (encrypted-only bits), the access bits and GPB; the key areas are unused.
                var stored = block(address)
                stored.replaceSubrange(5..<10, with: bytes[5..<10])
                return .success(stored)
            }
            guard
                MifareClassicAccessRules.data[Int(r.conditions[MifareClassicModel.accessGroup(ofBlock: address)])]
                    .write.grants(r.keyType)
            else { return .failure(.access) }
            return .success(bytes)
        }
        let a = UInt16(truncatingIfNeeded: address)
        guard address <= 0xFFFF, keys[a] != nil || configuration[a] != nil else { return .failure(.block) }
        if a >= 0x4000, a < 0x4000 + UInt16(model.sectorCount * 2) {
            // A sector key: encrypted, by a key of its sector the trailer lets change it.
            let sector = Int(a - 0x4000) / 2
            guard encrypted, let (own, keyType) = sectorKey(s), own == sector else { return .failure(.access) }
            let trailer = block(MifareClassicModel.trailerBlock(ofSector: sector))
            guard let c = MifareClassicAccessRules.conditions(trailer[0..<16]) else { return .failure(.access) }
            let rule = MifareClassicAccessRules.trailer[Int(c[3])]
            guard (a & 1 == 0 ? rule.keyAWrite : rule.keyBWrite).grants(keyType) else { return .failure(.access) }
            return .success(bytes)
        }
        let owner: UInt16 = [0x9001, 0xB001, 0xB002, 0xB003].contains(a) ? 0x9001 : 0x9000
        guard s.keyAddress == owner, encrypted || configuration[a] != nil else { return .failure(.access) }
        return .success(bytes)
    }

    // MARK: Secure messaging (EV0)

    static let zeroBlock = [UInt8](repeating: 0, count: 16)

    static func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// `TI ‖ (R_Ctr ‖ W_Ctr) × 3`.
    func commandIV(_ s: Session) -> [UInt8] {
        let c = Self.le(s.readCounter) + Self.le(s.writeCounter)
        return s.ti + c + c + c
    }

    /// `(R_Ctr ‖ W_Ctr) × 3 ‖ TI`.
    func responseIV(_ s: Session) -> [UInt8] {
        let c = Self.le(s.readCounter) + Self.le(s.writeCounter)
        return c + c + c + s.ti
    }

    static func rotateLeft(_ b: [UInt8]) -> [UInt8] { Array(b.dropFirst()) + b.prefix(1) }

    /// AES-128-CBC of whole blocks through OpenNFCCrypto; nil when libcrypto fails.
    static func cbc(_ key: [UInt8], _ iv: [UInt8], _ data: [UInt8], encrypt: Bool) -> [UInt8]? {
        do throws(CryptoError) {
            let c = try BlockCipher(.aes128, key: key)
            return encrypt ? try c.encryptCBC(data, iv: iv) : try c.decryptCBC(data, iv: iv)
        } catch {
            return nil
        }
    }

    /// AES-CMAC truncated to its odd-indexed bytes.
    static func mac(_ key: [UInt8], _ data: [UInt8]) -> [UInt8]? {
        guard let full = try? CMAC(.aes128, key: key).tag(data) else { return nil }
        return stride(from: 1, to: 16, by: 2).map { full[$0] }
    }

    /// The EV0 session keys.
    static func sessionKeys(_ key: [UInt8], rndA a: [UInt8], rndB b: [UInt8]) -> (enc: [UInt8], mac: [UInt8])? {
        let encInput = Array(a[11...15]) + Array(b[11...15]) + (4...8).map { a[$0] ^ b[$0] } + [0x11]
        let macInput = Array(a[7...11]) + Array(b[7...11]) + (0...4).map { a[$0] ^ b[$0] } + [0x22]
        guard let c = try? BlockCipher(.aes128, key: key), let enc = try? c.encryptECB(encInput),
            let mac = try? c.encryptECB(macInput)
        else { return nil }
        return (enc, mac)
    }
}
