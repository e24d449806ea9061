internal import OpenNFCBytes

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

// OpenSSL 3 EVP functions, all with opaque pointers (EVP_CIPHER, EVP_CIPHER_CTX, EVP_MAC, EVP_MAC_CTX), `int`
// results (1 = success) and `size_t` lengths (OpenSSL 3.0 manual pages EVP_EncryptInit(3), EVP_MAC(3)).
typealias FnCipherFetch =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?
typealias FnCipherCtxNew = @convention(c) () -> OpaquePointer?
typealias FnCipherCtxFree = @convention(c) (OpaquePointer?) -> Void
typealias FnCipherInit =
    @convention(c) (
        OpaquePointer?, OpaquePointer?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, Int32, UnsafeRawPointer?
    ) -> Int32
typealias FnCipherCtxSetPadding = @convention(c) (OpaquePointer?, Int32) -> Int32
typealias FnCipherUpdate =
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?, UnsafePointer<UInt8>?, Int32
    )
    -> Int32
typealias FnCipherFinal =
    @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?) -> Int32
typealias FnMacFetch =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?
typealias FnMacCtxNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
typealias FnMacCtxFree = @convention(c) (OpaquePointer?) -> Void
typealias FnMacInit = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafeRawPointer?) -> Int32
typealias FnMacUpdate = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int) -> Int32
typealias FnMacFinal =
    @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, Int) -> Int32

// PEM private keys (PEM_read_bio_PrivateKey(3), BIO_s_mem(3), ERR_get_error(3)): the passphrase callback is OpenSSL's
// `pem_password_cb` — `int cb(char *buf, int size, int rwflag, void *u)`, the passphrase's length or -1.
typealias PEMPasswordCallback =
    @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
typealias FnBIONewMemBuf = @convention(c) (UnsafeRawPointer?, Int32) -> OpaquePointer?
typealias FnBIOFree = @convention(c) (OpaquePointer?) -> Int32
typealias FnPEMReadPrivateKey =
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, PEMPasswordCallback?, UnsafeMutableRawPointer?
    )
    -> OpaquePointer?
typealias FnErrGetError = @convention(c) () -> UInt
typealias FnErrErrorStringN = @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void

/// Mirror of OpenSSL 3's `OSSL_PARAM` (`const char *key; unsigned int data_type; void *data; size_t data_size;
/// size_t return_size;` — 40 bytes on 64-bit platforms, OSSL_PARAM(3)).
struct OSSLParam {
    var key: UnsafePointer<CChar>?
    var dataType: UInt32
    var data: UnsafeMutableRawPointer?
    var dataSize: Int
    var returnSize: Int
}

/// OpenSSL 3's libcrypto loaded at run time with `dlopen`, so the package builds without OpenSSL's headers and a
/// missing library is a clear error (``CryptoError/Code/libraryUnavailable``) instead of a link failure.
///
/// | Function | Used for |
/// |---|---|
/// | `EVP_CIPHER_fetch` | `AES-128/192/256-ECB` and `-CBC`, `DES-EDE3-ECB`, `DES-EDE3-CBC` from the default provider |
/// | `EVP_CIPHER_CTX_new` / `_free` / `_set_padding` | one context per operation, padding off |
/// | `EVP_CipherInit_ex2` / `EVP_CipherUpdate` / `EVP_CipherFinal_ex` | encryption and decryption |
/// | `EVP_MAC_fetch("CMAC")` / `EVP_MAC_CTX_new` / `_free` / `EVP_MAC_init` / `_update` / `_final` | CMAC |
/// | `EVP_PKEY_CTX_new_from_name` / `_from_pkey` / `_free`, `EVP_PKEY_fromdata_init` / `_fromdata` / `_free`, `EVP_PKEY_sign_init` / `_sign`, `EVP_PKEY_verify_init` / `_verify` | ECDSA (``ECDSA``) |
/// | `BIO_new_mem_buf` / `BIO_free`, `PEM_read_bio_PrivateKey`, `ERR_get_error` / `ERR_error_string_n` | checking a PEM private key and its passphrase (``PrivateKeyPEM``) |
/// | the rest of the table | ``LibCryptoPK``: digests, RSA and EC keys, signatures with a digest, EC arithmetic |
///
/// Single DES and two-key 3DES run as three-key EDE with the key repeated (K1 K1 K1 and K1 K2 K1): E_K1(D_K1(E_K1(x)))
/// = E_K1(x), and keying option 2 of NIST SP 800-67 §3.2 is K3 = K1. OpenSSL 3 moved plain `DES-ECB` to its legacy
/// provider, which is often not installed; this way only the default provider is needed.
///
/// Fetched algorithms stay for the life of the process; the object is immutable and safe to share between threads
/// (OpenSSL 3 fetched objects are thread-safe; contexts are created per call).
final class LibCrypto: @unchecked Sendable {
    let cipherCtxNew: FnCipherCtxNew
    let cipherCtxFree: FnCipherCtxFree
    let cipherInit: FnCipherInit
    let cipherSetPadding: FnCipherCtxSetPadding
    let cipherUpdate: FnCipherUpdate
    let cipherFinal: FnCipherFinal
    let macCtxNew: FnMacCtxNew
    let macCtxFree: FnMacCtxFree
    let macInit: FnMacInit
    let macUpdate: FnMacUpdate
    let macFinal: FnMacFinal
    let cmac: OpaquePointer
    let pkeyCtxFromName: FnPKeyCtxNewFromName
    let pkeyCtxFromPKey: FnPKeyCtxNewFromPKey
    let pkeyCtxFree: FnPKeyCtxFree
    let pkeyFree: FnPKeyFree
    let pkeyFromDataInit: FnPKeyInit
    let pkeyFromData: FnPKeyFromData
    let pkeySignInit: FnPKeyInit
    let pkeySign: FnPKeySign
    let pkeyVerifyInit: FnPKeyInit
    let pkeyVerify: FnPKeyVerify
    let bioNewMemBuf: FnBIONewMemBuf
    let bioFree: FnBIOFree
    let pemReadPrivateKey: FnPEMReadPrivateKey
    let errGetError: FnErrGetError
    let errErrorStringN: FnErrErrorStringN
    /// Fetched `EVP_CIPHER`s by OpenSSL name.
    let ciphers: [String: OpaquePointer]
    /// The loaded library, for ``LibCryptoPK``'s symbols.
    let symbols: LibCryptoSymbols

    static let cipherNames = [
        "AES-128-ECB", "AES-128-CBC", "AES-192-ECB", "AES-192-CBC", "AES-256-ECB", "AES-256-CBC", "DES-EDE3-ECB",
        "DES-EDE3-CBC",
    ]

    private static let shared = OncePerProcess<LibCrypto, CryptoError>()

    /// The process-wide binding, loading the library on first use (a failure is remembered and rethrown).
    static func load() throws(CryptoError) -> LibCrypto {
        try shared.get { () throws(CryptoError) in try LibCrypto(symbols: try LibCryptoSymbols.open()) }
    }

    private init(symbols sym: LibCryptoSymbols) throws(CryptoError) {
        self.symbols = sym
        let cipherFetch = try sym("EVP_CIPHER_fetch", as: FnCipherFetch.self)
        cipherCtxNew = try sym("EVP_CIPHER_CTX_new", as: FnCipherCtxNew.self)
        cipherCtxFree = try sym("EVP_CIPHER_CTX_free", as: FnCipherCtxFree.self)
        cipherInit = try sym("EVP_CipherInit_ex2", as: FnCipherInit.self)
        cipherSetPadding = try sym("EVP_CIPHER_CTX_set_padding", as: FnCipherCtxSetPadding.self)
        cipherUpdate = try sym("EVP_CipherUpdate", as: FnCipherUpdate.self)
        cipherFinal = try sym("EVP_CipherFinal_ex", as: FnCipherFinal.self)
        let macFetch = try sym("EVP_MAC_fetch", as: FnMacFetch.self)
        macCtxNew = try sym("EVP_MAC_CTX_new", as: FnMacCtxNew.self)
        macCtxFree = try sym("EVP_MAC_CTX_free", as: FnMacCtxFree.self)
        macInit = try sym("EVP_MAC_init", as: FnMacInit.self)
        macUpdate = try sym("EVP_MAC_update", as: FnMacUpdate.self)
        macFinal = try sym("EVP_MAC_final", as: FnMacFinal.self)
        pkeyCtxFromName = try sym("EVP_PKEY_CTX_new_from_name", as: FnPKeyCtxNewFromName.self)
        pkeyCtxFromPKey = try sym("EVP_PKEY_CTX_new_from_pkey", as: FnPKeyCtxNewFromPKey.self)
        pkeyCtxFree = try sym("EVP_PKEY_CTX_free", as: FnPKeyCtxFree.self)
        pkeyFree = try sym("EVP_PKEY_free", as: FnPKeyFree.self)
        pkeyFromDataInit = try sym("EVP_PKEY_fromdata_init", as: FnPKeyInit.self)
        pkeyFromData = try sym("EVP_PKEY_fromdata", as: FnPKeyFromData.self)
        pkeySignInit = try sym("EVP_PKEY_sign_init", as: FnPKeyInit.self)
        pkeySign = try sym("EVP_PKEY_sign", as: FnPKeySign.self)
        pkeyVerifyInit = try sym("EVP_PKEY_verify_init", as: FnPKeyInit.self)
        pkeyVerify = try sym("EVP_PKEY_verify", as: FnPKeyVerify.self)
        bioNewMemBuf = try sym("BIO_new_mem_buf", as: FnBIONewMemBuf.self)
        bioFree = try sym("BIO_free", as: FnBIOFree.self)
        pemReadPrivateKey = try sym("PEM_read_bio_PrivateKey", as: FnPEMReadPrivateKey.self)
        errGetError = try sym("ERR_get_error", as: FnErrGetError.self)
        errErrorStringN = try sym("ERR_error_string_n", as: FnErrErrorStringN.self)
        var fetched: [String: OpaquePointer] = [:]
        for name in Self.cipherNames {
            guard let c = cipherFetch(nil, name, nil) else {
                throw CryptoError(.libraryUnavailable, "libcrypto's default provider has no cipher \(name)")
            }
            fetched[name] = c
        }
        ciphers = fetched
        guard let m = macFetch(nil, "CMAC", nil) else {
            throw CryptoError(.libraryUnavailable, "libcrypto's default provider has no MAC CMAC")
        }
        cmac = m
    }

    /// Runs one whole-block cipher operation without padding: `EVP_CipherInit_ex2`, one update, final.
    func run(cipher name: String, key: [UInt8], iv: [UInt8]?, encrypt: Bool, data: [UInt8]) throws(CryptoError)
        -> [UInt8]
    {
        guard let cipher = ciphers[name], let ctx = cipherCtxNew() else {
            throw CryptoError(.operationFailed, "EVP_CIPHER_CTX_new failed for \(name)")
        }
        defer { cipherCtxFree(ctx) }
        let ok: Bool = key.withUnsafeBufferPointer { k in
            func initialise(_ ivp: UnsafePointer<UInt8>?) -> Bool {
                cipherInit(ctx, cipher, k.baseAddress, ivp, encrypt ? 1 : 0, nil) == 1
                    && cipherSetPadding(ctx, 0) == 1
            }
            if let iv { return iv.withUnsafeBufferPointer { initialise($0.baseAddress) } }
            return initialise(nil)
        }
        guard ok else { throw CryptoError(.operationFailed, "EVP_CipherInit_ex2 refused \(name)") }
        var out = [UInt8](repeating: 0, count: data.count + 32)
        var written: Int32 = 0
        var tail: Int32 = 0
        let done: Bool = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { d in
                guard cipherUpdate(ctx, o.baseAddress, &written, d.baseAddress, Int32(d.count)) == 1 else {
                    return false
                }
                return cipherFinal(ctx, o.baseAddress! + Int(written), &tail) == 1
            }
        }
        guard done else { throw CryptoError(.operationFailed, "EVP_CipherUpdate/Final failed for \(name)") }
        return Array(out.prefix(Int(written + tail)))
    }

    /// CMAC (NIST SP 800-38B) of `data` under `key` with the CBC cipher `name`, the whole tag.
    func cmac(cipher name: String, key: [UInt8], data: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let ctx = macCtxNew(cmac) else { throw CryptoError(.operationFailed, "EVP_MAC_CTX_new failed") }
        defer { macCtxFree(ctx) }
        let paramKey = "cipher"
        var out = [UInt8](repeating: 0, count: 16)
        var outLength = 0
        let ok: Bool = paramKey.withCString { pk in
            name.withCString { pv in
                // OSSL_PARAM_UTF8_STRING = 4; return_size starts as OSSL_PARAM_UNMODIFIED (SIZE_MAX).
                var params = [
                    OSSLParam(
                        key: pk, dataType: 4, data: UnsafeMutableRawPointer(mutating: pv), dataSize: strlen(pv),
                        returnSize: -1),
                    OSSLParam(key: nil, dataType: 0, data: nil, dataSize: 0, returnSize: 0),
                ]
                return params.withUnsafeMutableBytes { p in
                    key.withUnsafeBufferPointer { k in
                        guard macInit(ctx, k.baseAddress, k.count, p.baseAddress) == 1 else { return false }
                        let updated = data.withUnsafeBufferPointer { d in macUpdate(ctx, d.baseAddress, d.count) }
                        guard updated == 1 else { return false }
                        return out.withUnsafeMutableBufferPointer { o in
                            macFinal(ctx, o.baseAddress, &outLength, o.count) == 1
                        }
                    }
                }
            }
        }
        guard ok else { throw CryptoError(.operationFailed, "EVP_MAC CMAC with \(name) failed") }
        return Array(out.prefix(outLength))
    }
}

/// libcrypto opened once (``SharedLibrary``, OpenNFCBytes) and its symbols looked up by name: the one loader behind
/// ``LibCrypto`` and ``LibCryptoPK``. A missing library or symbol is ``CryptoError/Code/libraryUnavailable`` with what
/// to install.
struct LibCryptoSymbols: Sendable {
    let library: SharedLibrary

    #if canImport(Darwin)
        static let libraryNames = ["libcrypto.3.dylib", "/opt/homebrew/opt/openssl@3/lib/libcrypto.3.dylib"]
    #else
        static let libraryNames = ["libcrypto.so.3"]
    #endif

    /// The first of ``libraryNames`` that loads.
    static func open() throws(CryptoError) -> LibCryptoSymbols {
        switch SharedLibrary.open(firstOf: libraryNames) {
        case .success(let library): return LibCryptoSymbols(library: library)
        case .failure(let failure):
            throw CryptoError(
                .libraryUnavailable,
                "cannot load OpenSSL 3's libcrypto (\(failure.reason)); install it (Debian/Ubuntu: `apt-get install libssl3`)"
            )
        }
    }

    /// The function `name`, typed as `type` (a `@convention(c)` function type matching its C prototype).
    func callAsFunction<T>(_ name: String, as type: T.Type) throws(CryptoError) -> T {
        guard let f = library.function(name, as: type) else {
            throw CryptoError(.libraryUnavailable, "libcrypto has no symbol \(name): it is not OpenSSL 3 or later")
        }
        return f
    }
}
