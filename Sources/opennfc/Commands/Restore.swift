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
            first, then the message, NLEN last. A desfire-ev1 dump goes to a DESFire: applications and standard
            data files it lacks are created with the dump's settings, then every file is written whole.
            Applications and files the card has and the dump lacks are left alone; a file of another size is refused.

            Examples:
              opennfc restore backup.json --device pcsc
              opennfc restore backup.nfc --device sim:blank.json --trace
            """,
        arguments: [.init(name: "file", help: "A tag file saved by 'opennfc dump' (.json or .nfc).")],
        options: TagSession.options + [
            .init(name: "password", value: "<hex>", help: "Authenticate first when the tag's pages need a password."),
            .init(name: "json", help: "Print the result as JSON."),
        ],
        run: { inv in
            let path = inv.positionals[0]
            let password = try hexOption(inv, "password", bytes: 4)
            let loaded: any VirtualTag
            do {
                loaded = try TagFile.read(path: path)
            } catch let e as TagFileError {
                throw CLIError.failure(e.file == nil ? "tag file '\(path)': \(e)" : "\(e)")
            }
            if let type4 = loaded as? Type4Tag {
                if password != nil { throw CLIError.usage("--password is for Type 2 tags") }
                return try restoreType4(type4, path: path, inv)
            }
            if let type1 = loaded as? Type1Tag {
                if password != nil { throw CLIError.usage("--password is for Type 2 tags") }
                return try Type1Dump.restore(type1, path: path, inv)
            }
            if let desfire = loaded as? DESFireEV1Tag {
                if password != nil { throw CLIError.usage("--password is for Type 2 tags") }
                return try restoreDESFire(desfire, path: path, inv)
            }
            guard let source = loaded as? Type2Tag else {
                throw CLIError.failure(
                    "'\(path)' is not a Type 2, type4 or desfire-ev1 dump; restore writes NTAG, Ultralight, type4 "
                        + "and desfire-ev1 dumps")
            }
            let profile = source.profile
            return try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                guard let chip = tag.type2Chip, TagFileBridge.profile(for: tag, pages: profile.pageCount) == profile
                else {
                    throw CLIError.failure(
                        "'\(path)' is a dump of \(profile.name), but the tag in the field is \(tag.chip) (UID "
                            + "\(tag.uid)); restore writes only to the same chip")
                }
                let wanted = stride(from: 0, to: source.memory.count, by: 4).map { Array(source.memory[$0..<($0 + 4)]) }
                let reader = Type2MemoryReader(
                    target: tag.target, chip: chip, frontend: tag.frontend, password: password)
                let image = try tagStep("read its memory") { () throws(TagError) in try reader.read() }
                if let p = image.firstProtectedPage, p <= profile.lastUserPage {
                    throw CLIError.failure(
                        "pages from \(p) on are password-protected on the tag; give --password to restore them")
                }
                let writer = Type2MemoryWriter(target: tag.target, frontend: tag.frontend)
                let written = try tagStep("restore the memory") { () throws(TagError) in
                    try writer.restore(current: image.pages, wanted: wanted, userPages: 4...profile.lastUserPage)
                }
                try session.release()
                if inv.flag("json") {
                    Console.out(
                        JSONValue.object([
                            ("chip", .string(tag.chip)), ("uid", .string(tag.uid)), ("source", .string(path)),
                            ("pagesWritten", .int(written)),
                        ]).pretty + "\n")
                } else if written == 0 {
                    Console.out("\(tag.chip) \(tag.uid) already holds the user memory of '\(path)'; nothing written.\n")
                } else {
                    Console.out(
                        "Restored the user memory of '\(path)' to \(tag.chip) \(tag.uid): \(written) page writes.\n")
                }
                return 0
            }
        }
    )

    /// `restore` of a type4 dump: the NDEF message onto a type4 tag with an NDEF file of the same size.
    static func restoreType4(_ source: Type4Tag, path: String, _ inv: Invocation) throws -> Int32 {
        try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            let written = try Type4Dump.restore(source, path: path, to: tag)
            try session.release()
            let length = source.ndefMessage.count
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([
                        ("chip", .string(tag.chip)), ("uid", .string(tag.uid)), ("source", .string(path)),
                        ("messageLength", .int(length)), ("written", .bool(written)),
                    ]).pretty + "\n")
            } else if !written {
                Console.out("\(tag.chip) \(tag.uid) already holds the NDEF message of '\(path)'; nothing written.\n")
            } else {
                Console.out("Restored the \(length)-byte NDEF message of '\(path)' to \(tag.chip) \(tag.uid).\n")
            }
            return 0
        }
    }

    /// `restore` of a desfire-ev1 dump: creates what the DESFire lacks, then writes every file.
    static func restoreDESFire(_ source: DESFireEV1Tag, path: String, _ inv: Invocation) throws -> Int32 {
        try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            let done = try DESFireDump.restore(source, path: path, to: tag)
            try session.release()
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([
                        ("chip", .string(tag.chip)), ("uid", .string(tag.uid)), ("source", .string(path)),
                        ("applicationsCreated", .int(done.applications)), ("filesCreated", .int(done.files)),
                        ("bytesWritten", .int(done.bytes)),
                    ]).pretty + "\n")
            } else {
                Console.out(
                    "Restored '\(path)' to \(tag.chip) \(tag.uid): \(done.applications) application(s) and "
                        + "\(done.files) file(s) created, \(done.bytes) bytes written.\n")
            }
            return 0
        }
    }
}
