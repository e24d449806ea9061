internal import OpenNFCBytes
package import OpenNFCCrypto

/// An authenticated MIFARE Plus SL3 session, reader side: the three-pass AES authentication, the EV0 session keys,
/// TI and the read/write counters, and Read/Write in each communication mode (MIFARE Plus EV1 datasheet, "AES
/// authentication" and "secure messaging"; the IVs and MAC inputs docs/PROCEDURES.md lists). AES and CMAC through
/// OpenNFCCrypto (libcrypto).
///
/// | Step | Reader side |
/// |---|---|
/// | `70`/`76` | RndB = D(K, answer) with a zero IV (first) or the response IV `(R ‖ W)×3 ‖ TI` (following) |
/// | `72` | E(K, RndA ‖ RndB<<<1), zero IV (first) or the command IV `TI ‖ (R ‖ W)×3`; the answer's RndA<<<1 checked |
/// | keys | Kenc = E(K, RndA[11..15] ‖ RndB[11..15] ‖ (RndA[4..8] ⊕ RndB[4..8]) ‖ `11`), Kmac likewise with [7..11], [0..4], `22` |
/// | MAC | AES-CMAC(Kmac, …), bytes 1, 3, … 15 |
package struct MIFAREPlusSession {
    package let link: MIFAREPlusLink
    /// Where RndA comes from.
    package var random: any RandomSource

    /// The session state after an authentication.
    package struct Keys: Sendable, Hashable {
        package var keyAddress: UInt16
        package var kEnc: [UInt8]
        package var kMac: [UInt8]
        package var ti: [UInt8]
        package var readCounter: UInt16
        package var writeCounter: UInt16
    }

    package private(set) var keys: Keys?

    package init(link: MIFAREPlusLink, random: any RandomSource = SystemRandomSource()) {
        self.link = link
        self.random = random
    }

    /// AuthenticateFirst (or NonFirst while a session runs, keeping TI and the counters) with the AES key at
    /// `address`. A wrong key is a ``TagError/Code/commandRejected`` error and ends the session.
    package mutating func authenticate(_ address: UInt16, key: [UInt8], first: Bool? = nil) throws(TagError) {
        let isFirst = first ?? (keys == nil)
        let name = "MIFARE Plus authentication with key \(Self.addressText(address))"
        let previous = keys
        keys = nil
        let (status, challenge) = try link.send(
            isFirst ? MIFAREPlusLink.authenticateFirst(address) : MIFAREPlusLink.authenticateNonFirst(address),
            name: name)
        guard status == MIFAREPlusLink.Status.ok else { throw MIFAREPlusLink.refusal(status, name) }
        guard challenge.count == 16 else {
            throw TagError(.invalidResponse, "\(name): the card answered \(challenge.count) bytes, not E(RndB) (16)")
        }
        let zero = [UInt8](repeating: 0, count: 16)
        let responseIV = isFirst ? zero : previous.map(Self.responseIV) ?? zero
        let commandIV = isFirst ? zero : previous.map(Self.commandIV) ?? zero
        let rndB = try Self.crypt(key, responseIV, challenge, encrypt: false)
        let rndA = random.bytes(16)
        let cryptogram = try Self.crypt(key, commandIV, rndA + Self.rotateLeft(rndB), encrypt: true)
        let (s2, answer) = try link.send(MIFAREPlusLink.authenticateContinue(cryptogram), name: name)
        guard s2 == MIFAREPlusLink.Status.ok else { throw MIFAREPlusLink.refusal(s2, name) }
        guard answer.count == (isFirst ? 32 : 16) else {
            throw TagError(.invalidResponse, "\(name): the card's last answer has \(answer.count) bytes")
        }
        let plain = try Self.crypt(key, isFirst ? zero : responseIV, answer, encrypt: false)
        guard Array(plain[(isFirst ? 4 : 0)..<(isFirst ? 20 : 16)]) == Self.rotateLeft(rndA) else {
            throw TagError(.invalidResponse, "\(name): the card did not prove the key (RndA<<<1 differs)")
        }
        let (kEnc, kMac) = try Self.sessionKeys(key, rndA: rndA, rndB: rndB)
        if isFirst {
            keys = Keys(
                keyAddress: address, kEnc: kEnc, kMac: kMac, ti: Array(plain.prefix(4)), readCounter: 0,
                writeCounter: 0)
        } else if var k = previous {
            k.keyAddress = address
            k.kEnc = kEnc
            k.kMac = kMac
            keys = k
        }
    }

    /// Reads `count` blocks from `block` (all in the authenticated sector).
    package mutating func read(_ block: UInt16, count: Int = 1, mode: MIFAREPlusCommunication = .maced)
        throws(TagError) -> [UInt8]
    {
        guard var k = keys else { throw TagError(.commandRejected, "read of block \(block): no authentication") }
        let name = "MIFARE Plus Read of block \(block)" + (count > 1 ? " (\(count) blocks)" : "")
        let code = mode.readCode
        let header = MIFAREPlusLink.le(block) + [UInt8(count)]
        var frame = [code] + header
        if code & 0x04 == 0 { frame += try Self.mac(k.kMac, [code] + MIFAREPlusLink.le(k.readCounter) + k.ti + header) }
        let (status, answer) = try link.send(frame, name: name)
        guard status == MIFAREPlusLink.Status.ok else {
            if status == 0x08 { keys = nil }
            throw MIFAREPlusLink.refusal(status, name)
        }
        let macLength = code & 0x01 != 0 ? 8 : 0
        guard answer.count == 16 * count + macLength else {
            throw TagError(.invalidResponse, "\(name): \(answer.count) bytes, expected \(16 * count + macLength)")
        }
        k.readCounter &+= 1
        keys = k
        let data = Array(answer.prefix(16 * count))
        if macLength > 0 {
            let expected = try Self.mac(k.kMac, [0x90] + MIFAREPlusLink.le(k.readCounter) + k.ti + header + data)
            guard expected == Array(answer.suffix(8)) else {
                throw TagError(.invalidResponse, "\(name): the answer's MAC is wrong")
            }
        }
        guard code & 0x02 == 0 else { return data }
        return try Self.crypt(k.kEnc, Self.responseIV(k), data, encrypt: false)
    }

    /// Writes 16-byte blocks from `block` (at most 3 in one frame).
    package mutating func write(_ block: UInt16, _ data: [UInt8], mode: MIFAREPlusCommunication = .maced)
        throws(TagError)
    {
        guard var k = keys else { throw TagError(.commandRejected, "write of block \(block): no authentication") }
        guard !data.isEmpty, data.count % 16 == 0, data.count <= 48 else {
            throw TagError(
                .invalidResponse, "a MIFARE Plus Write takes 1–3 blocks of 16 bytes, not \(data.count) bytes")
        }
        let name = "MIFARE Plus Write of block \(block)"
        let code = mode.writeCode
        let sent = code & 0x02 == 0 ? try Self.crypt(k.kEnc, Self.commandIV(k), data, encrypt: true) : data
        let mac = try Self.mac(
            k.kMac, [code] + MIFAREPlusLink.le(k.writeCounter) + k.ti + MIFAREPlusLink.le(block) + sent)
        let (status, answer) = try link.send([code] + MIFAREPlusLink.le(block) + sent + mac, name: name)
        guard status == MIFAREPlusLink.Status.ok else {
            if status == 0x08 { keys = nil }
            throw MIFAREPlusLink.refusal(status, name)
        }
        k.writeCounter &+= 1
        keys = k
        if code & 0x01 != 0 {
            guard answer.count == 8,
                answer == (try Self.mac(k.kMac, [0x90] + MIFAREPlusLink.le(k.writeCounter) + k.ti))
            else { throw TagError(.invalidResponse, "\(name): the answer's MAC is wrong") }
        }
    }

    /// ResetAuth `78`: the card forgets the session.
    package mutating func reset() throws(TagError) {
        keys = nil
        try link.expectOK(MIFAREPlusLink.resetAuthentication, name: "MIFARE Plus ResetAuth")
    }

    // MARK: Secure messaging

    static func addressText(_ a: UInt16) -> String { Hex.encode([UInt8(a >> 8), UInt8(a & 0xFF)]) }

    static func counters(_ k: Keys) -> [UInt8] { MIFAREPlusLink.le(k.readCounter) + MIFAREPlusLink.le(k.writeCounter) }
    static func commandIV(_ k: Keys) -> [UInt8] { k.ti + counters(k) + counters(k) + counters(k) }
    static func responseIV(_ k: Keys) -> [UInt8] { counters(k) + counters(k) + counters(k) + k.ti }

    static func rotateLeft(_ b: [UInt8]) -> [UInt8] { Array(b.dropFirst()) + b.prefix(1) }

    static func crypt(_ key: [UInt8], _ iv: [UInt8], _ data: [UInt8], encrypt: Bool) throws(TagError) -> [UInt8] {
        do throws(CryptoError) {
            let c = try BlockCipher(.aes128, key: key)
            return encrypt ? try c.encryptCBC(data, iv: iv) : try c.decryptCBC(data, iv: iv)
        } catch {
            throw TagError(.unsupported, "AES: \(error)")
        }
    }

    static func mac(_ key: [UInt8], _ data: [UInt8]) throws(TagError) -> [UInt8] {
        do throws(CryptoError) {
            let full = try CMAC(.aes128, key: key).tag(data)
            return stride(from: 1, to: 16, by: 2).map { full[$0] }
        } catch {
            throw TagError(.unsupported, "AES-CMAC: \(error)")
        }
    }

    static func sessionKeys(_ key: [UInt8], rndA a: [UInt8], rndB b: [UInt8]) throws(TagError) -> ([UInt8], [UInt8]) {
        let encInput = Array(a[11...15]) + Array(b[11...15]) + (4...8).map { a[$0] ^ b[$0] } + [0x11]
        let macInput = Array(a[7...11]) + Array(b[7...11]) + (0...4).map { a[$0] ^ b[$0] } + [0x22]
        do throws(CryptoError) {
            let c = try BlockCipher(.aes128, key: key)
            return (try c.encryptECB(encInput), try c.encryptECB(macInput))
        } catch {
            throw TagError(.unsupported, "AES: \(error)")
        }
    }
}
