internal import OpenNFCBytes
package import OpenNFCCrypto
package import OpenNFCRF

/// A DESFire key as the reader holds it.
package struct DESFireCardKey: Sendable, Hashable {
    package enum Cipher: String, Sendable, Hashable, CaseIterable {
        case des
        case tdes2 = "2k3des"
        case tdes3 = "3k3des"
        case aes

        package var keyLength: Int {
            switch self {
            case .des: 8
            case .tdes2, .aes: 16
            case .tdes3: 24
            }
        }
    }

    package var cipher: Cipher
    package var value: [UInt8]

    package init(_ cipher: Cipher, value: [UInt8]) throws(TagError) {
        guard value.count == cipher.keyLength else {
            throw TagError(
                .unsupported, "a \(cipher.rawValue) key has \(cipher.keyLength) bytes, not \(value.count)")
        }
        self.cipher = cipher
        self.value = value
    }

    /// The all-zero key of a cipher (factory keys).
    package static func zero(_ cipher: Cipher) -> DESFireCardKey {
        // Cannot throw: the length is the cipher's.
        try! DESFireCardKey(cipher, value: [UInt8](repeating: 0, count: cipher.keyLength))
    }
}

/// MIFARE DESFire EV1 authentication and secure messaging from the reader's side (NXP MF3ICD81 functional
/// description; see docs/SECURITY.md), over ISO-wrapped native commands.
///
/// | Operation | Frames | Notes |
/// |---|---|---|
/// | ``authenticate(keyNumber:key:legacy:)`` | 2 | `AA` for AES keys, `1A` for the DES family (or `0A` with `legacy`): ek(RndB), then ek(RndA ‖ RndB'), the card's ek(RndA') checked (mutual); RndA from the injected ``RandomSource`` |
/// | CMAC (EV1 sessions) | — | each command moves the IV by CMAC(IV, command); each answer's last 8 bytes must equal CMAC(IV, data ‖ 00), else `invalidResponse` |
/// | ``keyVersion(_:)``, ``keySettings()``, ``freeMemory()`` | 1 | |
/// | ``changeKey(_:to:version:currentValue:)`` | 1 | enciphered cryptogram; the session ends when the key that authenticated changes |
/// | ``changeKeySettings(_:)``, ``cardUID()``, ``formatPICC()`` | 1 | need the level's master key (UID: any key) |
///
/// Key commands and file commands work in EV1 and legacy (`0A`) sessions alike; file commands in every
/// communication mode: DESFireSecureSession+Files.swift. Not supported: EV2 secure messaging.
package final class DESFireSecureSession {
    let card: DESFireCard
    let random: any RandomSource
    /// The key number that authenticated, nil without a session.
    package private(set) var keyNumber: UInt8?
    var legacy = false
    var algorithm = CipherAlgorithm.aes128
    var cipher: BlockCipher?
    var mac: CMAC?
    var iv: [UInt8] = []

    package init(card: DESFireCard, random: any RandomSource = SystemRandomSource()) {
        self.card = card
        self.random = random
    }

    package convenience init(
        target: RFTarget, frontend: any RFFrontend, random: any RandomSource = SystemRandomSource()
    ) {
        self.init(card: DESFireCard(target: target, frontend: frontend), random: random)
    }

    var secured: Bool { keyNumber != nil && !legacy }

    func end() {
        keyNumber = nil
        cipher = nil
        mac = nil
    }

    static func crypto<T>(_ body: () throws(CryptoError) -> T) throws(TagError) -> T {
        do {
            return try body()
        } catch {
            throw TagError(.unsupported, "DESFire cryptography: \(error.detail)")
        }
    }

    private static func algorithm(_ c: DESFireCardKey.Cipher) -> CipherAlgorithm {
        switch c {
        case .des: .des
        case .tdes2: .tdes2
        case .tdes3: .tdes3
        case .aes: .aes128
        }
    }

    /// One ISO-wrapped frame, no `AF` following: (data, status).
    func frame(_ code: UInt8, _ data: [UInt8], name: String) throws(TagError) -> ([UInt8], UInt8) {
        let apdu = [0x90, code, 0x00, 0x00] + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0x00]
        let r = try card.link.send(apdu, name: name)
        guard r.sw >> 8 == 0x91 else {
            throw TagError(.invalidResponse, "\(name) answered SW \(String(r.sw, radix: 16)), not a DESFire status")
        }
        return (r.data, UInt8(r.sw & 0xFF))
    }

    // MARK: Authentication

    /// Authenticates with key `keyNumber` of the selected level (PICC or application).
    package func authenticate(keyNumber: UInt8, key: DESFireCardKey, legacy useLegacy: Bool = false)
        throws(TagError)
    {
        end()
        let code: UInt8 = key.cipher == .aes ? 0xAA : useLegacy ? 0x0A : 0x1A
        if useLegacy && !(key.cipher == .des || key.cipher == .tdes2) {
            throw TagError(.unsupported, "legacy authentication (0A) takes DES and 2K3DES keys only")
        }
        let name = "Authenticate \(Hex.encode([code])) key \(keyNumber)"
        let k = try Self.crypto { () throws(CryptoError) in try BlockCipher(Self.algorithm(key.cipher), key: key.value)
        }
        let (challenge, s1) = try frame(code, [keyNumber], name: name)
        guard s1 == 0xAF else {
            try DESFireCard.check(s1, name)
            throw TagError(.invalidResponse, "\(name) answered 00 without a challenge")
        }
        let n = useLegacy || key.cipher == .des || key.cipher == .tdes2 ? 8 : 16
        guard challenge.count == n else {
            throw TagError(.invalidResponse, "\(name): a \(challenge.count)-byte challenge, expected \(n)")
        }
        let b = k.algorithm.blockLength
        let rndA = random.bytes(n)
        let token: [UInt8]
        let rndB: [UInt8]
        if useLegacy {
            // Legacy "send mode": the reader deciphers what it sends, chaining by XOR (MF3ICD40 heritage).
            (rndB, token) = try Self.crypto { () throws(CryptoError) in
                let rb = try k.decryptECB(challenge)
                let d1 = try k.decryptECB(rndA)
                let rotated = Array(rb[1...]) + [rb[0]]
                let d2 = try k.decryptECB(zip(rotated, d1).map { $0 ^ $1 })
                return (rb, d1 + d2)
            }
        } else {
            (rndB, token) = try Self.crypto { () throws(CryptoError) in
                let rb = try k.decryptCBC(challenge, iv: [UInt8](repeating: 0, count: b))
                let t = try k.encryptCBC(rndA + rb[1...] + [rb[0]], iv: Array(challenge.suffix(b)))
                return (rb, t)
            }
        }
        let (answer, s2) = try frame(0xAF, token, name: name + " (part 2)")
        try DESFireCard.check(s2, name + ": the card refused the token (wrong key)")
        let expected = Array(rndA[1...]) + [rndA[0]]
        let got = try Self.crypto { () throws(CryptoError) in
            useLegacy ? try k.decryptECB(answer) : try k.decryptCBC(answer, iv: Array(token.suffix(b)))
        }
        guard got == expected else {
            throw TagError(.invalidResponse, "\(name): the card's answer is not RndA': it does not hold this key")
        }
        // Session key: four-byte pieces of RndA and RndB (MF3ICD81).
        var sk: [UInt8]
        var alg = Self.algorithm(key.cipher)
        let desLike = key.cipher == .des || (key.cipher == .tdes2 && key.value[0..<8] == key.value[8..<16])
        switch key.cipher {
        case .aes: sk = Array(rndA[0..<4] + rndB[0..<4] + rndA[12..<16] + rndB[12..<16])
        case .tdes3:
            sk = Array(rndA[0..<4] + rndB[0..<4] + rndA[6..<10] + rndB[6..<10] + rndA[12..<16] + rndB[12..<16])
        case .des, .tdes2:
            sk = Array(rndA[0..<4] + rndB[0..<4])
            if useLegacy && desLike {
                alg = .des
            } else {
                sk += desLike ? sk : Array(rndA[4..<8] + rndB[4..<8])
                alg = .tdes2
            }
        }
        let sessionKey = sk
        let finalAlgorithm = alg
        (cipher, mac) = try Self.crypto { () throws(CryptoError) in
            (try BlockCipher(finalAlgorithm, key: sessionKey), try CMAC(finalAlgorithm, key: sessionKey))
        }
        algorithm = alg
        legacy = useLegacy
        iv = [UInt8](repeating: 0, count: alg.blockLength)
        self.keyNumber = keyNumber
    }

    // MARK: Secure messaging

    func cmac(_ data: [UInt8]) throws(TagError) -> [UInt8] {
        guard let mac else { return [] }
        let v = iv
        let t = try Self.crypto { () throws(CryptoError) in try mac.tag(data, iv: v) }
        iv = t
        return t
    }

    /// Sends a command (all `AF` frames both ways) and checks the answer; in an EV1 session the command's CMAC moves
    /// the IV first (unless `protectedInput`) and the answer's CMAC is checked and removed (unless `enciphered`).
    func command(
        _ code: UInt8, _ params: [UInt8], name: String, protectedInput: Bool = false, enciphered: Bool = false,
        noResponseMAC: Bool = false
    ) throws(TagError) -> [UInt8] {
        let secure = secured
        if secure && !protectedInput { _ = try cmac([code] + params) }
        var data: [UInt8] = []
        var status: UInt8 = 0
        // Commands longer than a frame go in AF continuation frames of at most 52 bytes (59 less ISO overhead).
        let first = Array(params.prefix(52))
        var rest = Array(params.dropFirst(52))
        var (d, s) = try frame(code, first, name: name)
        while s == 0xAF && !rest.isEmpty && d.isEmpty {
            (d, s) = try frame(0xAF, Array(rest.prefix(52)), name: name)
            rest = Array(rest.dropFirst(52))
        }
        data += d
        status = s
        while status == 0xAF {
            (d, status) = try frame(0xAF, [], name: name)
            data += d
        }
        if status != 0x00 { end() }
        try DESFireCard.check(status, name)
        guard secure, keyNumber != nil, !enciphered, !noResponseMAC else { return data }
        guard data.count >= 8 else {
            end()
            throw TagError(.invalidResponse, "\(name): the answer has no CMAC")
        }
        let body = Array(data.dropLast(8))
        let t = try cmac(body + [0x00])
        guard Array(t.prefix(8)) == Array(data.suffix(8)) else {
            end()
            throw TagError(.invalidResponse, "\(name): the answer's CMAC is wrong (session keys disagree)")
        }
        return body
    }

    /// EV1: deciphers an enciphered answer with the IV and checks CRC32(data ‖ 00) and the zero padding; `length`
    /// nil when the reader does not know it (the CRC's place is searched among the last block's positions).
    func decipher(_ c: [UInt8], length: Int?, granularity: Int = 1, name: String) throws(TagError) -> [UInt8] {
        guard let cipher, c.count % algorithm.blockLength == 0, c.count >= (length ?? 0) + 4 else {
            throw TagError(
                .invalidResponse, "\(name): \(c.count) enciphered bytes cannot hold \(length ?? 0) bytes and a CRC")
        }
        let v = iv
        let plain = try Self.crypto { () throws(CryptoError) in try cipher.decryptCBC(c, iv: v) }
        iv = Array(c.suffix(algorithm.blockLength))
        guard
            let data = Self.strip(
                plain, length: length, granularity: granularity, crcLength: 4, crc: { DESFireCRC32.bytes($0 + [0x00]) })
        else {
            end()
            throw TagError(.invalidResponse, "\(name): the deciphered data fails its CRC32")
        }
        return data
    }

    /// The data of `plain` = data ‖ CRC ‖ zero padding (shorter than a block), its length given or found: the
    /// shortest multiple of `granularity` that checks. Shortest first, because a CRC without final XOR over data ‖
    /// its own CRC is zero, so a longer candidate swallowing the CRC into the padding would check too.
    static func strip(
        _ plain: [UInt8], length: Int?, granularity: Int = 1, crcLength: Int, crc: ([UInt8]) -> [UInt8]
    ) -> [UInt8]? {
        let top = plain.count - crcLength
        let candidates = length.map { [$0] } ?? (top < 0 ? [] : Array(max(0, top - 15)...top))
        for n in candidates where n + crcLength <= plain.count && n % max(1, granularity) == 0 {
            let data = Array(plain.prefix(n))
            if Array(plain[n..<n + crcLength]) == crc(data), plain[(n + crcLength)...].allSatisfy({ $0 == 0 }) {
                return data
            }
        }
        return nil
    }

    func encipher(_ plain: [UInt8]) throws(TagError) -> [UInt8] {
        guard let cipher else { throw TagError(.unsupported, "no EV1 session to encipher with") }
        var p = plain
        while p.count % algorithm.blockLength != 0 { p.append(0) }
        let v = iv
        let c = try Self.crypto { () throws(CryptoError) in try cipher.encryptCBC(p, iv: v) }
        iv = Array(c.suffix(algorithm.blockLength))
        return c
    }

    // MARK: Commands

    /// SelectApplication (ends the session, as on the card).
    package func select(_ aid: UInt32) throws(TagError) {
        end()
        try card.select(aid)
    }

    /// GetKeyVersion `64` of key `number` at the selected level.
    package func keyVersion(_ number: UInt8) throws(TagError) -> UInt8 {
        let v = try command(0x64, [number], name: "GetKeyVersion \(number)")
        guard v.count == 1 else { throw TagError(.invalidResponse, "GetKeyVersion answered \(v.count) bytes") }
        return v[0]
    }

    /// GetKeySettings `45`: (settings, key count byte).
    package func keySettings() throws(TagError) -> (settings: UInt8, keyCount: UInt8) {
        let v = try command(0x45, [], name: "GetKeySettings")
        guard v.count == 2 else { throw TagError(.invalidResponse, "GetKeySettings answered \(v.count) bytes") }
        return (v[0], v[1])
    }

    /// GetFreeMemory `6E`.
    package func freeMemory() throws(TagError) -> Int {
        let v = try command(0x6E, [], name: "GetFreeMemory")
        guard v.count == 3 else { throw TagError(.invalidResponse, "GetFreeMemory answered \(v.count) bytes") }
        return DESFireCard.le(v[...])
    }

    /// GetCardUID `51` (any session): the real 7-byte UID, enciphered by the card. EV1: UID ‖ CRC32 with the IV;
    /// legacy: E-CBC(UID ‖ CRC16 ‖ padding) from a zero IV (as the card side decides it, docs/DIFFERENCES.md).
    package func cardUID() throws(TagError) -> [UInt8] {
        guard keyNumber != nil else { throw TagError(.unsupported, "GetCardUID needs an authentication first") }
        if legacy { return try protectedRead(0x51, [], length: 7, mode: 0x03, name: "GetCardUID") }
        let c = try command(0x51, [], name: "GetCardUID", enciphered: true)
        return try decipher(c, length: 7, name: "GetCardUID")
    }

    /// ChangeKey `C4`: key `number` (at PICC level with the new key's type in bits 7–6: `80` AES, `40` 3K3DES)
    /// gets `newKey` (AES: with `version`; the DES family carries its version in the key's parity bits). Changing
    /// another key than the one that authenticated needs its `currentValue`. EV1 sessions protect the cryptogram
    /// with CRC32 and the IV; legacy (`0A`) sessions with CRC16, zero padding and the send mode (MF3ICD40 heritage).
    package func changeKey(
        _ number: UInt8, to newKey: DESFireCardKey, version: UInt8 = 0, currentValue: [UInt8]? = nil
    ) throws(TagError) {
        guard let authenticated = keyNumber else {
            throw TagError(.unsupported, "ChangeKey needs an authentication first")
        }
        let wire = newKey.cipher == .des ? newKey.value + newKey.value : newKey.value
        let extra: [UInt8] = newKey.cipher == .aes ? [version] : []
        let check = { [legacy] (data: [UInt8]) -> [UInt8] in legacy ? Self.crc16(data) : DESFireCRC32.bytes(data) }
        let header: [UInt8] = legacy ? [] : [0xC4, number]
        var plain: [UInt8]
        if number & 0x3F == authenticated {
            plain = wire + extra
            plain += check(header + plain)
        } else {
            guard let currentValue else {
                throw TagError(.unsupported, "changing key \(number & 0x3F) needs its current value")
            }
            let old = currentValue.count == 8 ? currentValue + currentValue : currentValue
            guard old.count == wire.count else {
                throw TagError(
                    .unsupported, "the current key has \(currentValue.count) bytes, the new one \(wire.count)")
            }
            plain = zip(wire, old).map { $0 ^ $1 } + extra
            plain += check(header + plain) + check(wire)
        }
        let same = number & 0x3F == authenticated
        let cryptogram = legacy ? try legacySend(plain) : try encipher(plain)
        _ = try command(
            0xC4, [number] + cryptogram, name: "ChangeKey \(number & 0x3F)", protectedInput: true,
            noResponseMAC: same)
        if same { end() }
    }

    /// ChangeKeySettings `54` (the level's master key): the new settings byte, enciphered with CRC32 (EV1) or with
    /// CRC16 and zero padding in the send mode (legacy).
    package func changeKeySettings(_ settings: UInt8) throws(TagError) {
        guard keyNumber != nil else { throw TagError(.unsupported, "ChangeKeySettings needs an authentication") }
        let cryptogram =
            legacy
            ? try legacySend([settings] + Self.crc16([settings]))
            : try encipher([settings] + DESFireCRC32.bytes([0x54, settings]))
        _ = try command(0x54, cryptogram, name: "ChangeKeySettings", protectedInput: true)
    }

    /// FormatPICC `FC` (PICC master key): every application and file is gone for good.
    package func formatPICC() throws(TagError) {
        _ = try command(0xFC, [], name: "FormatPICC")
    }
}
