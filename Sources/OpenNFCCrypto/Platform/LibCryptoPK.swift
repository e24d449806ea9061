internal import OpenNFCBytes

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

// OpenSSL 3.0 functions for digests, public-key objects and EC arithmetic, with the C prototypes of their manual
// pages: EVP_DigestInit(3), EVP_DigestSignInit(3), EVP_DigestVerifyInit(3), EVP_PKEY_CTX_ctrl(3),
// EVP_PKEY_keygen(3), d2i_PUBKEY(3) / i2d_PUBKEY, d2i_AutoPrivateKey(3), EVP_PKEY2PKCS8, EVP_PKEY_derive(3),
// EVP_PKEY_verify_recover(3), EVP_PKEY_encrypt(3), EVP_PKEY_get_int_param(3), BN_new(3), BN_bin2bn(3),
// BN_rand_range(3), EC_GROUP_new(3), EC_GROUP_copy(3), EC_POINT_new(3), EC_POINT_add(3), OBJ_nid2obj(3).
typealias FnPtrFromName = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?
typealias FnVoidToPtr = @convention(c) () -> OpaquePointer?
typealias FnPtrToVoid = @convention(c) (OpaquePointer?) -> Void
typealias FnPtrToInt = @convention(c) (OpaquePointer?) -> Int32
typealias FnPtrIntToInt = @convention(c) (OpaquePointer?, Int32) -> Int32
typealias FnPtrStrToInt = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> Int32
typealias FnDigest =
    @convention(c) (
        UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?, OpaquePointer?,
        OpaquePointer?
    ) -> Int32
typealias FnDigestSignInit =
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, OpaquePointer?, OpaquePointer?, OpaquePointer?
    ) -> Int32
typealias FnDigestSign =
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int
    ) -> Int32
typealias FnDigestVerify =
    @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int) -> Int32
typealias FnPKeyGenerate = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
typealias FnD2I =
    @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int)
    -> OpaquePointer?
typealias FnI2D = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
typealias FnPtrPtrToInt = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
typealias FnGetStringParam =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<Int>?)
    -> Int32
typealias FnGetBNParam =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
typealias FnBNBin2BN = @convention(c) (UnsafePointer<UInt8>?, Int32, OpaquePointer?) -> OpaquePointer?
typealias FnBNToBinPad = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
typealias FnIntToPtr = @convention(c) (Int32) -> OpaquePointer?
typealias FnGroupFromCurve =
    @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> OpaquePointer?
typealias FnGroupSetGenerator =
    @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
typealias FnGroupGetCurve =
    @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
typealias FnPtrToPtr = @convention(c) (OpaquePointer?) -> OpaquePointer?
typealias FnOct2Point =
    @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<UInt8>?, Int, OpaquePointer?) -> Int32
typealias FnPoint2Oct =
    @convention(c) (OpaquePointer?, OpaquePointer?, UInt32, UnsafeMutablePointer<UInt8>?, Int, OpaquePointer?) -> Int
typealias FnPointMul =
    @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?)
    -> Int32
typealias FnPointAdd =
    @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
typealias FnPointOnCurve = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
typealias FnNameToNID = @convention(c) (UnsafePointer<CChar>) -> Int32
typealias FnPKeyRecover =
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int
    ) -> Int32
typealias FnPKeyDerive =
    @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32

/// The second half of ``LibCrypto``'s table: digests, `EVP_PKEY` objects (RSA and EC keys in and out as DER,
/// signatures with a digest, the raw RSA operations, ECDH) and the EC group and point arithmetic PACE's mappings
/// need. Every cryptographic operation happens in libcrypto; this file only moves bytes in and out.
///
/// | Function | Used for |
/// |---|---|
/// | `EVP_MD_fetch`, `EVP_Digest` | ``Digest`` (SHA-1, SHA-224/256/384/512) |
/// | `EVP_MD_CTX_new` / `_free`, `EVP_DigestSignInit` / `EVP_DigestSign`, `EVP_DigestVerifyInit` / `EVP_DigestVerify` | ``PrivateKey/sign(_:scheme:)``, ``PublicKey/verify(_:of:scheme:)`` |
/// | `EVP_PKEY_CTX_set_rsa_padding`, `_set_rsa_pss_saltlen`, `_set_rsa_keygen_bits`, `_set_group_name` | RSA padding modes (PKCS #1 v1.5, PSS, none), key generation parameters |
/// | `EVP_PKEY_keygen_init`, `EVP_PKEY_generate` | RSA and EC key generation |
/// | `d2i_PUBKEY` / `i2d_PUBKEY`, `d2i_AutoPrivateKey`, `EVP_PKEY2PKCS8` / `i2d_PKCS8_PRIV_KEY_INFO` | keys as SubjectPublicKeyInfo and PKCS #8 DER |
/// | `EVP_PKEY_verify_recover_init` / `_verify_recover`, `EVP_PKEY_sign` with no padding | the raw RSA public and private operations (ISO/IEC 9796-2) |
/// | `EVP_PKEY_derive_init` / `_set_peer` / `_derive` | ECDH between two `EVP_PKEY`s |
/// | `EVP_PKEY_get_base_id`, `_get_bits`, `_get_utf8_string_param`, `_get_octet_string_param`, `_get_bn_param` | what a key is |
/// | `BN_*`, `OBJ_sn2nid`, `EC_GROUP_*`, `EC_POINT_*` | ``ECGroup``: points, scalars, generic mapping |
final class LibCryptoPK: @unchecked Sendable {
    let mdFetch: FnPtrFromName
    let digest: FnDigest
    let mdCtxNew: FnVoidToPtr
    let mdCtxFree: FnPtrToVoid
    let digestSignInit: FnDigestSignInit
    let digestSign: FnDigestSign
    let digestVerifyInit: FnDigestSignInit
    let digestVerify: FnDigestVerify
    let setRSAPadding: FnPtrIntToInt
    let setPSSSaltLength: FnPtrIntToInt
    let setRSAKeygenBits: FnPtrIntToInt
    let setGroupName: FnPtrStrToInt
    let keygenInit: FnPtrToInt
    let generate: FnPKeyGenerate
    let d2iPUBKEY: FnD2I
    let i2dPUBKEY: FnI2D
    let d2iAutoPrivateKey: FnD2I
    let pkeyToPKCS8: FnPtrToPtr
    let i2dPKCS8: FnI2D
    let pkcs8Free: FnPtrToVoid
    let verifyRecoverInit: FnPtrToInt
    let verifyRecover: FnPKeyRecover
    let deriveInit: FnPtrToInt
    let deriveSetPeer: FnPtrPtrToInt
    let derive: FnPKeyDerive
    let baseID: FnPtrToInt
    let bits: FnPtrToInt
    let getUTF8Param: FnGetStringParam
    let getOctetParam: FnGetStringParam
    let getBNParam: FnGetBNParam
    let bnNew: FnVoidToPtr
    let bnFree: FnPtrToVoid
    let bnBin2BN: FnBNBin2BN
    let bnToBinPad: FnBNToBinPad
    let bnNumBits: FnPtrToInt
    let bnCtxNew: FnVoidToPtr
    let bnCtxFree: FnPtrToVoid
    let nameToNID: FnNameToNID
    let groupByNID: FnIntToPtr
    let groupFromCurve: FnGroupFromCurve
    let groupSetGenerator: FnGroupSetGenerator
    let groupGetCurve: FnGroupGetCurve
    let groupFree: FnPtrToVoid
    let groupOrder: FnPtrToPtr
    let groupCofactor: FnPtrToPtr
    let groupGenerator: FnPtrToPtr
    let groupDegree: FnPtrToInt
    let pointNew: FnPtrToPtr
    let pointFree: FnPtrToVoid
    let oct2Point: FnOct2Point
    let point2Oct: FnPoint2Oct
    let pointMul: FnPointMul
    let pointAdd: FnPointAdd
    let pointOnCurve: FnPointOnCurve
    let pointAtInfinity: FnPtrPtrToInt
    let base: LibCrypto
    /// Fetched `EVP_MD`s by OpenSSL name.
    let digests: [String: OpaquePointer]

    static let digestNames = ["SHA1", "SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512"]

    private static let shared = OncePerProcess<LibCryptoPK, CryptoError>()

    /// The process-wide binding, on the same loaded library as ``LibCrypto`` (a failure is remembered and rethrown).
    static func load() throws(CryptoError) -> LibCryptoPK {
        try shared.get { () throws(CryptoError) in try LibCryptoPK(base: try LibCrypto.load()) }
    }

    private init(base: LibCrypto) throws(CryptoError) {
        self.base = base
        let sym = base.symbols
        mdFetch = try sym("EVP_MD_fetch", as: FnPtrFromName.self)
        digest = try sym("EVP_Digest", as: FnDigest.self)
        mdCtxNew = try sym("EVP_MD_CTX_new", as: FnVoidToPtr.self)
        mdCtxFree = try sym("EVP_MD_CTX_free", as: FnPtrToVoid.self)
        digestSignInit = try sym("EVP_DigestSignInit", as: FnDigestSignInit.self)
        digestSign = try sym("EVP_DigestSign", as: FnDigestSign.self)
        digestVerifyInit = try sym("EVP_DigestVerifyInit", as: FnDigestSignInit.self)
        digestVerify = try sym("EVP_DigestVerify", as: FnDigestVerify.self)
        setRSAPadding = try sym("EVP_PKEY_CTX_set_rsa_padding", as: FnPtrIntToInt.self)
        setPSSSaltLength = try sym("EVP_PKEY_CTX_set_rsa_pss_saltlen", as: FnPtrIntToInt.self)
        setRSAKeygenBits = try sym("EVP_PKEY_CTX_set_rsa_keygen_bits", as: FnPtrIntToInt.self)
        setGroupName = try sym("EVP_PKEY_CTX_set_group_name", as: FnPtrStrToInt.self)
        keygenInit = try sym("EVP_PKEY_keygen_init", as: FnPtrToInt.self)
        generate = try sym("EVP_PKEY_generate", as: FnPKeyGenerate.self)
        d2iPUBKEY = try sym("d2i_PUBKEY", as: FnD2I.self)
        i2dPUBKEY = try sym("i2d_PUBKEY", as: FnI2D.self)
        d2iAutoPrivateKey = try sym("d2i_AutoPrivateKey", as: FnD2I.self)
        pkeyToPKCS8 = try sym("EVP_PKEY2PKCS8", as: FnPtrToPtr.self)
        i2dPKCS8 = try sym("i2d_PKCS8_PRIV_KEY_INFO", as: FnI2D.self)
        pkcs8Free = try sym("PKCS8_PRIV_KEY_INFO_free", as: FnPtrToVoid.self)
        verifyRecoverInit = try sym("EVP_PKEY_verify_recover_init", as: FnPtrToInt.self)
        verifyRecover = try sym("EVP_PKEY_verify_recover", as: FnPKeyRecover.self)
        deriveInit = try sym("EVP_PKEY_derive_init", as: FnPtrToInt.self)
        deriveSetPeer = try sym("EVP_PKEY_derive_set_peer", as: FnPtrPtrToInt.self)
        derive = try sym("EVP_PKEY_derive", as: FnPKeyDerive.self)
        baseID = try sym("EVP_PKEY_get_base_id", as: FnPtrToInt.self)
        bits = try sym("EVP_PKEY_get_bits", as: FnPtrToInt.self)
        getUTF8Param = try sym("EVP_PKEY_get_utf8_string_param", as: FnGetStringParam.self)
        getOctetParam = try sym("EVP_PKEY_get_octet_string_param", as: FnGetStringParam.self)
        getBNParam = try sym("EVP_PKEY_get_bn_param", as: FnGetBNParam.self)
        bnNew = try sym("BN_new", as: FnVoidToPtr.self)
        bnFree = try sym("BN_clear_free", as: FnPtrToVoid.self)
        bnBin2BN = try sym("BN_bin2bn", as: FnBNBin2BN.self)
        bnToBinPad = try sym("BN_bn2binpad", as: FnBNToBinPad.self)
        bnNumBits = try sym("BN_num_bits", as: FnPtrToInt.self)
        bnCtxNew = try sym("BN_CTX_new", as: FnVoidToPtr.self)
        bnCtxFree = try sym("BN_CTX_free", as: FnPtrToVoid.self)
        nameToNID = try sym("OBJ_sn2nid", as: FnNameToNID.self)
        groupByNID = try sym("EC_GROUP_new_by_curve_name", as: FnIntToPtr.self)
        groupFromCurve = try sym("EC_GROUP_new_curve_GFp", as: FnGroupFromCurve.self)
        groupSetGenerator = try sym("EC_GROUP_set_generator", as: FnGroupSetGenerator.self)
        groupGetCurve = try sym("EC_GROUP_get_curve", as: FnGroupGetCurve.self)
        groupFree = try sym("EC_GROUP_free", as: FnPtrToVoid.self)
        groupOrder = try sym("EC_GROUP_get0_order", as: FnPtrToPtr.self)
        groupCofactor = try sym("EC_GROUP_get0_cofactor", as: FnPtrToPtr.self)
        groupGenerator = try sym("EC_GROUP_get0_generator", as: FnPtrToPtr.self)
        groupDegree = try sym("EC_GROUP_get_degree", as: FnPtrToInt.self)
        pointNew = try sym("EC_POINT_new", as: FnPtrToPtr.self)
        pointFree = try sym("EC_POINT_clear_free", as: FnPtrToVoid.self)
        oct2Point = try sym("EC_POINT_oct2point", as: FnOct2Point.self)
        point2Oct = try sym("EC_POINT_point2oct", as: FnPoint2Oct.self)
        pointMul = try sym("EC_POINT_mul", as: FnPointMul.self)
        pointAdd = try sym("EC_POINT_add", as: FnPointAdd.self)
        pointOnCurve = try sym("EC_POINT_is_on_curve", as: FnPointOnCurve.self)
        pointAtInfinity = try sym("EC_POINT_is_at_infinity", as: FnPtrPtrToInt.self)
        var fetched: [String: OpaquePointer] = [:]
        for name in Self.digestNames {
            guard let md = mdFetch(nil, name, nil) else {
                throw CryptoError(.libraryUnavailable, "libcrypto's default provider has no digest \(name)")
            }
            fetched[name] = md
        }
        digests = fetched
    }

    /// A big number from unsigned big-endian bytes; free with `bnFree`.
    func bignum(_ bytes: [UInt8]) throws(CryptoError) -> OpaquePointer {
        guard let bn = bytes.withUnsafeBufferPointer({ bnBin2BN($0.baseAddress, Int32($0.count), nil) }) else {
            throw CryptoError(.operationFailed, "BN_bin2bn failed")
        }
        return bn
    }

    /// The unsigned big-endian bytes of `bn`, left-padded with zeros to `length`.
    func bytes(_ bn: OpaquePointer, length: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let n = out.withUnsafeMutableBufferPointer { bnToBinPad(bn, $0.baseAddress, Int32(length)) }
        guard n == length else { throw CryptoError(.invalidDataLength, "a number does not fit in \(length) bytes") }
        return out
    }
}
