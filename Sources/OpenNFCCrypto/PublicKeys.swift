/// How a signature is made and checked.
package enum SignatureScheme: Sendable, Hashable {
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) with the digest.
    case rsaPKCS1(DigestAlgorithm)
    /// RSASSA-PSS (RFC 8017 §8.1) with the digest for both the message and MGF1, and the salt length in bytes.
    case rsaPSS(DigestAlgorithm, saltLength: Int)
    /// ECDSA (FIPS 186-4 §6) over the digest of the message; the signature as DER `ECDSA-Sig-Value` (SEC 1 §C.5,
    /// X.509 and CMS) or plain `r ‖ s` (BSI TR-03111 §5.2.1, as eMRTD Active Authentication uses it).
    case ecdsa(DigestAlgorithm, plain: Bool)

    var digest: DigestAlgorithm {
        switch self {
        case .rsaPKCS1(let d), .rsaPSS(let d, _), .ecdsa(let d, _): d
        }
    }
}

/// What kind of key a ``PublicKey`` or ``PrivateKey`` is.
package enum KeyKind: Sendable, Hashable {
    /// RSA with a modulus of this many bits.
    case rsa(bits: Int)
    /// EC on a named curve (OpenSSL's short name), or on explicit parameters (`curve` nil).
    case ec(curve: String?, bits: Int)
}

/// A public key held by libcrypto, in and out as DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7): RSA or EC.
package final class PublicKey: @unchecked Sendable {
    let pkey: OpaquePointer
    let lib: LibCryptoPK

    /// The key of a DER SubjectPublicKeyInfo (`d2i_PUBKEY`).
    package init(spki: [UInt8]) throws(CryptoError) {
        let lib = try LibCryptoPK.load()
        self.lib = lib
        var consumed = 0
        let key: OpaquePointer? = spki.withUnsafeBufferPointer { b in
            var p: UnsafePointer<UInt8>? = b.baseAddress
            let k = lib.d2iPUBKEY(nil, &p, b.count)
            if let p, let base = b.baseAddress { consumed = p - base }
            return k
        }
        guard let key else {
            throw CryptoError(.operationFailed, "libcrypto cannot read the SubjectPublicKeyInfo (\(spki.count) bytes)")
        }
        guard consumed == spki.count else {
            lib.base.pkeyFree(key)
            throw CryptoError(
                .invalidDataLength, "the SubjectPublicKeyInfo ends at byte \(consumed) of \(spki.count)")
        }
        pkey = key
    }

    /// The EC public key `point` (uncompressed) on `curve`.
    package init(curve: NamedCurve, point: [UInt8]) throws(CryptoError) {
        lib = try LibCryptoPK.load()
        pkey = try lib.base.key(curve: curve.rawValue, name: "pub", type: 5, value: point, selection: 0x86)
    }

    init(owning key: OpaquePointer, lib: LibCryptoPK) {
        pkey = key
        self.lib = lib
    }

    deinit { lib.base.pkeyFree(pkey) }

    /// The DER SubjectPublicKeyInfo (`i2d_PUBKEY`).
    package var spki: [UInt8] {
        get throws(CryptoError) { try lib.encode(pkey, with: lib.i2dPUBKEY, what: "i2d_PUBKEY") }
    }

    /// RSA or EC, and the size.
    package var kind: KeyKind {
        get throws(CryptoError) { try lib.kind(pkey) }
    }

    /// An EC key's point, uncompressed (`04 ‖ X ‖ Y`).
    package var ecPoint: [UInt8] {
        get throws(CryptoError) { try lib.octetParam(pkey, "pub") }
    }

    /// Whether `signature` is `scheme`'s signature of `message` under this key. A wrong signature is `false`; a
    /// signature of the wrong form for the scheme is also `false`.
    package func verify(_ signature: [UInt8], of message: [UInt8], scheme: SignatureScheme) throws(CryptoError) -> Bool
    {
        var sig = signature
        if case .ecdsa(_, plain: true) = scheme {
            guard sig.count % 2 == 0, !sig.isEmpty else { return false }
            let n = sig.count / 2
            sig = ECDSA.der(r: Array(sig.prefix(n)), s: Array(sig.suffix(n)))
        }
        return try lib.withDigestContext(pkey, scheme: scheme, sign: false) { ctx in
            lib.digestVerify(ctx, sig, sig.count, message, message.count) == 1
        }
    }

    /// The raw RSA public operation s^e mod n, as ISO/IEC 9796-2 signature verification needs it (the recovered
    /// representative, modulus-length bytes): `EVP_PKEY_verify_recover` with no padding.
    package func rsaPublicOperation(_ signature: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let ctx = lib.base.pkeyCtxFromPKey(nil, pkey, nil) else {
            throw CryptoError(.operationFailed, "EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { lib.base.pkeyCtxFree(ctx) }
        // RSA_NO_PADDING = 3.
        guard lib.verifyRecoverInit(ctx) == 1, lib.setRSAPadding(ctx, 3) == 1 else {
            throw CryptoError(.operationFailed, "EVP_PKEY_verify_recover_init refused the key (not RSA?)")
        }
        var out = [UInt8](repeating: 0, count: 1024)
        var length = out.count
        let ok = out.withUnsafeMutableBufferPointer {
            lib.verifyRecover(ctx, $0.baseAddress, &length, signature, signature.count)
        }
        guard ok == 1 else {
            throw CryptoError(.invalidDataLength, "the RSA public operation refused the \(signature.count)-byte input")
        }
        return Array(out.prefix(length))
    }
}

/// A private key held by libcrypto, in and out as DER PKCS #8 PrivateKeyInfo (RFC 5208): RSA or EC.
package final class PrivateKey: @unchecked Sendable {
    let pkey: OpaquePointer
    let lib: LibCryptoPK

    /// The key of DER PKCS #8 (or a traditional RSA/EC private key; `d2i_AutoPrivateKey`).
    package init(pkcs8: [UInt8]) throws(CryptoError) {
        let lib = try LibCryptoPK.load()
        self.lib = lib
        let key: OpaquePointer? = pkcs8.withUnsafeBufferPointer { b in
            var p: UnsafePointer<UInt8>? = b.baseAddress
            return lib.d2iAutoPrivateKey(nil, &p, b.count)
        }
        guard let key else {
            throw CryptoError(
                .operationFailed, "libcrypto cannot read the private key (\(pkcs8.count) bytes of PKCS #8)")
        }
        pkey = key
    }

    /// A new RSA key of `bits` (public exponent 65537), from libcrypto's generator.
    package static func generateRSA(bits: Int) throws(CryptoError) -> PrivateKey {
        let lib = try LibCryptoPK.load()
        return try lib.generate("RSA") { ctx in lib.setRSAKeygenBits(ctx, Int32(bits)) == 1 }
    }

    /// A new EC key on `curve`, from libcrypto's generator.
    package static func generateEC(_ curve: NamedCurve) throws(CryptoError) -> PrivateKey {
        let lib = try LibCryptoPK.load()
        return try lib.generate("EC") { ctx in lib.setGroupName(ctx, curve.rawValue) == 1 }
    }

    /// The EC key with private scalar `scalar` (big-endian) on `curve`, with its public point.
    package init(curve: NamedCurve, scalar: [UInt8]) throws(CryptoError) {
        lib = try LibCryptoPK.load()
        let group = try ECGroup(curve)
        let point = try group.multiply(scalar)
        pkey = try lib.base.ecKeyPair(curve: curve.rawValue, scalar: scalar, point: point)
    }

    init(owning key: OpaquePointer, lib: LibCryptoPK) {
        pkey = key
        self.lib = lib
    }

    deinit { lib.base.pkeyFree(pkey) }

    /// The DER PKCS #8 PrivateKeyInfo.
    package var pkcs8: [UInt8] {
        get throws(CryptoError) {
            guard let info = lib.pkeyToPKCS8(pkey) else { throw CryptoError(.operationFailed, "EVP_PKEY2PKCS8 failed") }
            defer { lib.pkcs8Free(info) }
            return try lib.encode(info, with: lib.i2dPKCS8, what: "i2d_PKCS8_PRIV_KEY_INFO")
        }
    }

    /// The public half.
    package var publicKey: PublicKey {
        get throws(CryptoError) { try PublicKey(spki: try lib.encode(pkey, with: lib.i2dPUBKEY, what: "i2d_PUBKEY")) }
    }

    /// RSA or EC, and the size.
    package var kind: KeyKind {
        get throws(CryptoError) { try lib.kind(pkey) }
    }

    /// An EC key's private scalar, big-endian, `length` bytes.
    package func ecScalar(length: Int) throws(CryptoError) -> [UInt8] {
        var bn: OpaquePointer?
        guard lib.getBNParam(pkey, "priv", &bn) == 1, let bn else {
            throw CryptoError(.operationFailed, "the key has no EC private scalar")
        }
        defer { lib.bnFree(bn) }
        return try lib.bytes(bn, length: length)
    }

    /// `scheme`'s signature of `message` (hashed with the scheme's digest by libcrypto).
    package func sign(_ message: [UInt8], scheme: SignatureScheme) throws(CryptoError) -> [UInt8] {
        let der: [UInt8] = try lib.withDigestContext(pkey, scheme: scheme, sign: true) { ctx throws(CryptoError) in
            var length = 0
            guard lib.digestSign(ctx, nil, &length, message, message.count) == 1 else {
                throw CryptoError(.operationFailed, "EVP_DigestSign (length query) failed")
            }
            var out = [UInt8](repeating: 0, count: length)
            let ok = out.withUnsafeMutableBufferPointer {
                lib.digestSign(ctx, $0.baseAddress, &length, message, message.count)
            }
            guard ok == 1 else { throw CryptoError(.operationFailed, "EVP_DigestSign failed") }
            return Array(out.prefix(length))
        }
        guard case .ecdsa(_, plain: true) = scheme else { return der }
        guard case .ec(_, let bits) = try kind,
            let raw = ECDSA.raw(fromDER: der, scalarLength: (bits + 7) / 8)
        else { throw CryptoError(.operationFailed, "EVP_DigestSign gave no DER ECDSA-Sig-Value") }
        return raw
    }

    /// The raw RSA private operation m^d mod n on a modulus-length input below n (ISO/IEC 9796-2 signing):
    /// `EVP_PKEY_sign` with no padding.
    package func rsaPrivateOperation(_ input: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let ctx = lib.base.pkeyCtxFromPKey(nil, pkey, nil) else {
            throw CryptoError(.operationFailed, "EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { lib.base.pkeyCtxFree(ctx) }
        guard lib.base.pkeySignInit(ctx) == 1, lib.setRSAPadding(ctx, 3) == 1 else {
            throw CryptoError(.operationFailed, "EVP_PKEY_sign_init refused the key (not RSA?)")
        }
        var length = 1024
        var out = [UInt8](repeating: 0, count: length)
        let ok = out.withUnsafeMutableBufferPointer {
            lib.base.pkeySign(ctx, $0.baseAddress, &length, input, input.count)
        }
        guard ok == 1 else {
            throw CryptoError(.invalidDataLength, "the RSA private operation refused the \(input.count)-byte input")
        }
        return Array(out.prefix(length))
    }

    /// ECDH with `peer` (`EVP_PKEY_derive`): the shared x-coordinate.
    package func sharedSecret(with peer: PublicKey) throws(CryptoError) -> [UInt8] {
        guard let ctx = lib.base.pkeyCtxFromPKey(nil, pkey, nil) else {
            throw CryptoError(.operationFailed, "EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { lib.base.pkeyCtxFree(ctx) }
        guard lib.deriveInit(ctx) == 1, lib.deriveSetPeer(ctx, peer.pkey) == 1 else {
            throw CryptoError(.operationFailed, "EVP_PKEY_derive refused the peer key (another curve?)")
        }
        var length = 0
        guard lib.derive(ctx, nil, &length) == 1 else { throw CryptoError(.operationFailed, "EVP_PKEY_derive failed") }
        var out = [UInt8](repeating: 0, count: length)
        let ok = out.withUnsafeMutableBufferPointer { lib.derive(ctx, $0.baseAddress, &length) }
        guard ok == 1 else { throw CryptoError(.operationFailed, "EVP_PKEY_derive failed") }
        return Array(out.prefix(length))
    }
}

extension LibCryptoPK {
    func encode(_ object: OpaquePointer, with i2d: FnI2D, what: String) throws(CryptoError) -> [UInt8] {
        let n = i2d(object, nil)
        guard n > 0 else { throw CryptoError(.operationFailed, "\(what) failed") }
        var out = [UInt8](repeating: 0, count: Int(n))
        let written = out.withUnsafeMutableBufferPointer { b -> Int32 in
            var p: UnsafeMutablePointer<UInt8>? = b.baseAddress
            return i2d(object, &p)
        }
        guard written == n else { throw CryptoError(.operationFailed, "\(what) failed") }
        return out
    }

    func kind(_ pkey: OpaquePointer) throws(CryptoError) -> KeyKind {
        let bits = Int(self.bits(pkey))
        switch baseID(pkey) {
        // EVP_PKEY_RSA = NID_rsaEncryption = 6, EVP_PKEY_RSA_PSS = 912, EVP_PKEY_EC = NID_X9_62_id_ecPublicKey = 408.
        case 6, 912: return .rsa(bits: bits)
        case 408:
            var buffer = [UInt8](repeating: 0, count: 80)
            var length = 0
            let named = buffer.withUnsafeMutableBytes { getUTF8Param(pkey, "group", $0.baseAddress, $0.count, &length) }
            return .ec(curve: named == 1 ? String(decoding: buffer.prefix(length), as: UTF8.self) : nil, bits: bits)
        case let id: throw CryptoError(.operationFailed, "the key is neither RSA nor EC (EVP_PKEY type \(id))")
        }
    }

    func octetParam(_ pkey: OpaquePointer, _ name: String) throws(CryptoError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 160)
        var length = 0
        let ok = buffer.withUnsafeMutableBytes { getOctetParam(pkey, name, $0.baseAddress, $0.count, &length) }
        guard ok == 1 else { throw CryptoError(.operationFailed, "the key has no \(name) value") }
        return Array(buffer.prefix(length))
    }

    func generate(_ algorithm: String, configure: (OpaquePointer) -> Bool) throws(CryptoError) -> PrivateKey {
        guard let ctx = base.pkeyCtxFromName(nil, algorithm, nil) else {
            throw CryptoError(.libraryUnavailable, "libcrypto's default provider has no \(algorithm) keys")
        }
        defer { base.pkeyCtxFree(ctx) }
        var key: OpaquePointer?
        guard keygenInit(ctx) == 1, configure(ctx), generate(ctx, &key) == 1, let key else {
            throw CryptoError(.operationFailed, "\(algorithm) key generation failed")
        }
        return PrivateKey(owning: key, lib: self)
    }

    func withDigestContext<T>(
        _ pkey: OpaquePointer, scheme: SignatureScheme, sign: Bool, _ body: (OpaquePointer) throws(CryptoError) -> T
    ) throws(CryptoError) -> T {
        guard let md = digests[scheme.digest.opensslName], let ctx = mdCtxNew() else {
            throw CryptoError(.operationFailed, "EVP_MD_CTX_new failed")
        }
        defer { mdCtxFree(ctx) }
        var pctx: OpaquePointer?
        let initialised =
            sign ? digestSignInit(ctx, &pctx, md, nil, pkey) : digestVerifyInit(ctx, &pctx, md, nil, pkey)
        guard initialised == 1, let pctx else {
            throw CryptoError(.operationFailed, "the key does not fit the signature scheme \(scheme)")
        }
        switch scheme {
        case .rsaPKCS1:
            // RSA_PKCS1_PADDING = 1.
            guard setRSAPadding(pctx, 1) == 1 else { throw CryptoError(.operationFailed, "not an RSA key") }
        case .rsaPSS(_, let salt):
            // RSA_PKCS1_PSS_PADDING = 6; MGF1 defaults to the signature digest.
            guard setRSAPadding(pctx, 6) == 1, setPSSSaltLength(pctx, Int32(salt)) == 1 else {
                throw CryptoError(.operationFailed, "not an RSA key, or a bad PSS salt length \(salt)")
            }
        case .ecdsa: break
        }
        return try body(ctx)
    }
}

extension LibCrypto {
    /// An EC key pair from the curve name, the private scalar and the public point.
    func ecKeyPair(curve: String, scalar: [UInt8], point: [UInt8]) throws(CryptoError) -> OpaquePointer {
        guard let ctx = pkeyCtxFromName(nil, "EC", nil) else {
            throw CryptoError(.libraryUnavailable, "libcrypto's default provider has no EC keys")
        }
        defer { pkeyCtxFree(ctx) }
        guard pkeyFromDataInit(ctx) == 1 else { throw CryptoError(.operationFailed, "EVP_PKEY_fromdata_init failed") }
        var pkey: OpaquePointer?
        var priv: [UInt8] = 1.littleEndian == 1 ? scalar.reversed() : scalar
        var pub = point
        let ok: Bool = "group".withCString { gk in
            curve.withCString { gv in
                "priv".withCString { sk in
                    "pub".withCString { pk in
                        priv.withUnsafeMutableBytes { s in
                            pub.withUnsafeMutableBytes { p in
                                var params = [
                                    OSSLParam(
                                        key: gk, dataType: 4, data: UnsafeMutableRawPointer(mutating: gv),
                                        dataSize: curve.utf8.count, returnSize: -1),
                                    OSSLParam(
                                        key: sk, dataType: 2, data: s.baseAddress, dataSize: s.count, returnSize: -1),
                                    OSSLParam(
                                        key: pk, dataType: 5, data: p.baseAddress, dataSize: p.count, returnSize: -1),
                                    OSSLParam(key: nil, dataType: 0, data: nil, dataSize: 0, returnSize: 0),
                                ]
                                return params.withUnsafeMutableBytes { pkeyFromData(ctx, &pkey, 0x87, $0.baseAddress) }
                                    == 1
                            }
                        }
                    }
                }
            }
        }
        guard ok, let pkey else { throw CryptoError(.operationFailed, "libcrypto refused the \(curve) key pair") }
        return pkey
    }
}
