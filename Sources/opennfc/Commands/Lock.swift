import OpenNFCBytes
import OpenNFCTags

extension Commands {
    static let lock = Command(
        name: "lock",
        abstract: "Make the tag's NDEF message permanently read-only.",
        discussion: """
            Sets the capability container to read-only and every static and dynamic lock bit of the chip (Type 2),
            or the write access of the NDEF file (Type 4, where the card allows it). On a MIFARE Classic (NXP AN1305)
            every NDEF sector's trailer gets access bits 07 8F 0F and GPB 43, and the MAD sector(s) 07 8F 0F, each
            written with the sector's key B (--keys FILE, then the built-in keys; a sector none opens is refused
            before anything is written). This cannot be undone: no command, password or tool makes the tag writable
            again. Refuses to run without --yes.

            Examples:
              opennfc lock --device sim:poster.json --yes
              opennfc lock --device pcsc --yes --trace
            """,
        options: TagSession.options + [
            .init(name: "yes", help: "Confirm: lock the tag for good."),
            .init(name: "json", help: "Print the result as JSON."),
            .init(
                name: "keys", value: "<file>",
                help: "MIFARE Classic: key B candidates for the sector trailers, tried before the built-in ones."),
        ],
        run: { inv in
            guard inv.flag("yes") else {
                throw CLIError.failure(
                    "locking makes the tag read-only for good and cannot be undone; run again with --yes to lock it")
            }
            // A .ndef tag file keeps only the message: a lock set on it would be gone at the next load.
            if let device = inv.value("device"), device.lowercased().hasPrefix("sim:"),
                let file = device.dropFirst(4).split(whereSeparator: { $0 == "+" || $0 == "," })
                    .first(where: { $0.lowercased().hasSuffix(".ndef") })
            {
                throw CLIError.failure(
                    "'\(file)' is a .ndef file, which holds only the message: a lock cannot be kept in it; convert "
                        + "it with 'opennfc tag convert \(file) -o \(file.dropLast(5)).json' and lock that")
            }
            let keys = try classicDictionary(inv.value("keys"))
            return try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                let procedure = try tag.ndef()
                if let classic = procedure as? MifareClassicNDEF {
                    if let keys { classic.keys = keys }
                } else if keys != nil {
                    throw CLIError.usage("--keys is for a MIFARE Classic; this tag is \(tag.chip)")
                }
                let before = try tagStep("detect NDEF", naks: tag.nakMeaning) { () throws(TagError) in
                    try procedure.detect()
                }
                if before.status == .notSupported {
                    throw CLIError.failure(
                        "the tag (\(tag.chip), UID \(tag.uid)) is not NDEF formatted: "
                            + "\(before.reason ?? "no NDEF data"); format and write it before locking")
                }
                try tagStep("make the tag read-only", naks: tag.nakMeaning) { () throws(TagError) in
                    try procedure.makeReadOnly()
                }
                let fresh = try tag.ndef()
                let after = try tagStep("check the lock") { () throws(TagError) in try fresh.detect() }
                try session.release()
                guard after.status == .readOnly else {
                    throw CLIError.failure("the tag still reads as \(after.status.rawValue) after locking")
                }
                if inv.flag("json") {
                    Console.out(
                        JSONValue.object([
                            ("chip", .string(tag.chip)), ("uid", .string(tag.uid)), ("status", .string("readOnly")),
                        ]).pretty + "\n")
                } else {
                    Console.err("Locked \(tag.chip) \(tag.uid): the NDEF message is now read-only for good.\n")
                }
                return 0
            }
        }
    )
}
