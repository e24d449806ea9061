internal import OpenNFCBytes
package import OpenNFCCrypto

/// Active Authentication (ICAO Doc 9303 Part 11 §6.1): INTERNAL AUTHENTICATE with an 8-byte challenge, verified
/// with DG15's key — RSA with ISO/IEC 9796-2 digital signature scheme 1 (partial message recovery), or ECDSA with
/// the hash DG14's ActiveAuthenticationInfo names (plain `r ‖ s`, BSI TR-03111; DER accepted too).
///
/// | Step | Command | Frames |
/// |---|---|---|
/// | challenge-response | `00 88 00 00 08 <RND.IFD> 00` | 1 |
package enum ActiveAuthentication {
    /// Nil when the chip proved it holds DG15's private key, else the reason it did not.
    package static func perform(
        session: EMRTDSession, dg15 publicKeyInfo: [UInt8], signatureAlgorithm: String?, random: any RandomSource
    ) throws(PassportError) -> String? {
        let challenge = random.bytes(8)
        let r = try session.send(
            CommandAPDU(ins: 0x88, p1: 0, p2: 0, data: challenge, le: 256), name: "INTERNAL AUTHENTICATE")
        guard r.isSuccess, !r.data.isEmpty else {
            return "INTERNAL AUTHENTICATE was refused (SW \(Hex.encode([UInt8(r.sw >> 8), UInt8(r.sw & 0xFF)])))"
        }
        return try verify(
            signature: r.data, challenge: challenge, publicKeyInfo: publicKeyInfo,
            signatureAlgorithm: signatureAlgorithm)
    }

    /// Checks an Active Authentication signature over `challenge`; nil when good, else the reason.
    package static func verify(
        signature: [UInt8], challenge: [UInt8], publicKeyInfo: [UInt8], signatureAlgorithm: String?
    ) throws(PassportError) -> String? {
        do {
            let key = try PublicKey(spki: publicKeyInfo)
            switch try key.kind {
            case .rsa: return try rsa(signature, challenge, key)
            case .ec:
                let digest =
                    signatureAlgorithm.flatMap { SignatureAlgorithms.plain[$0] ?? SignatureAlgorithms.ecdsa[$0] }
                    ?? .sha256
                let plain =
                    signature.first != 0x30 || signature.count % 2 == 0 && (try? DERNode.parse(signature)) == nil
                return try key.verify(signature, of: challenge, scheme: .ecdsa(digest, plain: plain))
                    ? nil : "the ECDSA signature of the challenge does not verify: the chip is not the one DG15 names"
            }
        } catch let e as PassportError { throw e } catch {
            throw PassportError(.malformed, "DG15's key or the signature cannot be used: \(error)")
        }
    }

    /// ISO/IEC 9796-2 scheme 1: F = s^e mod n = `6A ‖ M1 ‖ H(M1 ‖ RND.IFD) ‖ T`, T = `BC` (SHA-1) or `xx CC`.
    static func rsa(_ signature: [UInt8], _ challenge: [UInt8], _ key: PublicKey) throws -> String? {
        // A signature that is not below DG15's modulus is no signature under that key (libcrypto refuses the input):
        // what a cloned chip's answer with another key of the same size gives about half the time.
        guard var f = try? key.rsaPublicOperation(signature) else {
            return "the RSA signature of the challenge is not a value under DG15's key: the chip is not the one DG15 "
                + "names"
        }
        while f.first == 0 { f.removeFirst() }
        guard f.first == 0x6A, let last = f.last else { return "the recovered RSA message does not start with 6A" }
        let digest: DigestAlgorithm
        let trailer: Int
        if last == 0xBC {
            (digest, trailer) = (.sha1, 1)
        } else if last == 0xCC, f.count > 2 {
            let table: [UInt8: DigestAlgorithm] = [
                0x33: .sha1, 0x38: .sha224, 0x34: .sha256, 0x36: .sha384, 0x35: .sha512,
            ]
            guard let d = table[f[f.count - 2]] else { return "unknown ISO/IEC 9796-2 hash identifier" }
            (digest, trailer) = (d, 2)
        } else {
            return "the recovered RSA message has no ISO/IEC 9796-2 trailer"
        }
        let hashStart = f.count - trailer - digest.length
        guard hashStart > 1 else { return "the recovered RSA message is too short" }
        let m1 = Array(f[1..<hashStart])
        let d = Array(f[hashStart..<(f.count - trailer)])
        return try digest.hash(m1 + challenge) == d
            ? nil : "the RSA signature does not cover the challenge: the chip is not the one DG15 names"
    }
}

/// Chip Authentication version 1 (ICAO Doc 9303 Part 11 §6.2; BSI TR-03110-3 §B.2): ECDH with DG14's static key
/// under the current secure messaging, then new session keys and SSC 0. 3DES uses MSE:Set KAT; AES uses MSE:Set AT
/// and GENERAL AUTHENTICATE. The chip proves itself implicitly: its next answer must carry a MAC under the new keys.
///
/// | Step | Command | Frames |
/// |---|---|---|
/// | 3DES | `0C 22 41 A6 { 91 PK.IFD [84 keyId] }` | 1 |
/// | AES | `0C 22 41 A4 { 80 OID [84 keyId] }`, `0C 86 00 00 { 7C { 80 PK.IFD } }` | 2 |
package enum ChipAuthentication {
    package static func perform(session: EMRTDSession, securityInfos: SecurityInfos, random: any RandomSource)
        throws(PassportError)
    {
        guard let key = securityInfos.chipAuthenticationKeys.first(where: { $0.protocolOID == "0.4.0.127.0.7.2.2.1.2" })
        else {
            throw PassportError(.unsupported, "DG14 has no ECDH Chip Authentication key (DH is not implemented)")
        }
        let info =
            securityInfos.chipAuthentication.first { $0.keyID == key.keyID || key.keyID == nil }
            ?? ChipAuthenticationInfoDefault.threeDES
        guard let cipher = PACEInfo.cipher(lastArc: info.oid.split(separator: ".").last.flatMap { Int($0) }) else {
            throw PassportError(.unsupported, "Chip Authentication protocol \(info.oid)")
        }
        let (group, chipPoint) = try ecKey(key.subjectPublicKeyInfo)
        let k: [UInt8]
        let ours: (privateKey: [UInt8], publicKey: [UInt8])
        do {
            ours = try group.generateKeyPair(random: random)
            k = try group.sharedSecret(privateKey: ours.privateKey, publicKey: chipPoint)
        } catch { throw PassportError(.malformed, "DG14's Chip Authentication key: \(error)") }
        let keyRef: [UInt8] = key.keyID.map { [0x84, 0x01, UInt8($0)] } ?? []
        if cipher == .tdes2 {
            _ = try session.expectSuccess(
                CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA6, data: DER.tlv(0x91, ours.publicKey) + keyRef),
                name: "MSE:Set KAT (Chip Authentication)")
        } else {
            let oid: [UInt8]
            do { oid = try DER.oidContent(info.oid) } catch { throw PassportError(.malformed, "\(error)") }
            _ = try session.expectSuccess(
                CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: DER.tlv(0x80, oid) + keyRef),
                name: "MSE:Set AT (Chip Authentication)")
            _ = try session.expectSuccess(
                CommandAPDU(ins: 0x86, p1: 0, p2: 0, data: DER.tlv(0x7C, DER.tlv(0x80, ours.publicKey)), le: 256),
                name: "GENERAL AUTHENTICATE (Chip Authentication)")
        }
        do {
            session.secureMessaging = try SecureMessaging(
                cipher: cipher, encryptionKey: try ICAOKDF.derive(k, counter: 1, for: cipher),
                macKey: try ICAOKDF.derive(k, counter: 2, for: cipher),
                ssc: [UInt8](repeating: 0, count: cipher.blockLength))
        } catch let e as PassportError { throw e } catch { throw PassportError(.unsupported, "\(error)") }
    }

    /// The curve and point of a Chip Authentication SubjectPublicKeyInfo: named curve, or explicit parameters
    /// (`ECParameters`, RFC 3279 §2.3.5) as CAv1 keys carry them.
    static func ecKey(_ spki: DERNode) throws(PassportError) -> (ECGroup, [UInt8]) {
        let parsed = try LDS.malformed("DG14's Chip Authentication key") { () throws(DERError) -> (DERNode, [UInt8]) in
            var f = try spki.fields()
            var algorithm = try f.next(0x30, "the key algorithm").fields()
            _ = try algorithm.next(0x06, "the algorithm OID")
            let parameters = try algorithm.next(nil, "the domain parameters")
            return (parameters, try f.next(0x03, "the public point").bitStringBytes())
        }
        let (parameters, point) = parsed
        do {
            if parameters.tag == 0x06 {
                let oid = try parameters.oid()
                guard let curve = NamedCurve(oid: oid) else {
                    throw PassportError(.unsupported, "Chip Authentication curve \(oid)")
                }
                return (try ECGroup(curve), point)
            }
            var p = try parameters.fields()
            _ = try p.next(0x02, "version")
            var field = try p.next(0x30, "fieldID").fields()
            _ = try field.next(0x06, "the field type")
            let prime = try field.next(0x02, "the prime").unsignedInteger()
            var curve = try p.next(0x30, "curve").fields()
            let a = try curve.next(0x04, "a").octetString()
            let b = try curve.next(0x04, "b").octetString()
            let base = try p.next(0x04, "base").octetString()
            let order = try p.next(0x02, "order").unsignedInteger()
            let cofactor = try p.optional(0x02)?.unsignedInteger() ?? [1]
            return (try ECGroup(p: prime, a: a, b: b, generator: base, order: order, cofactor: cofactor), point)
        } catch let e as PassportError { throw e } catch {
            throw PassportError(.malformed, "DG14's Chip Authentication key: \(error)")
        }
    }
}

/// When DG14 lists a key but no ChipAuthenticationInfo, 3DES is implied (Part 11 §9.2.5).
enum ChipAuthenticationInfoDefault {
    static let threeDES = SecurityInfos.ChipAuthenticationInfo(oid: "0.4.0.127.0.7.2.2.3.2.1", version: 1, keyID: nil)
}
