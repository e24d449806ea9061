internal import OpenNFCBytes
internal import OpenNFCCrypto

/// An authenticated DESFire session (card side): which key, the session key and the secure-messaging IV.
struct DESFireSession: Sendable {
    /// The key number that authenticated, at the level (PICC or application) selected then.
    var keyNumber: UInt8
    /// `0A` (legacy DES/2K3DES): plain communication only here. `1A`/`AA` (EV1): CMAC and enciphered messaging.
    var legacy: Bool
    var algorithm: CipherAlgorithm
    var cipher: BlockCipher
    var mac: CMAC
    /// The EV1 IV: zero after authentication, then the last CMAC or ciphertext block (MF3ICD81: the IV runs across
    /// commands and responses).
    var iv: [UInt8]
}

/// MIFARE DESFire EV1 authentication and secure messaging, card side (NXP MF3ICD81 functional description; see
/// docs/SECURITY.md).
///
/// | Feature | Here |
/// |---|---|
/// | Authenticate `0A` (legacy) | DES / 2K3DES keys; the card enciphers (ECB) RndB and RndA', the reader deciphers ("send mode"); session key A0–3 B0–3 (DES) or A0–3 B0–3 A4–7 B4–7 |
/// | Authenticate `1A` (ISO) | DES / 2K3DES (8-byte RndA/RndB) and 3K3DES (16-byte) keys; CBC throughout, IV chained from one message to the next; session key A0–3 B0–3 A4–7 B4–7 (3K3DES: A0–3 B0–3 A6–9 B6–9 A12–15 B12–15) |
/// | Authenticate `AA` (AES) | AES keys, 16-byte RndA/RndB, CBC chained; session key A0–3 B0–3 A12–15 B12–15 |
/// | Wrong key type for the command, wrong RndB' | `AE`; key number past the keys `40`; the session is dropped |
/// | EV1 CMAC | every command while authenticated feeds CMAC(IV, command) into the IV; every `00` answer carries the first 8 bytes of CMAC(IV, data ‖ 00) (NIST SP 800-38B with the IV as CBC start) |
/// | EV1 enciphered | data ‖ CRC32(… ‖ status) ‖ zero padding, CBC with the IV (CRC-32/JAMCRC, LSB first) |
/// | Session end | any error status, SelectApplication, a new authentication, changing the key that authenticated, re-activation |
/// | Legacy MAC / enciphered communication | file commands (data, value, record): the 4-byte MAC (E-CBC of the zero-padded data from a zero IV) and data ‖ CRC16 (CRC_A) enciphered, the reader deciphering in send mode, from a zero IV each time |
/// | Legacy key commands | ChangeKey (new key ‖ CRC16, or new ⊕ old ‖ CRC16 ‖ CRC16(new), zero padded, send mode), ChangeKeySettings (settings ‖ CRC16 ‖ zeros, send mode), GetCardUID (E-CBC(UID ‖ CRC16 ‖ zeros), decided: docs/DIFFERENCES.md) |
extension DESFireMachine {
    /// The keys at the selected level: the PICC master key, or the selected application's keys.
    var currentKeys: [DESFireKey] {
        guard let df = selectedApplication else { return [picc.masterKey] }
        return picc.applications[df].keys
    }

    static func rotated(_ b: [UInt8]) -> [UInt8] { Array(b.dropFirst()) + [b[0]] }

    /// `0A`/`1A`/`AA` keyNo: the first frame, `AF` ‖ ek(RndB).
    mutating func beginAuthentication(_ code: UInt8, _ p: ArraySlice<UInt8>) -> DESFireReply {
        session = nil
        guard p.count == 1 else { return .status(.lengthError) }
        let number = p[p.startIndex]
        let keys = currentKeys
        guard Int(number) < keys.count else { return .status(.noSuchKey) }
        let key = keys[Int(number)]
        let allowed: Set<DESFireKey.KeyType> =
            switch code {
            case 0x0A: [.des, .tdes2]
            case 0x1A: [.des, .tdes2, .tdes3]
            default: [.aes]
            }
        guard allowed.contains(key.type), let cipher = try? BlockCipher(Self.algorithm(key.type), key: key.bytes)
        else { return .status(.authenticationError) }
        let n = code == 0x0A || key.type == .des || key.type == .tdes2 ? 8 : 16
        let rndB = random.bytes(n)
        let challenge: [UInt8]?
        if code == 0x0A {
            challenge = try? cipher.encryptECB(rndB)
        } else {
            challenge = try? cipher.encryptCBC(rndB, iv: [UInt8](repeating: 0, count: cipher.algorithm.blockLength))
        }
        guard let challenge else { return .status(.authenticationError) }
        pending = .authentication(
            code: code, keyNumber: number, key: key, rndB: rndB,
            iv: Array(challenge.suffix(cipher.algorithm.blockLength)))
        return DESFireReply(status: .additionalFrame, data: challenge)
    }

    /// `AF` ‖ token: check RndB', answer `00` ‖ ek(RndA'), start the session.
    mutating func finishAuthentication(
        _ p: ArraySlice<UInt8>, code: UInt8, keyNumber: UInt8, key: DESFireKey, rndB: [UInt8], iv: [UInt8]
    ) -> DESFireReply {
        pending = .none
        let n = rndB.count
        guard p.count == 2 * n, let cipher = try? BlockCipher(Self.algorithm(key.type), key: key.bytes) else {
            return .status(.lengthError)
        }
        let token = Array(p)
        let rndA: [UInt8]
        let answer: [UInt8]
        do throws(CryptoError) {
            if code == 0x0A {
                // Legacy: the reader sent D(RndA) ‖ D(RndB' ⊕ D(RndA)); the card enciphers to undo it.
                let d1 = Array(token[0..<8])
                let d2 = Array(token[8..<16])
                rndA = try cipher.encryptECB(d1)
                let e2 = try cipher.encryptECB(d2)
                let rotatedB = zip(e2, d1).map { $0 ^ $1 }
                guard rotatedB == Self.rotated(rndB) else { return .status(.authenticationError) }
                answer = try cipher.encryptECB(Self.rotated(rndA))
            } else {
                let plain = try cipher.decryptCBC(token, iv: iv)
                rndA = Array(plain[0..<n])
                guard Array(plain[n...]) == Self.rotated(rndB) else { return .status(.authenticationError) }
                let b = cipher.algorithm.blockLength
                answer = try cipher.encryptCBC(Self.rotated(rndA), iv: Array(token.suffix(b)))
            }
        } catch {
            return .status(.authenticationError)
        }
        guard let s = Self.session(code: code, keyNumber: keyNumber, key: key, rndA: rndA, rndB: rndB) else {
            return .status(.authenticationError)
        }
        session = s
        return DESFireReply(status: .ok, data: answer)
    }

    static func algorithm(_ t: DESFireKey.KeyType) -> CipherAlgorithm {
        switch t {
        case .des: .des
        case .tdes2: .tdes2
        case .tdes3: .tdes3
        case .aes: .aes128
        }
    }

    /// The session key from RndA and RndB (MF3ICD81: four-byte pieces of each, by key type).
    static func session(code: UInt8, keyNumber: UInt8, key: DESFireKey, rndA a: [UInt8], rndB b: [UInt8])
        -> DESFireSession?
    {
        let sk: [UInt8]
        let algorithm: CipherAlgorithm
        let singleDES = key.type == .des || (key.type == .tdes2 && key.bytes[0..<8] == key.bytes[8..<16])
        switch key.type {
        case .aes:
            sk = Self.pieces(a, b, [0, 12])
            algorithm = .aes128
        case .tdes3:
            sk = Self.pieces(a, b, [0, 6, 12])
            algorithm = .tdes3
        case .des, .tdes2:
            let first = Self.pieces(a, b, [0])
            if code == 0x0A && singleDES {
                sk = first
                algorithm = .des
            } else {
                sk = singleDES ? first + first : Self.pieces(a, b, [0, 4])
                algorithm = .tdes2
            }
        }
        guard let cipher = try? BlockCipher(algorithm, key: sk), let mac = try? CMAC(algorithm, key: sk) else {
            return nil
        }
        return DESFireSession(
            keyNumber: keyNumber, legacy: code == 0x0A, algorithm: algorithm, cipher: cipher, mac: mac,
            iv: [UInt8](repeating: 0, count: algorithm.blockLength))
    }

    /// RndA[o..<o+4] ‖ RndB[o..<o+4] for each offset o, in order.
    static func pieces(_ a: [UInt8], _ b: [UInt8], _ offsets: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        for o in offsets {
            out += a[o..<o + 4]
            out += b[o..<o + 4]
        }
        return out
    }

    /// EV1: feeds a command (code ‖ parameters) into the IV.
    mutating func macCommand(_ bytes: [UInt8]) {
        guard var s = session, !s.legacy, let t = try? s.mac.tag(bytes, iv: s.iv) else { return }
        s.iv = t
        session = s
    }

    /// EV1: the 8-byte CMAC of a `00` answer's data (over data ‖ 00), moving the IV.
    mutating func macResponse(_ data: [UInt8]) -> [UInt8] {
        guard var s = session, !s.legacy, let t = try? s.mac.tag(data + [0x00], iv: s.iv) else { return [] }
        s.iv = t
        session = s
        return Array(t.prefix(8))
    }

    /// EV1: data ‖ CRC32(data ‖ 00) padded with zeros and enciphered with the IV (a `00` answer's enciphered data).
    mutating func encipherResponse(_ data: [UInt8]) -> [UInt8]? {
        guard var s = session, !s.legacy else { return nil }
        var plain = data + DESFireCRC32.bytes(data + [0x00])
        let n = s.algorithm.blockLength
        while plain.count % n != 0 { plain.append(0) }
        guard let c = try? s.cipher.encryptCBC(plain, iv: s.iv) else { return nil }
        s.iv = Array(c.suffix(n))
        session = s
        return c
    }

    /// EV1: deciphers a command's enciphered part with the IV (moving it); nil when it is not whole blocks.
    mutating func decipherCommand(_ cryptogram: [UInt8]) -> [UInt8]? {
        guard var s = session, !s.legacy, !cryptogram.isEmpty, cryptogram.count % s.algorithm.blockLength == 0,
            let plain = try? s.cipher.decryptCBC(cryptogram, iv: s.iv)
        else { return nil }
        s.iv = Array(cryptogram.suffix(s.algorithm.blockLength))
        session = s
        return plain
    }

    /// Whether the session's key `number` at the selected level is authenticated.
    func authenticated(as number: UInt8) -> Bool { session?.keyNumber == number }

    // MARK: Key commands

    /// GetKeyVersion `64` keyNo.
    func getKeyVersion(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 1 else { return .status(.lengthError) }
        let keys = currentKeys
        let number = Int(p[p.startIndex] & 0x3F)
        guard number < keys.count else { return .status(.noSuchKey) }
        return DESFireReply(status: .ok, data: [keys[number].version])
    }

    /// The key number whose authentication ChangeKey needs for key `number` (application key settings bits 7–4:
    /// `0` the master key, `E` the key itself, `F` frozen, else that key; the master key always needs itself).
    func changeKeyAuthority(for number: UInt8) -> UInt8? {
        guard let df = selectedApplication else { return 0 }
        let access = picc.applications[df].keySettings >> 4
        if number == 0 || access == 0 { return 0 }
        if access == 0xE { return number }
        if access == 0xF { return nil }
        return access
    }

    /// ChangeKey `C4` keyNo ‖ cryptogram. EV1 sessions: for the key that authenticated, newKey [‖ AES version] ‖
    /// CRC32(C4 ‖ keyNo ‖ newKey [‖ version]); for another key, (newKey ⊕ oldKey) [‖ version] ‖ CRC32 of that ‖
    /// CRC32(newKey); zero padded, enciphered with the IV. Legacy (`0A`) sessions (MF3ICD40 heritage): newKey
    /// [‖ version] ‖ CRC16(newKey [‖ version]), or (newKey ⊕ oldKey) [‖ version] ‖ CRC16 of that ‖ CRC16(newKey);
    /// zero padded to whole 8-byte blocks, sent in the legacy send mode from a zero IV; the padding must be zero.
    /// DES-family keys travel as 16 bytes (DES as K ‖ K) and carry their version in the least significant bits of
    /// the first 8 bytes. Torn, the key is written whole or not at all (the old key stays).
    mutating func changeKey(_ p: ArraySlice<UInt8>, tearAfter: Int?) -> DESFireReply {
        guard let s = session else { return .status(.authenticationError) }
        guard p.count >= 2 else { return .status(.lengthError) }
        let b = Array(p)
        let keyNo = b[0]
        let number = keyNo & 0x3F
        let keys = currentKeys
        guard Int(number) < keys.count else { return .status(.noSuchKey) }
        guard let authority = changeKeyAuthority(for: number) else { return .status(.permissionDenied) }
        guard s.keyNumber == authority else { return .status(.authenticationError) }
        let newType: DESFireKey.KeyType
        if selectedApplication == nil {
            newType = DESFireKey.KeyType.forKeyCountByte(keyNo)
        } else {
            newType = keys[Int(number)].type == .tdes2 ? .des : keys[Int(number)].type
        }
        let wireLength = newType == .des || newType == .tdes2 ? 16 : newType.length
        let wire = Array(b[1...])
        guard let plain = s.legacy ? legacyDecipher(wire) : decipherCommand(wire) else { return .status(.lengthError) }
        let versionLength = newType == .aes ? 1 : 0
        let same = number == s.keyNumber
        let body = wireLength + versionLength
        let crcLength = s.legacy ? 2 : 4
        let checked = body + (same ? crcLength : 2 * crcLength)
        guard plain.count >= checked else { return .status(.lengthError) }
        var value = Array(plain[0..<wireLength])
        let old = keys[Int(number)]
        if !same {
            let oldWire = old.bytes.count == 8 ? old.bytes + old.bytes : old.bytes
            if oldWire.count == wireLength { value = zip(value, oldWire).map { $0 ^ $1 } }
        }
        let crc = Array(plain[body..<body + crcLength])
        let header: [UInt8] = s.legacy ? [] : [0xC4, keyNo]
        guard crc == checksum(header + plain[0..<body], legacy: s.legacy) else { return .status(.integrityError) }
        if !same {
            guard Array(plain[body + crcLength..<checked]) == checksum(value, legacy: s.legacy) else {
                return .status(.integrityError)
            }
        }
        if s.legacy, !plain[checked...].allSatisfy({ $0 == 0 }) { return .status(.integrityError) }
        let version: UInt8
        if newType == .aes {
            version = plain[wireLength]
        } else {
            version = (0..<8).reduce(UInt8(0)) { $0 << 1 | value[$1] & 1 }
        }
        let stored: [UInt8]
        let type: DESFireKey.KeyType
        if newType == .des || newType == .tdes2 {
            let single = value[0..<8] == value[8..<16]
            type = single ? .des : .tdes2
            stored = single ? Array(value[0..<8]) : value
        } else {
            type = newType
            stored = value
        }
        if tearAfter != nil { return .status(.ok) }  // torn: the key is written whole or not at all
        let key = DESFireKey(unchecked: type, bytes: stored, version: version)
        if let df = selectedApplication {
            picc.applications[df].keys[Int(number)] = key
        } else {
            picc.masterKey = key
        }
        if same {
            session = nil
            responseSecured = true
        }
        return .status(.ok)
    }

    /// The integrity check of a key cryptogram: CRC16 (CRC_A) in a legacy session, CRC32 in an EV1 one.
    func checksum<C: Collection>(_ data: C, legacy: Bool) -> [UInt8] where C.Element == UInt8 {
        legacy ? Self.crc16(data) : DESFireCRC32.bytes(Array(data))
    }

    /// ChangeKeySettings `54` cryptogram; needs the master key of the level and the "settings changeable" bit (3).
    /// EV1: settings ‖ CRC32(54 ‖ settings), zero padded, enciphered with the IV. Legacy: settings ‖
    /// CRC16(settings) ‖ five zero bytes, in the send mode.
    mutating func changeKeySettings(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard let s = session else { return .status(.authenticationError) }
        guard s.keyNumber == 0 else { return .status(.authenticationError) }
        let current = selectedApplication.map { picc.applications[$0].keySettings } ?? piccKeySettings
        guard current & 0x08 != 0 else { return .status(.permissionDenied) }
        let settings: UInt8
        if s.legacy {
            guard p.count == 8, let plain = legacyDecipher(Array(p)) else { return .status(.lengthError) }
            guard Array(plain[1..<3]) == Self.crc16(plain[0..<1]), plain[3...].allSatisfy({ $0 == 0 }) else {
                return .status(.integrityError)
            }
            settings = plain[0]
        } else {
            guard let plain = decipherCommand(Array(p)), plain.count >= 5 else { return .status(.lengthError) }
            guard Array(plain[1..<5]) == DESFireCRC32.bytes([0x54, plain[0]]) else { return .status(.integrityError) }
            settings = plain[0]
        }
        if let df = selectedApplication {
            picc.applications[df].keySettings = settings
        } else {
            piccKeySettings = settings
        }
        return .status(.ok)
    }

    /// GetCardUID `51`: the 7-byte UID, enciphered. EV1: UID ‖ CRC32(UID ‖ 00) padded, with the IV. Legacy (no
    /// public description; decided in docs/DIFFERENCES.md): E-CBC(UID ‖ CRC16(UID) ‖ 7 zero bytes) from a zero IV, as
    /// a legacy enciphered ReadData answers.
    mutating func getCardUID(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard let s = session else { return .status(.authenticationError) }
        let c = s.legacy ? protectResponse(uid, mode: 0x03) : encipherResponse(uid)
        guard let c else { return .status(.authenticationError) }
        responseSecured = true
        return DESFireReply(status: .ok, data: c)
    }

    /// FormatPICC `FC`: every application goes; needs the PICC master key; `9D` once SetConfiguration disabled it.
    mutating func formatPICC(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard selectedApplication == nil, authenticated(as: 0) else { return .status(.authenticationError) }
        guard !configuration.formatDisabled else { return .status(.permissionDenied) }
        picc.applications.removeAll()
        engine.select(df: nil, ef: nil, in: picc)
        return .status(.ok)
    }

    /// GetFreeMemory `6E`: the storage size less the bytes of every file (3 bytes LE). The per-file overhead of a
    /// real card is not modelled (docs/DIFFERENCES.md).
    func getFreeMemory(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        let used = picc.applications.reduce(0) { $0 + $1.files.reduce(0) { $0 + $1.storageSize } }
        let free = max(0, (1 << Int(version.hardware[5] >> 1)) - used)
        return DESFireReply(status: .ok, data: Self.le(UInt32(free), 3))
    }
}
