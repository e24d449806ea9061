import OpenNFCBytes
import OpenNFCTags

/// `opennfc desfire change-file-settings|configure`: ChangeFileSettings and SetConfiguration
/// (``DESFireSecureSession``), refusing without `--yes` what cannot be undone.
extension Commands {
    static let desfireConfigCommands = [desfireChangeFileSettings, desfireConfigure, desfireUID]

    static func desfireCommByte(_ inv: Invocation, _ name: String) throws -> UInt8? {
        guard let text = inv.value(name) else { return nil }
        switch text {
        case "plain": return 0x00
        case "mac": return 0x01
        case "enc": return 0x03
        default: throw CLIError.usage("--\(name) must be plain, mac or enc, not '\(text)'")
        }
    }

    static let desfireChangeFileSettings = Command(
        name: "change-file-settings",
        abstract: "ChangeFileSettings: a file's communication and access rights (--yes when Change becomes never).",
        discussion: """
            Authenticate with the key the file's Change access right names (--key-no/--key); when that right is \
            free (E) no key is needed and the settings travel plain, otherwise enciphered. --access is the new \
            Read|Write|Read&Write|Change as 4 hex digits; a Change nibble F freezes the settings for good and needs \
            --yes. Unset options keep the file's current value.

            Examples:
              opennfc desfire change-file-settings --app 000001 --file 1 --new-comm enc --access 1230 \\
                --key-no 0 --key <hex> --device sim:card.json
            """,
        options: TagSession.options + desfireKeyOptions + [
            .init(name: "file", value: "<n>", help: "File number, 0-31."),
            .init(name: "new-comm", value: "<mode>", help: "The file's new communication: plain, mac or enc."),
            .init(name: "access", value: "<hex4>", help: "The new access rights."),
            .init(name: "yes", help: "Allow a Change right of F (the settings can never change again)."),
        ],
        run: { inv in
            let file = try desfireFileNumber(inv)
            let comm = try desfireCommByte(inv, "new-comm")
            let access = try desfireHex(inv, "access")
            guard access == nil || access?.count == 2 else { throw CLIError.usage("--access takes 4 hex digits") }
            guard comm != nil || access != nil else { throw CLIError.usage("give --new-comm and/or --access") }
            let rights = access.map { UInt16($0[0]) << 8 | UInt16($0[1]) }
            if let rights, rights & 0x000F == 0x000F, !inv.flag("yes") {
                throw CLIError.failure(
                    "access rights \(Hex.encode(access ?? [])) set the Change right to F: file \(file)'s settings could "
                        + "never change again; repeat with --yes")
            }
            return try withDESFire(inv, doing: "change the settings of file \(file)") { s, aid in
                let current = try s.fileSettings(file)
                let newRights = rights ?? current.accessRights
                let newComm = comm ?? current.communication
                let change = current.key(3)
                guard change != 0xF else {
                    throw TagError(.unsupported, "file \(file)'s Change right is F: its settings never change")
                }
                try s.changeFileSettings(
                    file, communication: newComm, accessRights: newRights, enciphered: change != 0xE)
                let now = try s.fileSettings(file)
                let name = ["plain", "mac", "plain", "enc"][Int(now.communication & 3)]
                let text = Hex.encode([UInt8(now.accessRights >> 8), UInt8(now.accessRights & 0xFF)])
                return "File \(file) of application \(aid): communication \(name), access \(text).\n"
            }
        }
    )

    static let desfireConfigure = Command(
        name: "configure",
        abstract: "SetConfiguration: disable FormatPICC, random ID, the default key or the ATS (PICC master key).",
        discussion: """
            Needs the PICC master key (--app 000000, the default). --disable-format and --random-id cannot be \
            undone and need --yes: with random ID the card shows a new random UID at each activation and gives \
            its real UID only to GetCardUID after an authentication. --default-key is the key (up to 24 bytes, \
            zero padded) new applications get; --ats the ATS the card answers RATS with (TL first).

            Examples:
              opennfc desfire configure --key 0000000000000000 --cipher des --random-id --yes --device sim:card.json
              opennfc desfire configure --key <hex> --default-key 00112233445566778899AABBCCDDEEFF --device pcsc
            """,
        options: TagSession.options + desfireKeyOptions + [
            .init(name: "disable-format", help: "FormatPICC is refused from now on (for good)."),
            .init(name: "random-id", help: "A random UID at each activation (for good)."),
            .init(name: "default-key", value: "<hex>", help: "The default key for new applications (≤ 24 bytes)."),
            .init(name: "default-key-version", value: "<n>", help: "Its version, 0-255 (default 0)."),
            .init(name: "ats", value: "<hex>", help: "The ATS, TL first (2-20 bytes)."),
            .init(name: "yes", help: "Really make the permanent change."),
        ],
        run: { inv in
            guard try desfireKey(inv, "key", "cipher") != nil else {
                throw CLIError.usage("missing --key <hex> (the PICC master key)")
            }
            let formatOff = inv.flag("disable-format")
            let random = inv.flag("random-id")
            let defaultKey = try desfireHex(inv, "default-key")
            let version = try inv.int("default-key-version", default: 0, range: 0...255)
            let ats = try desfireHex(inv, "ats")
            guard formatOff || random || defaultKey != nil || ats != nil else {
                throw CLIError.usage("give --disable-format, --random-id, --default-key or --ats")
            }
            if let defaultKey, defaultKey.isEmpty || defaultKey.count > 24 {
                throw CLIError.usage("--default-key takes 1-24 bytes, not \(defaultKey.count)")
            }
            if let ats, !(2...20).contains(ats.count) || Int(ats[0]) != ats.count {
                throw CLIError.usage("--ats starts with its length byte TL and has 2-20 bytes")
            }
            if (formatOff || random) && !inv.flag("yes") {
                let what = [formatOff ? "disabling FormatPICC" : nil, random ? "random ID" : nil].compactMap { $0 }
                throw CLIError.failure(
                    "\(what.joined(separator: " and ")) cannot be undone on a DESFire EV1; repeat with --yes")
            }
            return try withDESFire(inv, doing: "configure the card") { s, aid in
                guard aid == "000000" else {
                    throw TagError(.unsupported, "SetConfiguration runs at PICC level (--app 000000)")
                }
                var done: [String] = []
                if let defaultKey {
                    try s.setDefaultKey(
                        defaultKey + [UInt8](repeating: 0, count: 24 - defaultKey.count),
                        version: UInt8(version))
                    done.append("default key set (version \(version))")
                }
                if let ats {
                    try s.setATS(ats)
                    done.append("ATS \(Hex.encode(ats)) from the next activation")
                }
                if formatOff || random {
                    try s.configure(formatDisabled: formatOff, randomID: random)
                    if formatOff { done.append("FormatPICC disabled") }
                    if random { done.append("random ID on from the next activation") }
                }
                return "Configured: \(done.joined(separator: "; ")).\n"
            }
        }
    )
}

extension Commands {
    static let desfireUID = Command(
        name: "uid",
        abstract: "GetCardUID: the card's real 7-byte UID (after an authentication with any key).",
        discussion: """
            A card with random ID shows a random UID at each activation; GetCardUID gives the real one.

            Examples:
              opennfc desfire uid --key 0000000000000000 --cipher des --device sim:card.json
              opennfc desfire uid --app 000042 --key-no 1 --key <hex> --device pcsc
            """,
        options: TagSession.options + desfireKeyOptions,
        run: { inv in
            guard try desfireKey(inv, "key", "cipher") != nil else { throw CLIError.usage("missing --key <hex>") }
            return try withDESFire(inv, doing: "read the card UID") { s, _ in
                "UID \(Hex.encode(try s.cardUID()))\n"
            }
        }
    )
}
