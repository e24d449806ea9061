package import OpenNFCBytes
package import OpenNFCCrypto

/// A `PACEInfo` of EF.CardAccess (ICAO Doc 9303 Part 11 §9.2.1; BSI TR-03110-3 §A.1.1.1): the protocol OID
/// (id-PACE `0.4.0.127.0.7.2.2.4` . mapping . cipher), the version and the standardized domain parameter id.
package struct PACEInfo: Sendable, Hashable {
    package enum Mapping: Int, Sendable, Hashable {
        case dhGeneric = 1, ecdhGeneric = 2, dhIntegrated = 3, ecdhIntegrated = 4, ecdhChipAuthentication = 6
    }
    package var oid: String
    package var version: Int
    package var parameterID: Int?

    package var mapping: Mapping? {
        let arcs = oid.split(separator: ".")
        guard arcs.count == 11, oid.hasPrefix("0.4.0.127.0.7.2.2.4."), let m = Int(arcs[9]) else { return nil }
        return Mapping(rawValue: m)
    }

    /// The secure messaging cipher the OID names (last arc: 1 3DES, 2 AES-128, 3 AES-192, 4 AES-256).
    package var cipher: CipherAlgorithm? { Self.cipher(lastArc: oid.split(separator: ".").last.flatMap { Int($0) }) }

    static func cipher(lastArc: Int?) -> CipherAlgorithm? {
        switch lastArc {
        case 1: .tdes2
        case 2: .aes128
        case 3: .aes192
        case 4: .aes256
        default: nil
        }
    }

    /// Every PACEInfo of a DER `SecurityInfos` (EF.CardAccess or DG14); other SecurityInfos are skipped.
    package static func all(in securityInfos: [UInt8]) throws(DERError) -> [PACEInfo] {
        var out: [PACEInfo] = []
        for info in try DERNode.parse(securityInfos).expect(0x31, "SecurityInfos").children() {
            var f = try info.expect(0x30, "a SecurityInfo").fields()
            let oid = try f.next(0x06, "the protocol").oid()
            guard oid.hasPrefix("0.4.0.127.0.7.2.2.4.") else { continue }
            let version = try f.next(0x02, "the PACE version").int()
            let parameter = try f.optional(0x02)?.int()
            out.append(PACEInfo(oid: oid, version: version, parameterID: parameter))
        }
        return out
    }
}

/// The password PACE runs with (Part 11 §9.7.3): the MRZ information or the card access number.
package enum PACEPassword: Sendable, Hashable {
    case mrz(keyInformation: String)
    case can(String)

    /// The MSE:Set AT password reference (`83`): 1 MRZ, 2 CAN.
    var reference: UInt8 {
        switch self {
        case .mrz: 1
        case .can: 2
        }
    }

    /// π: SHA-1 of the MRZ information (all 20 bytes), or the CAN's ASCII digits.
    func secret() throws(PassportError) -> [UInt8] {
        switch self {
        case .mrz(let info):
            do { return try Digest.hash(.sha1, Array(info.utf8)) } catch {
                throw PassportError(.unsupported, "PACE: \(error)")
            }
        case .can(let can): return Array(can.utf8)
        }
    }
}

/// PACE with ECDH Generic Mapping (ICAO Doc 9303 Part 11 §4.4; BSI TR-03110-3 §A.3, §B.1).
///
/// | Step | Command | Frames |
/// |---|---|---|
/// | MSE:Set AT | `00 22 C1 A4 { 80 OID, 83 password, [84 parameter id] }` | 1 |
/// | encrypted nonce | `10 86 00 00 02 7C 00 00` → `7C { 80 z }` | 1 |
/// | mapping | `10 86 … 7C { 81 PK.map.IFD }` → `7C { 82 PK.map.IC }` | 1 |
/// | key agreement | `10 86 … 7C { 83 PK.IFD }` → `7C { 84 PK.IC }` | 1 |
/// | mutual authentication | `00 86 … 7C { 85 T.IFD }` → `7C { 86 T.IC }` | 1 |
package enum PACE {
    /// Runs PACE with `info` and `password`; on success the session's secure messaging uses the new keys with SSC 0.
    /// A wrong password is ``PassportError/Code/accessDenied``. `ambiguous`: the chip lists several PACEInfos, so
    /// MSE:Set AT names the domain parameters in `84` (BSI TR-03110-3 §B.1: required only then).
    package static func perform(
        session: EMRTDSession, info: PACEInfo, password: PACEPassword, random: any RandomSource,
        ambiguous: Bool = false
    ) throws(PassportError) {
        guard info.mapping == .ecdhGeneric, let cipher = info.cipher else {
            throw PassportError(.unsupported, "PACE \(info.oid): only ECDH Generic Mapping is implemented")
        }
        guard let id = info.parameterID, let curve = NamedCurve(standardizedParameterID: id) else {
            throw PassportError(
                .unsupported, "PACE domain parameters \(info.parameterID.map(String.init) ?? "none"): not a named curve"
            )
        }
        let oidContent: [UInt8]
        do { oidContent = try DER.oidContent(info.oid) } catch {
            throw PassportError(.malformed, "the PACE OID: \(error)")
        }
        func crypto<T>(_ body: () throws -> T) throws(PassportError) -> T {
            do { return try body() } catch let e as PassportError { throw e } catch {
                throw PassportError(.unsupported, "PACE: \(error)")
            }
        }
        let group = try crypto { try ECGroup(curve) }
        var setAT = DER.tlv(0x80, oidContent) + [0x83, 0x01, password.reference]
        if ambiguous, let id = info.parameterID { setAT += [0x84, 0x01, UInt8(id)] }
        let set = try session.send(CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: setAT), name: "MSE:Set AT (PACE)")
        guard set.isSuccess else {
            throw PassportError(.accessDenied, "MSE:Set AT for PACE was refused", statusWord: set.sw)
        }
        func step(_ cla: UInt8, _ tag: UInt32, _ value: [UInt8]?, _ name: String, answer: UInt32) throws(PassportError)
            -> [UInt8]
        {
            let body = value.map { DER.tlv(tag, $0) } ?? []
            let r = try session.send(
                CommandAPDU(cla: cla, ins: 0x86, p1: 0, p2: 0, data: DER.tlv(0x7C, body), le: 256), name: name)
            guard r.isSuccess else {
                throw PassportError(
                    .accessDenied, "\(name) was refused: the \(password.kind) does not match the document",
                    statusWord: r.sw)
            }
            do {
                let outer = try DERNode.parse(r.data).expect(0x7C, "\(name)'s dynamic authentication data")
                guard let inner = try outer.children().first(where: { $0.tag == answer }) else {
                    throw PassportError(.malformed, "\(name)'s answer lacks tag \(DERNode.name(of: answer))")
                }
                return inner.value
            } catch let e as PassportError { throw e } catch {
                throw PassportError(.malformed, "\(name)'s answer: \(error)")
            }
        }
        let pi = try password.secret()
        let z = try step(0x10, 0, nil, "GENERAL AUTHENTICATE (encrypted nonce)", answer: 0x80)
        let s = try crypto {
            let kPi = try ICAOKDF.derive(pi, counter: ICAOKDF.password, for: cipher)
            return try BlockCipher(cipher, key: kPi).decryptCBC(z, iv: [UInt8](repeating: 0, count: cipher.blockLength))
        }
        let map = try crypto { try group.generateKeyPair(random: random) }
        let chipMap = try step(0x10, 0x81, map.publicKey, "GENERAL AUTHENTICATE (map nonce)", answer: 0x82)
        guard chipMap != map.publicKey else { throw PassportError(.accessDenied, "the chip echoed our mapping key") }
        let mapped = try crypto {
            try group.genericMapping(
                nonce: s, sharedPoint: try group.sharedPoint(privateKey: map.privateKey, publicKey: chipMap))
        }
        let eph = try crypto { try group.generateKeyPair(generator: mapped, random: random) }
        let chipKey = try step(0x10, 0x83, eph.publicKey, "GENERAL AUTHENTICATE (key agreement)", answer: 0x84)
        guard chipKey != eph.publicKey else { throw PassportError(.accessDenied, "the chip echoed our ephemeral key") }
        let k = try crypto { try group.sharedSecret(privateKey: eph.privateKey, publicKey: chipKey) }
        let keys = try crypto {
            (
                enc: try ICAOKDF.derive(k, counter: ICAOKDF.encryption, for: cipher),
                mac: try ICAOKDF.derive(k, counter: ICAOKDF.mac, for: cipher)
            )
        }
        let sm = try SecureMessaging(
            cipher: cipher, encryptionKey: keys.enc, macKey: keys.mac,
            ssc: [UInt8](repeating: 0, count: cipher.blockLength))
        let oidTLV = DER.tlv(0x06, oidContent)
        let tIFD = try token(sm, DER.tlv(0x7F49, oidTLV + DER.tlv(0x86, chipKey)))
        let tIC = try step(0x00, 0x85, tIFD, "GENERAL AUTHENTICATE (mutual authentication)", answer: 0x86)
        guard tIC == (try token(sm, DER.tlv(0x7F49, oidTLV + DER.tlv(0x86, eph.publicKey)))) else {
            throw PassportError(.accessDenied, "the chip's authentication token T.IC is wrong")
        }
        session.secureMessaging = sm
    }

    /// The authentication token (BSI TR-03110-3 §A.2.4.2): MAC over the public key data object; AES: the first 8
    /// bytes of CMAC over the object as it is; 3DES: the retail MAC with padding.
    static func token(_ sm: SecureMessaging, _ data: [UInt8]) throws(PassportError) -> [UInt8] {
        do {
            if sm.cipher.isAES { return Array(try CMAC(sm.cipher, key: sm.macKey).tag(data).prefix(8)) }
            return try RetailMAC(key: sm.macKey).tag(data)
        } catch { throw PassportError(.unsupported, "PACE token: \(error)") }
    }
}

extension PACEPassword {
    var kind: String {
        switch self {
        case .mrz: "MRZ"
        case .can: "CAN"
        }
    }
}
