import OpenNFCBytes
import OpenNFCTags

/// The NXP ICODE SLIX/SLIX2 subcommands of `opennfc iso15693` (eas, privacy, password, signature, protect): the
/// requests are ``ISO15693Request``'s NXP ones (`OpenNFCTags/Type5/Type5Link+NXP.swift`).
extension Commands {
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
            let requests: [String: ISO15693Request] = [
                "set": .nxpSetEAS, "reset": .nxpResetEAS, "lock": .nxpLockEAS, "alarm": .nxpEASAlarm,
                "protect-eas": .nxpPasswordProtectEASAFI, "protect-afi": .nxpPasswordProtectEASAFI,
            ]
            guard let request = requests[action] else {
                throw CLIError.usage("<action> is \(actions), not '\(action)'")
            }
            if action == "lock" { try requireYes(inv, "locking the EAS state") }
            if action.hasPrefix("protect") {
                try requireYes(inv, "password protecting the \(action == "protect-afi" ? "AFI" : "EAS")")
            }
            let password = try hexOption(inv, "password", bytes: 4, required: action.hasPrefix("protect"))
            return try onISO15693Tag(inv, nxp: true) { link in
                if let password {
                    try link.write(
                        .nxpSetPassword(ISO15693Request.NXPPassword.easAFI, xoredPassword(link, password)),
                        doing: "present the EAS/AFI password")
                }
                if action == "alarm" {
                    do {
                        let answer = try link.send(request, doing: "sound the EAS alarm")
                        return ("EAS alarm answer: \(answer.hexString)", .string(answer.hexString))
                    } catch {
                        // SL2S2002 §9.3.7: a tag whose EAS is reset stays silent.
                        guard "\(error)".contains("did not answer") else { throw error }
                        return ("EAS is not set on \(link.uid.hexString): no alarm.", .null)
                    }
                }
                _ = try link.send(
                    request, option: action == "protect-afi" || link.writesNeedOption, doing: "\(action) the EAS")
                let done = [
                    "set": "EAS set on", "reset": "EAS reset on", "lock": "EAS locked on",
                    "protect-eas": "EAS now password protected on", "protect-afi": "AFI now password protected on",
                ][action]!
                return ("\(done) \(link.uid.hexString).", .string(action))
            }
        })

    static let passwordIDs: [String: UInt8] = [
        "read": ISO15693Request.NXPPassword.read, "write": ISO15693Request.NXPPassword.write,
        "privacy": ISO15693Request.NXPPassword.privacy, "destroy": ISO15693Request.NXPPassword.destroy,
        "eas": ISO15693Request.NXPPassword.easAFI, "eas-afi": ISO15693Request.NXPPassword.easAFI,
    ]

    /// GET RANDOM NUMBER, then the password XORed with it (``Type5Link/nxpXoredPassword(_:)``).
    static func xoredPassword(_ link: ISO15693Steps, _ password: [UInt8]) throws -> [UInt8] {
        try ISO15693Steps.step("get a random number") { () throws(TagError) in
            try link.link.nxpXoredPassword(password)
        }
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
                    try link.write(.nxpEnablePrivacy(xored), doing: "enable privacy mode")
                    return ("Privacy mode enabled on \(link.uid.hexString).", .string("enabled"))
                }
                try link.write(
                    .nxpSetPassword(ISO15693Request.NXPPassword.privacy, xoredPassword(link, password)),
                    doing: "present the privacy password")
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
                try link.write(
                    .nxpSetPassword(id, xoredPassword(link, password)), doing: "present the \(idName) password")
                var done = ["\(idName) password accepted"]
                if let new {
                    try link.write(.nxpWritePassword(id, new), doing: "write the \(idName) password")
                    done.append("new password written")
                }
                if inv.flag("lock") {
                    try link.write(.nxpLockPassword(id), doing: "lock the \(idName) password")
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
                let b = try ISO15693Steps.step("read the signature") { () throws(TagError) in
                    try link.link.nxpSignature()
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
                try link.write(
                    .nxpSetPassword(ISO15693Request.NXPPassword.read, xoredPassword(link, read)),
                    doing: "present the read password")
                try link.write(
                    .nxpSetPassword(ISO15693Request.NXPPassword.write, xoredPassword(link, write)),
                    doing: "present the write password")
                try link.write(.nxpProtectPage(pointer: pointer, condition: condition), doing: "protect the pages")
                var done =
                    "Pages of \(link.uid.hexString) split at block \(pointer), condition \(Hex.encode([condition]))"
                if inv.flag("lock") {
                    try link.write(
                        .nxpLockPageProtection(pointer: pointer), doing: "lock the page protection condition")
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
