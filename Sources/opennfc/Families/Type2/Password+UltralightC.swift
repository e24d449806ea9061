import OpenNFCBytes
import OpenNFCTags

/// `opennfc password … --key` on a MIFARE Ultralight C (MF0ICU2): the 3DES three-pass authentication (§7.5.5,
/// §9.5), the key pages 2Ch–2Fh (§7.5.7) and AUTH0/AUTH1 (§7.5.8), through ``UltralightCAuthentication``; and the
/// `--key` option of `read`, `write` and `dump`, which authenticates before their first page so protected pages read
/// and write as on any Type 2 tag.
extension Commands {
    static let ultralightCKeyOption = Command.Option(
        name: "key", value: "<hex>",
        help: "Ultralight C: the 3DES key, 16 bytes as 32 hex digits (factory key 49454D4B41455242214E4143554F5946).")

    /// `--key` of `read`, `write` and `dump`: authenticate an Ultralight C first.
    static let ultralightCAuthOption = Command.Option(
        name: "key", value: "<hex>",
        help: "Ultralight C: authenticate with this 3DES key (32 hex digits) first, to reach protected pages.")

    /// `--key` when given: 16 bytes, else a usage error naming the option.
    static func ultralightCKey(_ inv: Invocation, _ name: String = "key") throws -> [UInt8]? {
        try hexOption(inv, name, bytes: 16)
    }

    /// Authenticates the Ultralight C in the field with `key`; a failure says whether the tag is not an Ultralight
    /// C or refused the key.
    static func authenticateUltralightC(_ tag: ConnectedTag, key: [UInt8]) throws {
        guard tag.type2Chip?.family == .ultralightC else {
            throw CLIError.failure(
                "the tag is \(tag.chip), UID \(tag.uid); --key is the 3DES key of a MIFARE Ultralight C")
        }
        let auth = UltralightCAuthentication(target: tag.target, frontend: tag.frontend)
        do throws(TagError) {
            try auth.authenticate(key: key)
        } catch {
            if error.code == .commandRejected {
                throw CLIError.failure(
                    "the Ultralight C \(tag.uid) refused the key \(key.hexString): it has another 3DES key")
            }
            throw CLIError.failure(TagErrorText.describe(error, doing: "authenticate with the 3DES key"))
        }
    }

    /// Authenticates first when `--key` was given (read, write, dump).
    static func authenticateIfKeyGiven(_ key: [UInt8]?, _ tag: ConnectedTag) throws {
        if let key { try authenticateUltralightC(tag, key: key) }
    }

    /// The NTAG options that mean nothing on an Ultralight C, refused by name.
    static func refuseNTAGOptions(_ inv: Invocation, _ names: [String]) throws {
        for n in names where inv.value(n) != nil || inv.flag(n) {
            throw CLIError.usage("--\(n) is for NTAG21x and Ultralight EV1 passwords; an Ultralight C uses --key")
        }
    }

    /// The tag in the field, which must be an Ultralight C for the `--key` forms.
    static func ultralightC(_ tag: ConnectedTag) throws {
        guard tag.type2Chip?.family == .ultralightC else {
            throw CLIError.failure(
                "the tag is \(tag.chip), UID \(tag.uid); --key is for a MIFARE Ultralight C (NTAG21x and Ultralight "
                    + "EV1 take --password)")
        }
    }

    /// `password set --key NEW [--current-key OLD] [--from-page N] [--protect-reads]`.
    static func setUltralightCKey(_ inv: Invocation, newKey: [UInt8]) throws -> Int32 {
        try refuseNTAGOptions(inv, ["password", "pack", "auth-limit", "current"])
        let current = try ultralightCKey(inv, "current-key")
        let auth0 = try inv.int("from-page", default: 4, range: 3...0x30)
        let protectReads = inv.flag("protect-reads")
        return try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            try ultralightC(tag)
            if let current { try authenticateUltralightC(tag, key: current) }
            let auth = UltralightCAuthentication(target: tag.target, frontend: tag.frontend)
            // The key first, AUTH1 then AUTH0 last: torn before AUTH0, the pages are as protected as before.
            try tagStep("write the key pages") { () throws(TagError) in try auth.changeKey(to: newKey) }
            try tagStep("write AUTH1 and AUTH0") { () throws(TagError) in
                try auth.configure(auth0: auth0, protectReads: protectReads)
            }
            try session.release()
            let scope = auth0 >= 0x30 ? "no pages" : "pages \(auth0)–47"
            let what = protectReads ? "reading and writing" : "writing"
            passwordResult(
                inv, tag, [("auth0", .int(auth0)), ("protectReads", .bool(protectReads))],
                "3DES key set on \(tag.chip) \(tag.uid): \(scope) need it for \(what); it counts from the next "
                    + "activation.")
            return 0
        }
    }

    /// `password auth --key K`.
    static func checkUltralightCKey(_ inv: Invocation, key: [UInt8]) throws -> Int32 {
        try refuseNTAGOptions(inv, ["password", "pack"])
        return try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            try ultralightC(tag)
            try authenticateUltralightC(tag, key: key)
            try session.release()
            passwordResult(
                inv, tag, [("accepted", .bool(true))],
                "3DES key accepted by \(tag.chip) \(tag.uid) (mutual authentication).")
            return 0
        }
    }

    /// `password remove --key K`: AUTH0 30h (no page protected), AUTH1 writes-only, then the factory key.
    static func removeUltralightCKey(_ inv: Invocation, key: [UInt8]) throws -> Int32 {
        try refuseNTAGOptions(inv, ["password"])
        return try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            try ultralightC(tag)
            try authenticateUltralightC(tag, key: key)
            let auth = UltralightCAuthentication(target: tag.target, frontend: tag.frontend)
            try tagStep("write AUTH1 and AUTH0") { () throws(TagError) in
                try auth.configure(auth0: 0x30, protectReads: false)
            }
            try tagStep("write the factory key") { () throws(TagError) in
                try auth.changeKey(to: UltralightCAuthentication.factoryKey)
            }
            try session.release()
            passwordResult(
                inv, tag, [("protected", .bool(false))],
                "Protection removed from \(tag.chip) \(tag.uid): no page needs the key now; factory key restored.")
            return 0
        }
    }
}
