/// Checks a PEM private key (PKCS#8, encrypted PKCS#8 or a traditional `Proc-Type: 4,ENCRYPTED` key) and its
/// passphrase through libcrypto's `PEM_read_bio_PrivateKey`, before a TLS library is handed the file: a wrong or
/// missing passphrase is then a clear error up front, and OpenSSL never prompts on a terminal (its default when no
/// passphrase callback is given).
package enum PrivateKeyPEM {
    /// What `PEM_read_bio_PrivateKey` made of the bytes.
    package enum Outcome: Sendable, Hashable {
        /// A private key, decrypted with the passphrase when it was encrypted.
        case valid(encrypted: Bool)
        /// The key is encrypted and no passphrase was given.
        case needsPassphrase
        /// The key is encrypted and the passphrase does not decrypt it (libcrypto's reason).
        case wrongPassphrase(String)
        /// The bytes hold no PEM private key libcrypto can read (libcrypto's reason).
        case notAKey(String)
    }

    /// The passphrase handed to libcrypto's callback, and whether libcrypto asked for one (the key is encrypted).
    private final class Passphrase {
        let bytes: [UInt8]?
        var asked = false
        init(_ bytes: [UInt8]?) { self.bytes = bytes }
    }

    /// Reads the key in `pem` with `passphrase` (nil: none; an encrypted key then yields ``Outcome/needsPassphrase``).
    package static func check(_ pem: [UInt8], passphrase: [UInt8]?) throws(CryptoError) -> Outcome {
        let lib = try LibCrypto.load()
        while lib.errGetError() != 0 {}
        let box = Passphrase(passphrase)
        let callback: PEMPasswordCallback = { buffer, size, _, context in
            guard let buffer, let context else { return -1 }
            let box = Unmanaged<Passphrase>.fromOpaque(context).takeUnretainedValue()
            box.asked = true
            guard let bytes = box.bytes, bytes.count <= Int(size) else { return -1 }
            for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
            return Int32(bytes.count)
        }
        let key: OpaquePointer? = pem.withUnsafeBytes { raw in
            guard let bio = lib.bioNewMemBuf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { _ = lib.bioFree(bio) }
            return withExtendedLifetime(box) {
                lib.pemReadPrivateKey(bio, nil, callback, Unmanaged.passUnretained(box).toOpaque())
            }
        }
        var reason = ""
        while true {
            let e = lib.errGetError()
            if e == 0 { break }
            guard reason.isEmpty else { continue }
            var text = [CChar](repeating: 0, count: 256)
            lib.errErrorStringN(e, &text, text.count)
            reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if let key {
            lib.pkeyFree(key)
            return .valid(encrypted: box.asked)
        }
        if box.asked { return passphrase == nil ? .needsPassphrase : .wrongPassphrase(reason) }
        return .notAKey(reason.isEmpty ? "no PEM private key found" : reason)
    }
}
