// OpenSSL 3 EVP_PKEY functions (EVP_PKEY_fromdata(3), EVP_PKEY_sign(3), EVP_PKEY_verify(3)), opaque pointers,
// `int` results (1 = success).
typealias FnPKeyCtxNewFromName =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?
typealias FnPKeyCtxNewFromPKey =
    @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
typealias FnPKeyCtxFree = @convention(c) (OpaquePointer?) -> Void
typealias FnPKeyFree = @convention(c) (OpaquePointer?) -> Void
typealias FnPKeyInit = @convention(c) (OpaquePointer?) -> Int32
typealias FnPKeyFromData =
    @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafeMutableRawPointer?) -> Int32
typealias FnPKeySign =
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int
    )
    -> Int32
typealias FnPKeyVerify =
    @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int) -> Int32

/// ECDSA over a named curve with raw `r ‖ s` signatures, through OpenSSL 3's libcrypto (`EVP_PKEY`, bound by
/// ``LibCrypto``). The message is signed as given, without hashing — as NXP originality signatures
/// sign the raw UID (NXP AN11350 "NTAG21x originality signature validation"; the MIFARE Plus EV1/EV2 and DESFire EV2
/// datasheets' Read_Sig): OpenSSL's EC signature provider takes the input as the digest when no digest is set.
///
/// | Function | Used for |
/// |---|---|
/// | `EVP_PKEY_CTX_new_from_name("EC")`, `EVP_PKEY_fromdata_init`, `EVP_PKEY_fromdata` | a key from the curve name and the private scalar or the public point (`OSSL_PARAM` "group", "priv", "pub") |
/// | `EVP_PKEY_CTX_new_from_pkey`, `EVP_PKEY_sign_init`, `EVP_PKEY_sign` | signing; the DER `ECDSA-Sig-Value` (SEC 1 §C.5) is turned into `r ‖ s` here |
/// | `EVP_PKEY_verify_init`, `EVP_PKEY_verify` | verification of a DER signature built from `r ‖ s` |
package struct ECDSA: Sendable {
    /// The curves: every ``NamedCurve`` (MIFARE originality signatures use secp224r1; eMRTDs brainpool and NIST).
    package typealias Curve = NamedCurve

    package let curve: Curve
    private let lib: LibCrypto

    /// ECDSA on `curve`; throws when libcrypto is missing or lacks `EVP_PKEY`.
    package init(_ curve: Curve) throws(CryptoError) {
        self.curve = curve
        self.lib = try LibCrypto.load()
    }

    /// The signature `r ‖ s` (each ``Curve/scalarLength`` bytes, big-endian) of `message` under the private scalar
    /// `privateKey` (big-endian). ECDSA draws a fresh nonce each time, so two signatures of one message differ.
    package func sign(_ message: [UInt8], privateKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        let n = curve.scalarLength
        guard privateKey.count == n else {
            throw CryptoError(
                .invalidKeyLength, "a \(curve.rawValue) private key has \(n) bytes, not \(privateKey.count)")
        }
        guard !message.isEmpty else { throw CryptoError(.invalidDataLength, "ECDSA cannot sign an empty message") }
        // OSSL_PARAM_UNSIGNED_INTEGER is in the machine's byte order (OSSL_PARAM(3)).
        let scalar: [UInt8] = Self.littleEndianHost ? privateKey.reversed() : privateKey
        let key = try lib.key(curve: curve.rawValue, name: "priv", type: 2, value: scalar, selection: 0x87)
        defer { lib.pkeyFree(key) }
        guard let ctx = lib.pkeyCtxFromPKey(nil, key, nil) else {
            throw CryptoError(.operationFailed, "EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { lib.pkeyCtxFree(ctx) }
        guard lib.pkeySignInit(ctx) == 1 else { throw CryptoError(.operationFailed, "EVP_PKEY_sign_init failed") }
        var length = 0
        guard lib.pkeySign(ctx, nil, &length, message, message.count) == 1, length > 0 else {
            throw CryptoError(.operationFailed, "EVP_PKEY_sign (length query) failed")
        }
        var der = [UInt8](repeating: 0, count: length)
        let ok = der.withUnsafeMutableBufferPointer {
            lib.pkeySign(ctx, $0.baseAddress, &length, message, message.count)
        }
        guard ok == 1 else { throw CryptoError(.operationFailed, "EVP_PKEY_sign failed") }
        guard let raw = Self.raw(fromDER: Array(der.prefix(length)), scalarLength: n) else {
            throw CryptoError(.operationFailed, "EVP_PKEY_sign gave a signature that is not a DER ECDSA-Sig-Value")
        }
        return raw
    }

    /// Whether `signature` (`r ‖ s`) is a valid signature of `message` under `publicKey` (the uncompressed point
    /// `04 ‖ X ‖ Y`, SEC 1 §2.3.3). A malformed key or signature is an error, a wrong one is `false`.
    package func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) throws(CryptoError) -> Bool {
        let n = curve.scalarLength
        guard publicKey.count == 1 + 2 * n, publicKey.first == 0x04 else {
            throw CryptoError(
                .invalidKeyLength,
                "a \(curve.rawValue) public key is 04 and \(2 * n) bytes (\(1 + 2 * n)), not \(publicKey.count) bytes")
        }
        guard signature.count == 2 * n else {
            throw CryptoError(
                .invalidDataLength, "a \(curve.rawValue) signature has \(2 * n) bytes (r ‖ s), not \(signature.count)")
        }
        let key = try lib.key(curve: curve.rawValue, name: "pub", type: 5, value: publicKey, selection: 0x86)
        defer { lib.pkeyFree(key) }
        guard let ctx = lib.pkeyCtxFromPKey(nil, key, nil) else {
            throw CryptoError(.operationFailed, "EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { lib.pkeyCtxFree(ctx) }
        guard lib.pkeyVerifyInit(ctx) == 1 else { throw CryptoError(.operationFailed, "EVP_PKEY_verify_init failed") }
        let der = Self.der(r: Array(signature.prefix(n)), s: Array(signature.suffix(n)))
        return lib.pkeyVerify(ctx, der, der.count, message, message.count) == 1
    }

    private static var littleEndianHost: Bool { 1.littleEndian == 1 }

    // MARK: DER ECDSA-Sig-Value (SEC 1 §C.5: SEQUENCE { r INTEGER, s INTEGER }) — encoding only, no arithmetic.

    static func raw(fromDER der: [UInt8], scalarLength n: Int) -> [UInt8]? {
        var i = 0
        func length() -> Int? {
            guard i < der.count else { return nil }
            let first = der[i]
            i += 1
            if first < 0x80 { return Int(first) }
            guard first == 0x81, i < der.count else { return nil }
            i += 1
            return Int(der[i - 1])
        }
        func integer() -> [UInt8]? {
            guard i < der.count, der[i] == 0x02 else { return nil }
            i += 1
            guard let l = length(), l > 0, i + l <= der.count else { return nil }
            var v = Array(der[i..<i + l])
            i += l
            while v.count > n, v.first == 0 { v.removeFirst() }
            guard v.count <= n else { return nil }
            return [UInt8](repeating: 0, count: n - v.count) + v
        }
        guard der.first == 0x30 else { return nil }
        i = 1
        guard let total = length(), i + total == der.count, let r = integer(), let s = integer(), i == der.count
        else { return nil }
        return r + s
    }

    static func der(r: [UInt8], s: [UInt8]) -> [UInt8] {
        func integer(_ v: [UInt8]) -> [UInt8] {
            var b = Array(v.drop { $0 == 0 })
            if b.isEmpty { b = [0] }
            if b[0] & 0x80 != 0 { b.insert(0, at: 0) }
            return [0x02, UInt8(b.count)] + b
        }
        let body = integer(r) + integer(s)
        return (body.count < 0x80 ? [0x30, UInt8(body.count)] : [0x30, 0x81, UInt8(body.count)]) + body
    }
}

extension LibCrypto {
    /// An EC key from the curve name and one component: `priv` (OSSL_PARAM_UNSIGNED_INTEGER = 2, selection
    /// EVP_PKEY_KEYPAIR = 0x87) or `pub` (OSSL_PARAM_OCTET_STRING = 5, selection EVP_PKEY_PUBLIC_KEY = 0x86).
    func key(curve: String, name: String, type: UInt32, value: [UInt8], selection: Int32) throws(CryptoError)
        -> OpaquePointer
    {
        guard let ctx = pkeyCtxFromName(nil, "EC", nil) else {
            throw CryptoError(.libraryUnavailable, "libcrypto's default provider has no EC keys")
        }
        defer { pkeyCtxFree(ctx) }
        guard pkeyFromDataInit(ctx) == 1 else { throw CryptoError(.operationFailed, "EVP_PKEY_fromdata_init failed") }
        var pkey: OpaquePointer?
        var bytes = value
        let ok: Bool = "group".withCString { gk in
            curve.withCString { gv in
                name.withCString { nk in
                    bytes.withUnsafeMutableBytes { v in
                        var params = [
                            OSSLParam(
                                key: gk, dataType: 4, data: UnsafeMutableRawPointer(mutating: gv),
                                dataSize: curve.utf8.count, returnSize: -1),
                            OSSLParam(key: nk, dataType: type, data: v.baseAddress, dataSize: v.count, returnSize: -1),
                            OSSLParam(key: nil, dataType: 0, data: nil, dataSize: 0, returnSize: 0),
                        ]
                        return params.withUnsafeMutableBytes { p in pkeyFromData(ctx, &pkey, selection, p.baseAddress) }
                            == 1
                    }
                }
            }
        }
        guard ok, let pkey else {
            throw CryptoError(
                .operationFailed, "libcrypto refused the \(curve) \(name == "priv" ? "private" : "public") key")
        }
        return pkey
    }
}
