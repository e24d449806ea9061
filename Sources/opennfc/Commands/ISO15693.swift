import OpenNFCBytes
import OpenNFCRF

extension Commands {
    static let iso15693 = Command(
        name: "iso15693",
        abstract: "ISO 15693 (Type 5) tag operations: system information, AFI, DSFID, NXP EAS, privacy and passwords.",
        discussion: """
            Every request is addressed with the tag's UID (ISO/IEC 15693-3 request flags 22); TI chips get the \
            Option flag their writes need. Locks are permanent: lock-afi, lock-dsfid, 'eas lock', 'eas \
            protect-eas|protect-afi', 'password --lock' and 'protect --lock' refuse to run without --yes. The NXP \
            commands (eas, privacy, password, signature, protect) are ICODE SLIX/SLIX2 custom commands \
            (manufacturer 04) and are refused on other tags; passwords are sent XORed with a fresh GET RANDOM \
            NUMBER, as the chip requires. A password presented holds until the tag leaves the field, that is for \
            one opennfc command.

            Examples:
              opennfc iso15693 info --device sim:slix.json
              opennfc iso15693 write-afi 12 --device pcsc
              opennfc iso15693 lock-dsfid --yes --device sim:slix.json
              opennfc iso15693 eas set --device sim:slix.json
              opennfc iso15693 password --id read --password 00000000 --new 12345678 --device sim:slix2.json
              opennfc iso15693 protect --pointer 10 --condition 11 --read-password 0 --write-password 0 \
                --device sim:slix2.json
              opennfc iso15693 signature --device sim:slix2.json
            """,
        subcommands: [
            iso15693Info, iso15693WriteAFI, iso15693LockAFI, iso15693WriteDSFID, iso15693LockDSFID, iso15693EAS,
            iso15693Privacy, iso15693Password, iso15693Signature, iso15693Protect,
        ]
    )

    static let iso15693Options = TagSession.options + [.init(name: "json", help: "Print the result as JSON.")]
    static let yesOption = Command.Option(name: "yes", help: "Confirm a permanent lock.")

    /// Connects to the ISO 15693 tag in the field, runs `body`, prints its one-line result.
    static func onISO15693Tag(
        _ inv: Invocation, nxp: Bool = false, _ body: (ISO15693Requests) throws -> (text: String, json: JSONValue)
    ) throws -> Int32 {
        try TagSession.run(inv) { session in
            let target = try session.connect()
            guard target.nfcV != nil else {
                throw CLIError.failure(
                    "the tag (UID \(target.identifier.hexString)) is not an ISO 15693 tag (it is \(target.technology))")
            }
            let link = ISO15693Requests(frontend: session.frontend, uid: target.identifier)
            if nxp && link.manufacturer != 0x04 {
                throw CLIError.failure(
                    "this is an NXP ICODE command; the tag (UID \(link.uid.hexString)) is of manufacturer "
                        + "\(Hex.encode([link.manufacturer])), not NXP (04)")
            }
            let result = try body(link)
            try session.release()
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([("uid", .string(link.uid.hexString)), ("result", result.json)]).pretty + "\n")
            } else {
                Console.out("\(result.text)\n")
            }
            return 0
        }
    }

    static func byteArgument(_ inv: Invocation, _ what: String) throws -> UInt8 {
        guard let text = inv.positionals.first else { throw CLIError.usage("missing expected argument '<\(what)>'") }
        guard let b = try? Hex.decode(text), b.count == 1 else {
            throw CLIError.usage("<\(what)> takes one byte as 2 hex digits, not '\(text)'")
        }
        return b[0]
    }

    static func requireYes(_ inv: Invocation, _ what: String) throws {
        guard inv.flag("yes") else {
            throw CLIError.usage("\(what) is permanent: it can never be undone on the tag; add --yes to do it")
        }
    }

    static let iso15693Info = Command(
        name: "info", abstract: "Print the tag's system information and locked blocks.",
        options: iso15693Options,
        run: { inv in
            try onISO15693Tag(inv) { link in
                let info = try link.systemInfo()
                var parts = ["UID \(link.uid.hexString)"]
                var json: [(String, JSONValue)] = []
                if let d = info.dsfid {
                    parts.append("DSFID \(Hex.encode([d]))")
                    json.append(("dsfid", .string(Hex.encode([d]))))
                }
                if let a = info.afi {
                    parts.append("AFI \(Hex.encode([a]))")
                    json.append(("afi", .string(Hex.encode([a]))))
                }
                if let n = info.blockCount, let s = info.blockSize {
                    parts.append("\(n) blocks of \(s) bytes")
                    json += [("blocks", .int(n)), ("blockSize", .int(s))]
                    let locked = try link.lockedBlocks(count: n, run: 64).sorted()
                    parts.append(locked.isEmpty ? "no block locked" : "locked blocks \(ranges(locked))")
                    json.append(("lockedBlocks", .array(locked.map { .int($0) })))
                }
                if let ic = info.icReference {
                    parts.append("IC reference \(Hex.encode([ic]))")
                    json.append(("icReference", .string(Hex.encode([ic]))))
                }
                var text = parts.joined(separator: ", ")
                if let nxp = try nxpSystemInfo(link) {
                    text += "\n" + nxp.text
                    json.append(("nxp", nxp.json))
                }
                if let st = try st25Configuration(link) {
                    text += "\n" + st.text
                    json.append(("st25dv", st.json))
                }
                return (text, .object(json))
            }
        })

    /// GET NXP SYSTEM INFORMATION (`AB`, NXP SL2S2602 §9.5.14) on NXP tags that have it (the SLIX answers error
    /// `01`: nil): protection pointer and condition, lock bits, feature flags.
    static func nxpSystemInfo(_ link: ISO15693Requests) throws -> (text: String, json: JSONValue)? {
        guard link.manufacturer == 0x04, let b = try? link.send(0xAB, doing: "get the NXP system information"),
            b.count == 7
        else { return nil }
        let locks = [(0x01, "AFI"), (0x02, "EAS"), (0x04, "DSFID"), (0x08, "page protection")]
            .filter { b[2] & UInt8($0.0) != 0 }.map(\.1)
        let features = UInt32(b[3]) | UInt32(b[4]) << 8 | UInt32(b[5]) << 16 | UInt32(b[6]) << 24
        let names = [
            (0, "page protection"), (1, "counter"), (2, "EAS ID"), (3, "EAS password"), (4, "AFI password"),
            (8, "originality signature"), (12, "privacy"), (13, "destroy"),
        ].filter { features >> UInt32($0.0) & 1 != 0 }.map(\.1)
        let text =
            "NXP: protection pointer \(b[0]) (block), condition \(Hex.encode([b[1]])), locked: "
            + (locks.isEmpty ? "nothing" : locks.joined(separator: ", ")) + "; features: "
            + names.joined(separator: ", ")
        return (
            text,
            .object([
                ("protectionPointer", .int(Int(b[0]))), ("protectionCondition", .string(Hex.encode([b[1]]))),
                ("lockBits", .string(Hex.encode([b[2]]))), ("featureFlags", .string(Hex.encode(Array(b[3...])))),
            ])
        )
    }

    /// The ST25DV area registers by READ CONFIGURATION (`A0`, ST25DV datasheet §7.6.15): ENDA1–3, RFA1SS–RFA4SS.
    static func st25Configuration(_ link: ISO15693Requests) throws -> (text: String, json: JSONValue)? {
        guard link.manufacturer == 0x02, (try? link.send(0xA0, [0x05], doing: "read ENDA1")) != nil else {
            return nil
        }
        var regs: [(String, UInt8)] = []
        for (name, pointer) in [
            ("ENDA1", 0x05), ("ENDA2", 0x07), ("ENDA3", 0x09), ("RFA1SS", 0x04), ("RFA2SS", 0x06), ("RFA3SS", 0x08),
            ("RFA4SS", 0x0A),
        ] as [(String, UInt8)] {
            let v = try link.send(0xA0, [pointer], doing: "read the configuration register \(name)")
            guard v.count == 1 else { throw CLIError.failure("READ CONFIGURATION \(name) answered \(v.hexString)") }
            regs.append((name, v[0]))
        }
        return (
            "ST25DV: " + regs.map { "\($0.0) \(Hex.encode([$0.1]))" }.joined(separator: ", "),
            .object(regs.map { ($0.0, .string(Hex.encode([$0.1]))) })
        )
    }

    /// `0-3, 7, 9-10`.
    static func ranges(_ sorted: [Int]) -> String {
        var out: [String] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[j] + 1 { j += 1 }
            out.append(i == j ? "\(sorted[i])" : "\(sorted[i])-\(sorted[j])")
            i = j + 1
        }
        return out.joined(separator: ", ")
    }

    static let iso15693WriteAFI = Command(
        name: "write-afi", abstract: "Write the application family identifier (WRITE AFI).",
        arguments: [.init(name: "afi", help: "One byte in hex (00 = no family).")], options: iso15693Options,
        run: { inv in
            let afi = try byteArgument(inv, "afi")
            return try onISO15693Tag(inv) { link in
                try link.write(0x27, [afi], doing: "write the AFI")
                return ("AFI \(Hex.encode([afi])) written to \(link.uid.hexString).", .string(Hex.encode([afi])))
            }
        })

    static let iso15693LockAFI = Command(
        name: "lock-afi", abstract: "Lock the AFI for good (LOCK AFI); needs --yes.",
        options: iso15693Options + [yesOption],
        run: { inv in
            try requireYes(inv, "locking the AFI")
            return try onISO15693Tag(inv) { link in
                try link.write(0x28, doing: "lock the AFI")
                return ("AFI of \(link.uid.hexString) locked.", .string("locked"))
            }
        })

    static let iso15693WriteDSFID = Command(
        name: "write-dsfid", abstract: "Write the data storage format identifier (WRITE DSFID).",
        arguments: [.init(name: "dsfid", help: "One byte in hex.")], options: iso15693Options,
        run: { inv in
            let dsfid = try byteArgument(inv, "dsfid")
            return try onISO15693Tag(inv) { link in
                try link.write(0x29, [dsfid], doing: "write the DSFID")
                return ("DSFID \(Hex.encode([dsfid])) written to \(link.uid.hexString).", .string(Hex.encode([dsfid])))
            }
        })

    static let iso15693LockDSFID = Command(
        name: "lock-dsfid", abstract: "Lock the DSFID for good (LOCK DSFID); needs --yes.",
        options: iso15693Options + [yesOption],
        run: { inv in
            try requireYes(inv, "locking the DSFID")
            return try onISO15693Tag(inv) { link in
                try link.write(0x2A, doing: "lock the DSFID")
                return ("DSFID of \(link.uid.hexString) locked.", .string("locked"))
            }
        })

    static let iso15693EAS = Command(
        name: "eas",
        abstract: "NXP electronic article surveillance: set, reset, lock (needs --yes) or alarm.",
        discussion: """
            ICODE SLIX/SLIX2 custom commands A2 SET EAS, A3 RESET EAS, A4 LOCK EAS, A5 EAS ALARM, A6 PASSWORD \
            PROTECT EAS/AFI (protect-eas, protect-afi: permanent, need --yes). --password presents the EAS/AFI \
            password first (needed once EAS or AFI is password protected, and by protect-eas/protect-afi). An \
            alarm from a tag whose EAS is reset is silence: "EAS is not set".
            """,
        arguments: [.init(name: "action", help: "set, reset, lock, alarm, protect-eas or protect-afi.")],
        options: iso15693Options + [
            yesOption,
            .init(name: "password", value: "<hex>", help: "The EAS/AFI password (4 bytes), presented first."),
        ],
        run: { inv in
            let actions = "set, reset, lock, alarm, protect-eas or protect-afi"
            guard let action = inv.positionals.first else {
                throw CLIError.usage("missing expected argument '<action>' (\(actions))")
            }
            let codes: [String: UInt8] = [
                "set": 0xA2, "reset": 0xA3, "lock": 0xA4, "alarm": 0xA5, "protect-eas": 0xA6, "protect-afi": 0xA6,
            ]
            guard let code = codes[action] else { throw CLIError.usage("<action> is \(actions), not '\(action)'") }
            if action == "lock" { try requireYes(inv, "locking the EAS state") }
            if action.hasPrefix("protect") {
                try requireYes(inv, "password protecting the \(action == "protect-afi" ? "AFI" : "EAS")")
            }
            let password = try hexOption(inv, "password", bytes: 4, required: action.hasPrefix("protect"))
            return try onISO15693Tag(inv, nxp: true) { link in
                if let password {
                    try link.write(
                        0xB3, [0x10] + xoredPassword(link, password), doing: "present the EAS/AFI password")
                }
                if action == "alarm" {
                    do {
                        let answer = try link.send(code, doing: "sound the EAS alarm")
                        return ("EAS alarm answer: \(answer.hexString)", .string(answer.hexString))
                    } catch {
                        // SL2S2002 §9.3.7: a tag whose EAS is reset stays silent.
                        guard "\(error)".contains("did not answer") else { throw error }
                        return ("EAS is not set on \(link.uid.hexString): no alarm.", .null)
                    }
                }
                _ = try link.send(
                    code, option: action == "protect-afi" || link.writesNeedOption, doing: "\(action) the EAS")
                let done = [
                    "set": "EAS set on", "reset": "EAS reset on", "lock": "EAS locked on",
                    "protect-eas": "EAS now password protected on", "protect-afi": "AFI now password protected on",
                ][action]!
                return ("\(done) \(link.uid.hexString).", .string(action))
            }
        })

    static let passwordIDs: [String: UInt8] = [
        "read": 0x01, "write": 0x02, "privacy": 0x04, "destroy": 0x08, "eas": 0x10, "eas-afi": 0x10,
    ]

    /// GET RANDOM NUMBER (`B2`), then the password XORed with it (NXP SL2S2602 §9.5: the 16-bit random number
    /// repeated over the 32-bit password, both least significant byte first on the air [? byte order]).
    static func xoredPassword(_ link: ISO15693Requests, _ password: [UInt8]) throws -> [UInt8] {
        let rnd = try link.send(0xB2, doing: "get a random number")
        guard rnd.count == 2 else {
            throw CLIError.failure("GET RANDOM NUMBER answered \(rnd.count) bytes instead of 2")
        }
        return password.reversed().enumerated().map { i, b in b ^ rnd[i % 2] }
    }

    static let passwordHexOption = Command.Option(
        name: "password", value: "<hex>", help: "The password: 4 bytes as 8 hex digits, most significant first.")

    static let iso15693Privacy = Command(
        name: "privacy",
        abstract: "NXP privacy mode: enable (ENABLE PRIVACY) or disable (SET PASSWORD with the privacy password).",
        discussion: """
            A tag in privacy mode answers no inventory: it is invisible until its privacy password is presented. \
            Every opennfc reader finds a tag by inventory first, so 'disable' reaches only a tag that still \
            answers; to bring a tag back from privacy mode, use a reader that sends requests without an inventory.
            """,
        arguments: [.init(name: "action", help: "enable or disable.")],
        options: iso15693Options + [passwordHexOption],
        run: { inv in
            guard let action = inv.positionals.first, action == "enable" || action == "disable" else {
                throw CLIError.usage("<action> is enable or disable")
            }
            let password = try hexOption(inv, "password", bytes: 4, required: true)!
            return try onISO15693Tag(inv, nxp: true) { link in
                if action == "enable" {
                    let xored = try xoredPassword(link, password)
                    try link.write(0xBA, xored, doing: "enable privacy mode")
                    return ("Privacy mode enabled on \(link.uid.hexString).", .string("enabled"))
                }
                try link.write(0xB3, [0x04] + xoredPassword(link, password), doing: "present the privacy password")
                return ("Privacy mode disabled on \(link.uid.hexString).", .string("disabled"))
            }
        })

    static let iso15693Password = Command(
        name: "password",
        abstract: "Present an NXP ICODE password (GET RANDOM NUMBER + SET PASSWORD); optionally change or lock it.",
        discussion: """
            --new writes a new password after presenting the current one (WRITE PASSWORD); --lock makes it \
            permanent (LOCK PASSWORD) and needs --yes.
            """,
        options: iso15693Options + [
            .init(
                name: "id", value: "<id>",
                help: "Which password: read, write, privacy, destroy or eas (the SLIX has only eas)."),
            passwordHexOption,
            .init(name: "new", value: "<hex>", help: "A new password to write (4 bytes)."),
            .init(name: "lock", help: "Lock the password for good (needs --yes)."),
            yesOption,
        ],
        run: { inv in
            guard let idName = inv.value("id") else {
                throw CLIError.usage("missing --id (read, write, privacy, destroy or eas)")
            }
            guard let id = passwordIDs[idName] else {
                throw CLIError.usage("--id is read, write, privacy, destroy or eas, not '\(idName)'")
            }
            let password = try hexOption(inv, "password", bytes: 4, required: true)!
            let new = try hexOption(inv, "new", bytes: 4)
            if inv.flag("lock") { try requireYes(inv, "locking the \(idName) password") }
            return try onISO15693Tag(inv, nxp: true) { link in
                try link.write(0xB3, [id] + xoredPassword(link, password), doing: "present the \(idName) password")
                var done = ["\(idName) password accepted"]
                if let new {
                    try link.write(0xB4, [id] + new.reversed(), doing: "write the \(idName) password")
                    done.append("new password written")
                }
                if inv.flag("lock") {
                    try link.write(0xB5, [id], doing: "lock the \(idName) password")
                    done.append("password locked")
                }
                return (
                    done.joined(separator: "; ") + " (\(link.uid.hexString)).", .string(done.joined(separator: "; "))
                )
            }
        })

    static let iso15693Signature = Command(
        name: "signature",
        abstract: "Read the NXP originality signature (READ SIGNATURE, ICODE SLIX2): 32 bytes.",
        discussion: """
            The signature is NXP's ECC signature over the UID; opennfc prints it and does not verify it (NXP's \
            public key is not part of opennfc). A virtual chip's signature is not NXP's (docs/DIFFERENCES.md).
            """,
        options: iso15693Options,
        run: { inv in
            try onISO15693Tag(inv, nxp: true) { link in
                let b = try link.send(0xBD, doing: "read the signature")
                guard b.count == 32 else {
                    throw CLIError.failure("READ SIGNATURE answered \(b.count) bytes instead of 32")
                }
                return ("Signature of \(link.uid.hexString): \(b.hexString)", .string(b.hexString))
            }
        })

    static let iso15693Protect = Command(
        name: "protect",
        abstract: "NXP page protection (PROTECT PAGE, ICODE SLIX2): split the memory at a block and guard each page.",
        discussion: """
            Blocks below --pointer form the low page, the others the high page. --condition is the protection byte: \
            bit 0 reading the low page needs the read password, bit 1 writing it needs the write password, bits \
            4 and 5 the same for the high page (00 = no protection). The read and write passwords are presented \
            first. --lock locks the condition for good (LOCK PAGE PROTECTION CONDITION) and needs --yes.
            """,
        options: iso15693Options + [
            .init(name: "pointer", value: "<block>", help: "The first block of the high page (decimal)."),
            .init(name: "condition", value: "<hex>", help: "The protection condition byte."),
            .init(name: "read-password", value: "<hex>", help: "The read password (4 bytes)."),
            .init(name: "write-password", value: "<hex>", help: "The write password (4 bytes)."),
            .init(name: "lock", help: "Lock the protection condition for good (needs --yes)."),
            yesOption,
        ],
        run: { inv in
            guard let text = inv.value("pointer"), let pointer = UInt8(text) else {
                throw CLIError.usage("--pointer takes the first block of the high page, 0-255")
            }
            let condition = try hexOption(inv, "condition", bytes: 1, required: true)![0]
            guard condition & 0xCC == 0 else {
                throw CLIError.usage("--condition uses bits 0, 1, 4 and 5 only, not \(Hex.encode([condition]))")
            }
            let read = try hexOption(inv, "read-password", bytes: 4, required: true)!
            let write = try hexOption(inv, "write-password", bytes: 4, required: true)!
            if inv.flag("lock") { try requireYes(inv, "locking the page protection condition") }
            return try onISO15693Tag(inv, nxp: true) { link in
                try link.write(0xB3, [0x01] + xoredPassword(link, read), doing: "present the read password")
                try link.write(0xB3, [0x02] + xoredPassword(link, write), doing: "present the write password")
                try link.write(0xB6, [pointer, condition], doing: "protect the pages")
                var done =
                    "Pages of \(link.uid.hexString) split at block \(pointer), condition \(Hex.encode([condition]))"
                if inv.flag("lock") {
                    try link.write(0xB7, [pointer], doing: "lock the page protection condition")
                    done += ", locked"
                }
                return (
                    done + ".",
                    .object([
                        ("pointer", .int(Int(pointer))), ("condition", .string(Hex.encode([condition]))),
                        ("locked", .bool(inv.flag("lock"))),
                    ])
                )
            }
        })
}
