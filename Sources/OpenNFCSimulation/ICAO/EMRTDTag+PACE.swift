internal import OpenNFCCrypto

/// PACE, the chip's half (ICAO Doc 9303 Part 11 §4.4; BSI TR-03110-3 §A.3, §B.1): ECDH with Generic Mapping.
///
/// | Command | Chip |
/// |---|---|
/// | MSE:Set AT `00 22 C1 A4 {80 OID, 83 password, [84 parameter]}` | picks the EF.CardAccess protocol; password `01` MRZ (π = SHA-1 of the MRZ information, all 20 bytes) or `02` CAN (its digits); `6A 80` unknown protocol, `6A 88` no such password |
/// | GA 1 `10 86 00 00 {7C 00}` | `7C {80 z}`: z = E(Kπ, s), s a random nonce of one block, Kπ = KDF(π, 3) |
/// | GA 2 `10 86 … {7C {81 PKmap.IFD}}` | `7C {82 PKmap.IC}`; H = SKmap.IC · PKmap.IFD, G̃ = s·G + H |
/// | GA 3 `10 86 … {7C {83 PK.IFD}}` | `7C {84 PK.IC}`, an ephemeral key on G̃ (PK.IC ≠ PK.IFD); K = x(SK.IC · PK.IFD), KSenc/KSmac = KDF(K, 1/2) |
/// | GA 4 `00 86 … {7C {85 T.IFD}}` | checks T.IFD = MAC(KSmac, 7F49 {06 OID, 86 PK.IC}); `7C {86 T.IC}` over PK.IFD; secure messaging starts, SSC 0 |
///
/// Steps 1–3 carry the chaining bit (CLA `10`), the last does not; a step out of order or the wrong class is
/// `69 85` / `68 83`; a bad point or data object is `6A 80`; a wrong token is `63 00`. Any failure forgets the run.
extension EMRTDTag {
    struct PACEState {
        var proto: PACEProtocol
        var password: [UInt8]
        var group: ECGroup
        var step = 0
        var nonce: [UInt8] = []
        var generator: [UInt8] = []
        var mappingKeyIFD: [UInt8] = []
        var publicKeyIFD: [UInt8] = []
        var publicKeyIC: [UInt8] = []
        var channel: EMRTDSecureChannel?
    }

    private static let badData = ISO7816Status.incorrectData
    private static let conditions = ISO7816Status(rawValue: 0x6985)

    func manageSecurityEnvironmentPACE(_ command: ISO7816Command) -> ISO7816Response {
        guard command.p1 == 0xC1, command.p2 == 0xA4 else { return .status(.incorrectP1P2) }
        pace = nil
        var objects: [UInt16: [UInt8]] = [:]
        var at = 0
        while at < command.data.count {
            guard let e = LDSTLV.element(command.data, at: at) else { return .status(Self.badData) }
            objects[e.tag] = Array(command.data[e.value])
            at = e.value.upperBound
        }
        guard let oid = objects[0x80], let reference = objects[0x83], reference.count == 1 else {
            return .status(Self.badData)
        }
        let parameter = objects[0x84].flatMap { $0.count == 1 ? Int($0[0]) : nil }
        guard
            let proto = document.pace.first(where: {
                $0.oid == oid && (parameter == nil || parameter == $0.parameterID)
            }),
            let name = PACEProtocol.curveNames[proto.parameterID], let curve = NamedCurve(rawValue: name)
        else { return .status(Self.badData) }
        let password: [UInt8]
        switch reference[0] {
        case 0x01:
            guard let mrz = document.mrz, let pi = try? ICAOCrypto.sha1(Array(mrz.keyInformation.utf8)) else {
                return .status(.noPreciseDiagnosis)
            }
            password = pi
        case 0x02:
            guard let can = document.can else { return .status(ISO7816Status(rawValue: 0x6A88)) }
            password = Array(can.utf8)
        default:
            return .status(ISO7816Status(rawValue: 0x6A88))  // PIN and PUK belong to eID cards
        }
        guard let group = try? ECGroup(curve) else { return .status(.noPreciseDiagnosis) }
        pace = PACEState(proto: proto, password: password, group: group)
        return .status(.success)
    }

    func generalAuthenticatePACE(_ command: ISO7816Command) -> ISO7816Response {
        guard var state = pace else { return .status(Self.conditions) }
        pace = nil  // restored below when the step succeeds
        guard command.p1 == 0, command.p2 == 0 else { return .status(.incorrectP1P2) }
        let last = state.step == 3
        guard command.cla == (last ? 0x00 : 0x10) else { return .status(ISO7816Status(rawValue: 0x6883)) }
        guard let outer = LDSTLV.element(command.data, at: 0), outer.tag == 0x7C,
            outer.value.upperBound == command.data.count
        else { return .status(Self.badData) }
        let inner = outer.value.isEmpty ? nil : LDSTLV.element(command.data, at: outer.value.lowerBound)
        let expected: UInt16? = [nil, 0x81, 0x83, 0x85][state.step]
        guard inner?.tag == expected, inner.map({ $0.value.upperBound == outer.value.upperBound }) ?? true else {
            return .status(Self.badData)
        }
        let value = inner.map { Array(command.data[$0.value]) } ?? []
        let cipher = state.proto.cipher.algorithm
        do throws(ICAOCryptoError) {
            let answer: [UInt8]
            switch state.step {
            case 0:
                state.nonce = testHooks.paceNonce ?? random.bytes(cipher.blockLength)
                let kPi = try ICAOCrypto.kdf(state.password, 3, cipher)
                let z = try ICAOCrypto.encryptCBC(
                    cipher, key: kPi, iv: [UInt8](repeating: 0, count: cipher.blockLength), state.nonce)
                answer = LDSTLV.encode(0x80, z)
            case 1:
                guard state.group.isValidPoint(value) else { return .status(Self.badData) }
                let key = try keyPair(state.group, fixed: testHooks.paceMappingKey, generator: nil)
                let h = try ICAOCrypto.wrapping { () throws(CryptoError) in
                    try state.group.sharedPoint(privateKey: key.privateKey, publicKey: value)
                }
                state.mappingKeyIFD = value
                state.generator = try ICAOCrypto.wrapping { () throws(CryptoError) in
                    try state.group.genericMapping(nonce: state.nonce, sharedPoint: h)
                }
                answer = LDSTLV.encode(0x82, key.publicKey)
            case 2:
                guard state.group.isValidPoint(value), value != state.mappingKeyIFD else {
                    return .status(Self.badData)
                }
                let key = try keyPair(state.group, fixed: testHooks.paceEphemeralKey, generator: state.generator)
                guard key.publicKey != value else { return .status(Self.badData) }
                let k = try ICAOCrypto.wrapping { () throws(CryptoError) in
                    try state.group.sharedSecret(privateKey: key.privateKey, publicKey: value)
                }
                state.publicKeyIFD = value
                state.publicKeyIC = key.publicKey
                state.channel = EMRTDSecureChannel(
                    cipher: cipher, encryptionKey: try ICAOCrypto.kdf(k, 1, cipher),
                    macKey: try ICAOCrypto.kdf(k, 2, cipher))
                answer = LDSTLV.encode(0x84, key.publicKey)
            default:
                guard let channel = state.channel else { return .status(Self.conditions) }
                let expectedToken = try token(cipher, channel.macKey, state.proto, state.publicKeyIC)
                guard value == expectedToken else { return .status(ISO7816Status(rawValue: 0x6300)) }
                let tIC = try token(cipher, channel.macKey, state.proto, state.publicKeyIFD)
                startSession(channel)
                return ISO7816Response(data: LDSTLV.encode(0x7C, LDSTLV.encode(0x86, tIC)))
            }
            state.step += 1
            pace = state
            return ISO7816Response(data: LDSTLV.encode(0x7C, answer))
        } catch {
            return .status(.noPreciseDiagnosis)
        }
    }

    /// The chip's key pair: a fixed private key from the test hooks, or a fresh one.
    private func keyPair(_ group: ECGroup, fixed: [UInt8]?, generator: [UInt8]?) throws(ICAOCryptoError) -> (
        privateKey: [UInt8], publicKey: [UInt8]
    ) {
        try ICAOCrypto.wrapping { () throws(CryptoError) in
            if let fixed { return (fixed, try group.multiply(fixed, generator)) }
            return try group.generateKeyPair(generator: generator, random: random)
        }
    }

    /// The authentication token (TR-03110-3 §A.2.4.2): the MAC over the public key data object
    /// `7F49 {06 <protocol OID>, 86 <point>}` — CMAC truncated to 8 bytes for AES, the padded retail MAC for 3DES.
    private func token(_ cipher: SMCipher, _ macKey: [UInt8], _ proto: PACEProtocol, _ point: [UInt8])
        throws(ICAOCryptoError) -> [UInt8]
    {
        let object = LDSTLV.encode(0x7F49, LDSTLV.encode(0x06, proto.oid) + LDSTLV.encode(0x86, point))
        return try ICAOCrypto.tokenMAC(cipher, key: macKey, object)
    }
}

extension SMCipherName {
    /// The libcrypto cipher.
    var algorithm: SMCipher {
        switch self {
        case .tdes: .tdes2
        case .aes128: .aes128
        case .aes192: .aes192
        case .aes256: .aes256
        }
    }
}
