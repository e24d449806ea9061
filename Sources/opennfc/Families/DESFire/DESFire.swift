import OpenNFCBytes
import OpenNFCTags

extension Commands {
    static let desfire = Command(
        name: "desfire",
        abstract: "Authenticate to a MIFARE DESFire EV1; read, write, create and list its files; change a key.",
        discussion: """
            Keys are given as --key <hex> with --cipher des|2k3des|3k3des|aes (default aes) and --key-no (default \
            0), at the level of --app (an AID of 6 hex digits, most significant first; 000000 = the PICC). AES keys \
            authenticate with AA, the DES family with 1A (ISO) or, with --legacy, 0A. --comm plain|mac|enc is the \
            file's communication setting (GetFileSettings tells it); a key-granted access travels that way.
            """,
        subcommands: [desfireAuth, desfireRead, desfireWrite, desfireChangeKey] + desfireFileCommands
            + desfireConfigCommands
    )

    static let desfireKeyOptions: [Command.Option] = [
        .init(name: "app", value: "<aid>", help: "Application ID, 6 hex digits (default 000000, the PICC)."),
        .init(name: "key-no", value: "<n>", help: "Key number to authenticate with (default 0)."),
        .init(name: "key", value: "<hex>", help: "The key (8, 16 or 24 bytes)."),
        .init(name: "cipher", value: "<cipher>", help: "des, 2k3des, 3k3des or aes (default aes)."),
        .init(name: "legacy", help: "Authenticate with 0A (DES/2K3DES) instead of 1A."),
    ]

    static let desfireFileOptions: [Command.Option] = [
        .init(name: "file", value: "<n>", help: "File number, 0-31."),
        .init(name: "offset", value: "<n>", help: "First byte (default 0)."),
        .init(name: "comm", value: "<mode>", help: "plain, mac or enc (default plain)."),
    ]

    /// Connects, selects the application and authenticates when --key is given.
    static func desfireSession(_ session: TagSession, _ inv: Invocation) throws -> (DESFireSecureSession, String) {
        let tag = try session.connectTag()
        // Identification already probes GetVersion behind an NXP UID and a random one (08…).
        var isDESFire = false
        if case .desfire = tag.identified.kind { isDESFire = true }
        guard isDESFire else { throw CLIError.failure("the tag is \(tag.chip), not a MIFARE DESFire") }
        let aidText = inv.value("app") ?? "000000"
        let aidBytes: [UInt8]
        do {
            aidBytes = try Hex.decode(aidText)
        } catch {
            throw CLIError.usage("--app '\(aidText)' is not hex: \(error)")
        }
        guard aidBytes.count == 3 else { throw CLIError.usage("--app takes 3 bytes (6 hex digits)") }
        let aid = UInt32(aidBytes[0]) << 16 | UInt32(aidBytes[1]) << 8 | UInt32(aidBytes[2])
        let s = DESFireSecureSession(target: tag.target, frontend: tag.frontend)
        let keyNumber = try inv.int("key-no", default: 0, range: 0...13)
        do {
            try s.select(aid)
            if let key = try desfireKey(inv, "key", "cipher") {
                try s.authenticate(keyNumber: UInt8(keyNumber), key: key, legacy: inv.flag("legacy"))
            }
        } catch let e as TagError {
            throw CLIError.failure(TagErrorText.describe(e, doing: "authenticate"))
        }
        return (s, aidText.uppercased())
    }

    static func desfireKey(_ inv: Invocation, _ keyName: String, _ cipherName: String) throws -> DESFireCardKey? {
        let name = inv.value(cipherName) ?? "aes"
        guard let cipher = DESFireCardKey.Cipher(rawValue: name) else {
            throw CLIError.usage("--\(cipherName) must be des, 2k3des, 3k3des or aes, not '\(name)'")
        }
        guard let text = inv.value(keyName) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(text)
        } catch {
            throw CLIError.usage("--\(keyName) is not hex: \(error)")
        }
        do {
            return try DESFireCardKey(cipher, value: bytes)
        } catch {
            throw CLIError.usage("--\(keyName): \(error.reason)")
        }
    }

    static func desfireComm(_ inv: Invocation) throws -> UInt8 {
        switch inv.value("comm") ?? "plain" {
        case "plain": return 0x00
        case "mac": return 0x01
        case "enc": return 0x03
        case let other: throw CLIError.usage("--comm must be plain, mac or enc, not '\(other)'")
        }
    }

    static let desfireAuth = Command(
        name: "auth",
        abstract: "Authenticate with a key and show its version.",
        discussion: """
            Examples:
              opennfc desfire auth --app 000042 --key-no 1 --key 00112233445566778899AABBCCDDEEFF --device pcsc
            """,
        options: TagSession.options + desfireKeyOptions,
        run: { inv in
            guard try desfireKey(inv, "key", "cipher") != nil else { throw CLIError.usage("missing --key <hex>") }
            return try TagSession.run(inv) { session in
                let (s, aid) = try desfireSession(session, inv)
                let version: UInt8
                do throws(TagError) {
                    version = try s.keyVersion(s.keyNumber ?? 0)
                } catch {
                    throw CLIError.failure(TagErrorText.describe(error, doing: "read the key version"))
                }
                try session.release()
                Console.err(
                    "Authenticated with key \(s.keyNumber ?? 0) (\(inv.value("cipher") ?? "aes")) of application "
                        + "\(aid); key version \(version).\n")
                return 0
            }
        }
    )

    static let desfireRead = Command(
        name: "read",
        abstract: "Read bytes of a standard data file (hex on stdout).",
        discussion: """
            Examples:
              opennfc desfire read --app 000042 --key-no 1 --key <hex> --file 1 --length 48 --comm enc --device sim:card.json
            """,
        options: TagSession.options + desfireKeyOptions + desfireFileOptions + [
            .init(name: "length", value: "<n>", help: "Bytes to read (1 or more).")
        ],
        run: { inv in
            guard inv.value("file") != nil else { throw CLIError.usage("missing --file <n>") }
            let file = try inv.int("file", default: 0, range: 0...31)
            guard inv.value("length") != nil else { throw CLIError.usage("missing --length <n>") }
            let length = try inv.int("length", default: 1, range: 1...0xFF_FFFF)
            let offset = try inv.int("offset", default: 0, range: 0...0xFF_FFFF)
            let comm = try desfireComm(inv)
            _ = try desfireKey(inv, "key", "cipher")
            return try TagSession.run(inv) { session in
                let (s, _) = try desfireSession(session, inv)
                let data: [UInt8]
                do throws(TagError) {
                    data = try s.readData(file: UInt8(file), offset: offset, length: length, communication: comm)
                } catch {
                    throw CLIError.failure(TagErrorText.describe(error, doing: "read file \(file)"))
                }
                try session.release()
                Console.out(Hex.encode(data) + "\n")
                return 0
            }
        }
    )

    static let desfireWrite = Command(
        name: "write",
        abstract: "Write bytes to a standard data file.",
        discussion: """
            Examples:
              opennfc desfire write --app 000042 --key <hex> --file 1 --data 01020304 --comm enc --device pcsc
            """,
        options: TagSession.options + desfireKeyOptions + desfireFileOptions + [
            .init(name: "data", value: "<hex>", help: "The bytes to write.")
        ],
        run: { inv in
            guard inv.value("file") != nil else { throw CLIError.usage("missing --file <n>") }
            let file = try inv.int("file", default: 0, range: 0...31)
            guard let text = inv.value("data") else { throw CLIError.usage("missing --data <hex>") }
            let data: [UInt8]
            do {
                data = try Hex.decode(text)
            } catch {
                throw CLIError.usage("--data is not hex: \(error)")
            }
            guard !data.isEmpty else { throw CLIError.usage("--data is empty") }
            let offset = try inv.int("offset", default: 0, range: 0...0xFF_FFFF)
            let comm = try desfireComm(inv)
            _ = try desfireKey(inv, "key", "cipher")
            return try TagSession.run(inv) { session in
                let (s, _) = try desfireSession(session, inv)
                do throws(TagError) {
                    try s.writeData(file: UInt8(file), offset: offset, data: data, communication: comm)
                } catch {
                    throw CLIError.failure(TagErrorText.describe(error, doing: "write file \(file)"))
                }
                try session.release()
                Console.err("Wrote \(data.count) bytes to file \(file) at offset \(offset).\n")
                return 0
            }
        }
    )

    static let desfireChangeKey = Command(
        name: "change-key",
        abstract: "Change a key (refuses without --yes: a forgotten key locks the card or application for good).",
        discussion: """
            Authenticate with --key-no/--key (the key whose authentication the change needs), then key --change \
            gets --new-key (--new-cipher, default aes; AES keys carry --new-version). Changing another key than the \
            one that authenticated needs its current value (--current). At PICC level (--app 000000) the new \
            cipher may differ from the old one.

            Examples:
              opennfc desfire change-key --app 000042 --key 00000000000000000000000000000000 --change 1 \\
                --current 00000000000000000000000000000000 --new-key 00112233445566778899AABBCCDDEEFF --yes
            """,
        options: TagSession.options + desfireKeyOptions + [
            .init(name: "change", value: "<n>", help: "The key number to change (default: the authenticating key)."),
            .init(name: "new-key", value: "<hex>", help: "The new key."),
            .init(name: "new-cipher", value: "<cipher>", help: "des, 2k3des, 3k3des or aes (default aes)."),
            .init(name: "new-version", value: "<n>", help: "AES key version, 0-255 (default 0)."),
            .init(
                name: "current", value: "<hex>",
                help: "Current value of the key being changed, if not the authenticating one."),
            .init(name: "yes", help: "Really change the key."),
        ],
        run: { inv in
            guard try desfireKey(inv, "key", "cipher") != nil else {
                throw CLIError.usage("missing --key <hex> to authenticate")
            }
            guard let newKey = try desfireKey(inv, "new-key", "new-cipher") else {
                throw CLIError.usage("missing --new-key <hex>")
            }
            guard inv.flag("yes") else {
                throw CLIError.failure(
                    "changing a DESFire key cannot be undone without it: a lost key locks the card or application "
                        + "for good; repeat with --yes")
            }
            let authKey = try inv.int("key-no", default: 0, range: 0...13)
            let target = try inv.int("change", default: authKey, range: 0...13)
            let version = try inv.int("new-version", default: 0, range: 0...255)
            var current: [UInt8]?
            if let text = inv.value("current") {
                do {
                    current = try Hex.decode(text)
                } catch {
                    throw CLIError.usage("--current is not hex: \(error)")
                }
            }
            return try TagSession.run(inv) { session in
                let (s, aid) = try desfireSession(session, inv)
                var number = UInt8(target)
                if aid == "000000" {
                    number |= newKey.cipher == .aes ? 0x80 : newKey.cipher == .tdes3 ? 0x40 : 0x00
                }
                do throws(TagError) {
                    try s.changeKey(number, to: newKey, version: UInt8(version), currentValue: current)
                } catch {
                    throw CLIError.failure(TagErrorText.describe(error, doing: "change key \(target)"))
                }
                try session.release()
                Console.err("Key \(target) of application \(aid) changed (\(newKey.cipher.rawValue)).\n")
                return 0
            }
        }
    )
}
