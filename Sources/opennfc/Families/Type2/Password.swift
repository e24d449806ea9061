import OpenNFCBytes
import OpenNFCTags

extension Commands {
    static let password = Command(
        name: "password",
        abstract:
            "Set, check or remove the password of an NTAG21x or Ultralight EV1 tag, or an Ultralight C's 3DES key.",
        discussion: """
            NTAG213/215/216 and Ultralight EV1 chips protect pages from AUTH0 on with a 4-byte password (PWD);
            on a correct PWD_AUTH they answer a 2-byte acknowledge (PACK) that lets a reader tell a genuine tag.
            PROT makes reads need the password too; AUTHLIM limits wrong attempts, after which the protected
            pages are sealed for good.

            A MIFARE Ultralight C protects pages from AUTH0 on with a 16-byte 3DES key instead (--key): 'auth'
            runs the three-pass mutual authentication, 'set' writes a new key and AUTH0/AUTH1, 'remove' turns the
            protection off and restores the factory key. 'read', 'write' and 'dump' take --key to authenticate
            before reaching protected pages.
            """,
        subcommands: [passwordSet, passwordAuth, passwordRemove]
    )

    static let passwordOption = Command.Option(
        name: "password", value: "<hex>", help: "The password: 4 bytes as 8 hex digits.")

    static let passwordSet = Command(
        name: "set",
        abstract: "Protect the tag with a password.",
        discussion: """
            Writes PWD and PACK first and AUTH0 last, so a tag pulled away part way is either unprotected or
            protected with the new password.

            Examples:
              opennfc password set --password 12345678 --pack 8080 --device sim:tag.json
              opennfc password set --password 12345678 --protect-reads --auth-limit 3 --device pcsc
              opennfc password set --key 000102030405060708090A0B0C0D0E0F --from-page 16 --protect-reads \
                --current-key 49454D4B41455242214E4143554F5946 --device pcsc
            """,
        options: TagSession.options + [
            passwordOption,
            .init(
                name: "pack", value: "<hex>", help: "The PACK the tag answers: 2 bytes as 4 hex digits (default: 0000)."
            ),
            .init(
                name: "from-page", value: "<page>", help: "First protected page, AUTH0 (default: 4, all user memory)."),
            .init(name: "protect-reads", help: "Reads need the password too (PROT)."),
            .init(
                name: "auth-limit", value: "<n>",
                help: "Wrong attempts allowed, 1-7, before the tag seals (default: unlimited)."),
            .init(name: "current", value: "<hex>", help: "The password the tag has now, if it is protected."),
            ultralightCKeyOption,
            .init(
                name: "current-key", value: "<hex>",
                help: "Ultralight C: the key the tag has now (32 hex digits), when its key pages are protected."),
            .init(name: "json", help: "Print the result as JSON."),
        ],
        run: { inv in
            if let key = try ultralightCKey(inv) { return try setUltralightCKey(inv, newKey: key) }
            let pwd = try hexOption(inv, "password", bytes: 4, required: true)!
            let pack = try hexOption(inv, "pack", bytes: 2) ?? [0, 0]
            let current = try hexOption(inv, "current", bytes: 4)
            let auth0 = try inv.int("from-page", default: 4, range: 3...255)
            let limit = try inv.int("auth-limit", default: 0, range: 0...7)
            return try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                let pw = try ntagPassword(tag)
                let config: NTAGConfiguration
                do throws(TagError) {
                    config = try pw.set(
                        password: pwd, pack: pack, auth0: auth0, protectReads: inv.flag("protect-reads"),
                        authenticationLimit: limit, currentPassword: current)
                } catch {
                    throw CLIError.failure(TagErrorText.describe(error, doing: "set the password"))
                }
                try session.release()
                let last = pw.totalPages - 1
                let scope = auth0 > last ? "no pages" : "pages \(auth0)–\(last)"
                let what = config.protectsReads ? "reading and writing" : "writing"
                let tries = limit == 0 ? "unlimited tries" : "\(limit) wrong tries before the tag seals"
                passwordResult(
                    inv, tag,
                    [
                        ("auth0", .int(config.auth0)), ("protectReads", .bool(config.protectsReads)),
                        ("authLimit", .int(config.authenticationLimit)), ("pack", .string(pack.hexString)),
                    ],
                    "Password set on \(tag.chip) \(tag.uid): \(scope) need it for \(what); PACK \(pack.hexString); "
                        + "\(tries).")
                return 0
            }
        }
    )

    static let passwordAuth = Command(
        name: "auth",
        abstract: "Check a password (PWD_AUTH) and show the tag's PACK.",
        discussion: """
            Exit status 1 when the tag refuses the password, or when --pack is given and the tag answers another.

            Examples:
              opennfc password auth --password 12345678 --pack 8080 --device pcsc
              opennfc password auth --key 49454D4B41455242214E4143554F5946 --device pcsc
            """,
        options: TagSession.options + [
            passwordOption,
            .init(name: "pack", value: "<hex>", help: "The PACK a genuine tag answers; a mismatch is an error."),
            ultralightCKeyOption,
            .init(name: "json", help: "Print the result as JSON."),
        ],
        run: { inv in
            if let key = try ultralightCKey(inv) { return try checkUltralightCKey(inv, key: key) }
            let pwd = try hexOption(inv, "password", bytes: 4, required: true)!
            let expected = try hexOption(inv, "pack", bytes: 2)
            return try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                let pw = try ntagPassword(tag)
                let pack: [UInt8]
                do throws(TagError) {
                    pack = try pw.authenticate(password: pwd)
                } catch {
                    throw CLIError.failure(TagErrorText.describe(error, doing: "accept the password"))
                }
                try session.release()
                if let expected, expected != pack {
                    throw CLIError.failure(
                        "the tag accepted the password but answered PACK \(pack.hexString), not \(expected.hexString)")
                }
                passwordResult(
                    inv, tag, [("accepted", .bool(true)), ("pack", .string(pack.hexString))],
                    "Password accepted by \(tag.chip) \(tag.uid); PACK \(pack.hexString).")
                return 0
            }
        }
    )

    static let passwordRemove = Command(
        name: "remove",
        abstract: "Remove the password protection (back to the factory password).",
        discussion: """
            Authenticates, sets AUTH0 past the last page (protection off), clears PROT and AUTHLIM, and restores
            the factory password FFFFFFFF and PACK 0000.

            Examples:
              opennfc password remove --password 12345678 --device sim:tag.json
              opennfc password remove --key 000102030405060708090A0B0C0D0E0F --device sim:ulc.json
            """,
        options: TagSession.options + [
            passwordOption, ultralightCKeyOption, .init(name: "json", help: "Print the result as JSON."),
        ],
        run: { inv in
            if let key = try ultralightCKey(inv) { return try removeUltralightCKey(inv, key: key) }
            let pwd = try hexOption(inv, "password", bytes: 4, required: true)!
            return try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                let pw = try ntagPassword(tag)
                do throws(TagError) {
                    try pw.remove(password: pwd)
                } catch {
                    throw CLIError.failure(TagErrorText.describe(error, doing: "remove the password"))
                }
                try session.release()
                passwordResult(
                    inv, tag, [("protected", .bool(false))],
                    "Password removed from \(tag.chip) \(tag.uid): no page needs a password now.")
                return 0
            }
        }
    )

    /// What a `password` command prints: a JSON object (chip, UID, then `fields`) with --json, else `sentence`.
    static func passwordResult(
        _ inv: Invocation, _ tag: ConnectedTag, _ fields: [(String, JSONValue)], _ sentence: String
    ) {
        if inv.flag("json") {
            Console.out(
                JSONValue.object([("chip", .string(tag.chip)), ("uid", .string(tag.uid))] + fields).pretty + "\n")
        } else {
            Console.out(sentence + "\n")
        }
    }

    static func ntagPassword(_ tag: ConnectedTag) throws -> NTAGPassword {
        guard let chip = tag.type2Chip else {
            throw CLIError.failure("the tag is \(tag.chip); passwords are for NTAG21x and Ultralight EV1 tags")
        }
        if chip.family == .ultralightC {
            throw CLIError.failure(
                "the tag is an Ultralight C (UID \(tag.uid)): it authenticates with a 16-byte 3DES key, give --key")
        }
        do {
            return try NTAGPassword(target: tag.target, chip: chip, frontend: tag.frontend)
        } catch {
            throw CLIError.failure(TagErrorText.describe(error, doing: "use a password"))
        }
    }

    /// A hex option of an exact length; a usage error names the option and what was wrong.
    static func hexOption(_ inv: Invocation, _ name: String, bytes n: Int, required: Bool = false) throws -> [UInt8]? {
        guard let text = inv.value(name) else {
            if required { throw CLIError.usage("missing --\(name) (\(n) bytes as \(2 * n) hex digits)") }
            return nil
        }
        let b: [UInt8]
        do {
            b = try Hex.decode(text)
        } catch {
            throw CLIError.usage("--\(name) '\(text)' is not hex: \(error)")
        }
        guard b.count == n else {
            throw CLIError.usage("--\(name) takes \(n) bytes (\(2 * n) hex digits), not \(b.count)")
        }
        return b
    }
}
