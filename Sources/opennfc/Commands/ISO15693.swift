import OpenNFCBytes
import OpenNFCRF

extension Commands {
    static let iso15693 = Command(
        name: "iso15693",
        abstract: "ISO 15693 (Type 5) tag operations: system information, AFI, DSFID, NXP EAS, privacy and passwords.",
        discussion: """
            Every request is addressed with the tag's UID (ISO/IEC 15693-3 request flags 22); TI chips get the \
            Option flag their writes need. Locks are permanent: lock-afi, lock-dsfid, 'eas lock' and \
            'password --lock' refuse to run without --yes. The NXP commands (eas, privacy, password) are ICODE \
            SLIX/SLIX2 custom commands (manufacturer 04) and are refused on other tags; passwords are sent XORed \
            with a fresh GET RANDOM NUMBER, as the chip requires.

            Examples:
              opennfc iso15693 info --device sim:slix.json
              opennfc iso15693 write-afi 12 --device pcsc
              opennfc iso15693 lock-dsfid --yes --device sim:slix.json
              opennfc iso15693 privacy disable --password 0F0F0F0F --device pcsc
            """,
        subcommands: [
            iso15693Info, iso15693WriteAFI, iso15693LockAFI, iso15693WriteDSFID, iso15693LockDSFID, iso15693EAS,
            iso15693Privacy, iso15693Password,
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
                return (parts.joined(separator: ", "), .object(json))
            }
        })

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
        discussion: "ICODE SLIX/SLIX2 custom commands A2 SET EAS, A3 RESET EAS, A4 LOCK EAS, A5 EAS ALARM.",
        arguments: [.init(name: "action", help: "set, reset, lock or alarm.")],
        options: iso15693Options + [yesOption],
        run: { inv in
            guard let action = inv.positionals.first else {
                throw CLIError.usage("missing expected argument '<action>' (set, reset, lock or alarm)")
            }
            let codes: [String: UInt8] = ["set": 0xA2, "reset": 0xA3, "lock": 0xA4, "alarm": 0xA5]
            guard let code = codes[action] else {
                throw CLIError.usage("<action> is set, reset, lock or alarm, not '\(action)'")
            }
            if action == "lock" { try requireYes(inv, "locking the EAS state") }
            return try onISO15693Tag(inv, nxp: true) { link in
                if action == "alarm" {
                    let answer = try link.send(code, doing: "sound the EAS alarm")
                    return ("EAS alarm answer: \(answer.hexString)", .string(answer.hexString))
                }
                try link.write(code, doing: "\(action) the EAS")
                let done = ["set": "EAS set on", "reset": "EAS reset on", "lock": "EAS locked on"][action]!
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
        discussion:
            "A tag in privacy mode answers no inventory: it is invisible until its privacy password is presented.",
        arguments: [.init(name: "action", help: "enable or disable.")],
        options: iso15693Options + [passwordHexOption],
        run: { inv in
            guard let action = inv.positionals.first, action == "enable" || action == "disable" else {
                throw CLIError.usage("<action> is enable or disable")
            }
            let password = try hexOption(inv, "password", bytes: 4, required: true)!
            return try onISO15693Tag(inv, nxp: true) { link in
                let xored = try xoredPassword(link, password)
                if action == "enable" {
                    try link.write(0xBA, xored, doing: "enable privacy mode")
                    return ("Privacy mode enabled on \(link.uid.hexString).", .string("enabled"))
                }
                try link.write(0xB3, [0x04] + xored, doing: "present the privacy password")
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
            .init(name: "id", value: "<id>", help: "Which password: read, write, privacy, destroy or eas."),
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
}
