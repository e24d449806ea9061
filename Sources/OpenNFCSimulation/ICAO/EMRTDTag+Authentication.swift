internal import OpenNFCCrypto

/// Chip Authentication and Active Authentication, the chip's half (ICAO Doc 9303 Part 11 §6.2 and §6.1; BSI
/// TR-03110-3 §B.2, §B.14.3). Both run under secure messaging.
///
/// | Command | Chip |
/// |---|---|
/// | MSE:Set KAT `0C 22 41 A6 {91 PK.IFD}` | 3DES Chip Authentication: K = x(SK.IC · PK.IFD); `90 00` under the old keys, then 3DES keys KDF(K, 1/2) with SSC 0; `6A 80` for a bad key or an AES chip (the old keys stay) |
/// | MSE:Set AT `0C 22 41 A4 {80 id-CA-ECDH-…}` | chooses the protocol of DG14 (3DES or AES) |
/// | GENERAL AUTHENTICATE `0C 86 00 00 {7C {80 PK.IFD}}` | `7C 00` under the old keys, then the protocol's keys with SSC 0 |
/// | INTERNAL AUTHENTICATE `0C 88 00 00 {RND.IFD}` | RSA: ISO/IEC 9796-2 scheme 1 signature of F = `6A` ‖ M1 ‖ SHA-1(M1 ‖ RND.IFD) ‖ `BC`, M1 random; EC: plain ECDSA-SHA-256 of RND.IFD (`r ‖ s`) |
///
/// Before BAC or PACE, INTERNAL AUTHENTICATE is `69 82`. A chip without the key answers `6D 00`.
extension EMRTDTag {
    /// id-CA-ECDH, `0.4.0.127.0.7.2.2.3.2`, as DER content octets; the cipher arc follows.
    static let idCAECDH: [UInt8] = [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x03, 0x02]

    private static func objects(_ data: [UInt8]) -> [UInt16: [UInt8]]? {
        var out: [UInt16: [UInt8]] = [:]
        var at = 0
        while at < data.count {
            guard let e = LDSTLV.element(data, at: at) else { return nil }
            out[e.tag] = Array(data[e.value])
            at = e.value.upperBound
        }
        return out
    }

    func manageSecurityEnvironmentCA(_ command: ISO7816Command) -> ISO7816Response {
        guard document.chipAuthenticationKey != nil else { return .status(.insNotSupported) }
        guard let objects = Self.objects(command.data) else { return .status(.incorrectData) }
        switch (command.p1, command.p2) {
        case (0x41, 0xA6):
            guard document.chipAuthenticationCipher == .tdes, let key = objects[0x91] else {
                return .status(.incorrectData)
            }
            return chipAuthenticate(publicKey: key, cipher: .tdes) ?? .status(.success)
        case (0x41, 0xA4):
            guard let oid = objects[0x80], oid.count == Self.idCAECDH.count + 1, oid.starts(with: Self.idCAECDH),
                let cipher = SMCipherName(oidArc: oid[oid.count - 1]),
                cipher == document.chipAuthenticationCipher
            else { return .status(.incorrectData) }
            chipAuthenticationCipher = cipher
            return .status(.success)
        default:
            return .status(.incorrectP1P2)
        }
    }

    func generalAuthenticateCA(_ command: ISO7816Command) -> ISO7816Response {
        guard let cipher = chipAuthenticationCipher else { return .status(ISO7816Status(rawValue: 0x6985)) }
        guard command.cla == 0x00, command.p1 == 0, command.p2 == 0 else { return .status(.incorrectP1P2) }
        guard let outer = Self.objects(command.data)?[0x7C], let key = Self.objects(outer)?[0x80] else {
            return .status(.incorrectData)
        }
        chipAuthenticationCipher = nil
        return chipAuthenticate(publicKey: key, cipher: cipher) ?? ISO7816Response(data: [0x7C, 0x00])
    }

    /// Agrees the new keys with the terminal's ephemeral `publicKey` and queues them after this answer; nil on
    /// success, else the refusal (`6A 80`, keys unchanged).
    private func chipAuthenticate(publicKey: [UInt8], cipher: SMCipherName) -> ISO7816Response? {
        guard let pkcs8 = document.chipAuthenticationKey else { return .status(.insNotSupported) }
        do throws(ICAOCryptoError) {
            let k = try ICAOCrypto.wrapping { () throws(CryptoError) in
                let key = try PrivateKey(pkcs8: pkcs8)
                guard case .ec(let name?, _) = try key.kind, let curve = NamedCurve(rawValue: name) else {
                    throw CryptoError(.invalidDataLength, "the Chip Authentication key is not on a named curve")
                }
                return try key.sharedSecret(with: try PublicKey(curve: curve, point: publicKey))
            }
            let algorithm = cipher.algorithm
            nextChannel = EMRTDSecureChannel(
                cipher: algorithm, encryptionKey: try ICAOCrypto.kdf(k, 1, algorithm),
                macKey: try ICAOCrypto.kdf(k, 2, algorithm))
            return nil
        } catch {
            return .status(.incorrectData)
        }
    }

    func internalAuthenticate(_ command: ISO7816Command, limit: Int) -> ISO7816Response {
        guard tree.accessGranted else { return .status(.securityStatusNotSatisfied) }
        guard command.p1 == 0, command.p2 == 0 else { return .status(.incorrectP1P2) }
        guard command.data.count == 8 else { return .status(.wrongLength) }
        guard let pkcs8 = document.activeAuthenticationKey else { return .status(.insNotSupported) }
        let rndIFD = command.data
        let signature: [UInt8]
        do throws(CryptoError) {
            let key = try PrivateKey(pkcs8: pkcs8)
            switch try key.kind {
            case .rsa(let bits):
                // ISO/IEC 9796-2 scheme 1, partial recovery, SHA-1 (trailer BC): F fills the modulus length.
                let k = (bits + 7) / 8
                let m1 = random.bytes(k - 2 - 20)
                let f = [0x6A] + m1 + (try Digest.hash(.sha1, m1 + rndIFD)) + [0xBC]
                signature = try key.rsaPrivateOperation(f)
            case .ec:
                signature = try key.sign(rndIFD, scheme: .ecdsa(.sha256, plain: true))
            }
        } catch {
            return .status(.noPreciseDiagnosis)
        }
        guard signature.count <= limit || command.ne == nil else { return .status(.wrongLength) }
        return ISO7816Response(data: signature)
    }
}
