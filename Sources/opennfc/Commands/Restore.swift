import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTags

extension Commands {
    static let restore = Command(
        name: "restore",
        abstract: "Write a dump's user memory to a tag of the same chip.",
        discussion: """
            Reads the tag in the field, compares it with the tag file page by page, and writes only the user
            pages that differ, in an order that leaves the tag readable as its old content, an empty NDEF tag or
            the restored content if it is pulled away. The capability container is written when it only needs
            bits set. Lock bytes and the password configuration are never written. Refuses a tag of another chip.
            A type4 dump's NDEF message is written to a Type 4 tag whose NDEF file has the same size: NLEN 0
            first, then the message, NLEN last. A desfire-ev1 dump goes to a DESFire: applications and files of
            every type it lacks are created with the dump's settings and filled (data, values with their limited
            credit value, records), then the dump's application keys are set; a dump whose PICC master key is not
            the factory key changes the card's PICC master key last, only with --yes (--keys gives the card's
            current one; the factory key is tried too). Applications and files the card has and the dump lacks
            are left alone.

            Examples:
              opennfc restore backup.json --device pcsc
              opennfc restore backup.nfc --device sim:blank.json --trace
            """,
        arguments: [.init(name: "file", help: "A tag file saved by 'opennfc dump' (.json or .nfc).")],
        options: TagSession.options + [
            .init(name: "password", value: "<hex>", help: "Authenticate first when the tag's pages need a password."),
            .init(name: "json", help: "Print the result as JSON."),
            .init(
                name: "keys", value: "<file>",
                help: "MIFARE Classic: keys to try after the file's and before the built-in ones; DESFire: the "
                    + "card's current PICC master key (AID 000000, key 0)."),
            .init(name: "block0", help: "MIFARE Classic: write block 0 too (a gen2/CUID or gen1a card)."),
            .init(name: "yes", help: "DESFire: allow changing the card's PICC master key to the dump's."),
        ],
        run: { inv in
            let path = inv.positionals[0]
            let password = try hexOption(inv, "password", bytes: 4)
            if TagFile.Format(path: path) == .ndef {
                throw CLIError.failure(
                    "'\(path)' is an NDEF message, not a dump of a tag's memory; write it with "
                        + "'opennfc write --ndef-file \(path)'")
            }
            let loaded: any VirtualTag
            do {
                loaded = try TagFile.read(path: path)
            } catch let e as TagFileError {
                throw CLIError.failure(e.file == nil ? "tag file '\(path)': \(e)" : "\(e)")
            }
            let section = TagFile.chip(for: loaded)?.section
            guard let family = DumpFamily.all.first(where: { $0.section == section }) else {
                throw CLIError.failure(
                    "'\(path)' is not a Type 2, type4 or desfire-ev1 dump; restore writes NTAG, Ultralight, type4 "
                        + "and desfire-ev1 dumps")
            }
            if password != nil, !family.takesPassword { throw CLIError.usage("--password is for Type 2 tags") }
            return try family.restore(loaded, path, inv, password)
        }
    )
}
