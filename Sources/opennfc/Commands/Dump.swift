import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

extension Commands {
    static let dump = Command(
        name: "dump",
        abstract: "Read the whole tag: print its memory map, or save it as a tag file.",
        discussion: """
            Reads every page of a Type 2 tag, configuration pages included, and the chip's signature; of a Type 4
            tag, the CC file and the whole NDEF file (saved as a type4 tag file); of a MIFARE DESFire EV1, every
            application and standard data file readable without a key (saved as a desfire-ev1 tag file). Without -o
            it prints the memory map page by page; with -o it saves a tag file (.json, or Flipper Zero .nfc, by
            the file's extension) that 'opennfc restore', 'opennfc tag show' and --device sim: use.
            PWD and PACK never read back from a chip; pages a password protects (PROT) cannot be read without
            --password. Both are noted, and the saved file holds zeros there (or the password given).

            Examples:
              opennfc dump --device pcsc
              opennfc dump -o backup.json --device pcsc
              opennfc dump -o backup.nfc --password 12345678 --device sim:tag.json
            """,
        options: TagSession.options + [
            .init(name: "output", short: "o", value: "<file>", help: "Save a tag file (.json or .nfc)."),
            .init(name: "password", value: "<hex>", help: "Authenticate first (PWD_AUTH) to read protected pages."),
            .init(name: "json", help: "Print the tag file JSON on stdout."),
            .init(
                name: "keys", value: "<file>",
                help: "MIFARE Classic: keys to try before the built-in ones; DESFire: keys per application."),
            ultralightCAuthOption,
        ],
        run: { inv in
            let password = try hexOption(inv, "password", bytes: 4)
            let output = inv.value("output")
            // Proxmark3 formats (.eml, .bin, .mfd) come from the saved file through 'tag convert'.
            if let output, TagFile.Format(path: output) != .json && TagFile.Format(path: output) != .flipper {
                throw CLIError.usage("-o takes a .json or .nfc file, not '\(output)'")
            }
            if output != nil && inv.flag("json") { throw CLIError.usage("-o and --json cannot be combined") }
            var request = DumpRequest(output: output, json: inv.flag("json"), password: password)
            request.keys = inv.value("keys")
            request.ultralightCKey = try ultralightCKey(inv)
            return try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                guard let family = DumpFamily.all.first(where: { $0.dumps(tag) }) else {
                    throw CLIError.failure(
                        "dump reads Type 2 tags (NTAG, Ultralight); this tag is \(tag.chip), UID \(tag.uid)")
                }
                if password != nil, !family.takesPassword { throw CLIError.usage("--password is for Type 2 tags") }
                if request.ultralightCKey != nil, !family.takesPassword {
                    throw CLIError.usage("--key is the 3DES key of an Ultralight C (Type 2)")
                }
                return try family.dump(tag, session, request)
            }
        }
    )
}

/// Maps what the reader identified to the simulation's chip profiles, for saving and restoring tag files.
enum TagFileBridge {
    /// The simulated chip with the same GET_VERSION answer (or, without one, a plain Ultralight of 16 pages).
    static func profile(for tag: ConnectedTag, pages: Int) -> Type2ChipProfile? {
        if let v = tag.identified.versionData, v.count == 8 {
            return Type2ChipProfile.all.first { $0.version == v && $0.pageCount == pages }
        }
        if tag.type2Chip?.family == .ultralight, pages == Type2ChipProfile.ultralight.pageCount {
            return .ultralight
        }
        if tag.type2Chip?.family == .ultralightC, pages == Type2ChipProfile.ultralightC.pageCount {
            return .ultralightC
        }
        return nil
    }
}

/// The page-by-page listing of a Type 2 image, with what each page is.
struct Type2PageMap {
    let chip: Type2Chip
    let image: Type2MemoryImage
    let profile: Type2ChipProfile?

    var notes: [String] {
        var n: [String] = []
        if let p = image.firstProtectedPage {
            n.append(
                "pages \(p)–\(image.pages.count - 1) are password-protected (PROT) and were not read; "
                    + "give --password to read them")
        }
        if profile?.configPage != nil || chip.family == .ntag21x || chip.family == .ultralightEV1 {
            n.append("PWD and PACK never read back from a chip: they are shown and saved as zeros")
        }
        return n
    }

    func meaning(_ page: Int) -> String {
        let total = image.pages.count
        switch page {
        case 0: return "UID 0–2, BCC0"
        case 1: return "UID 3–6"
        case 2: return "BCC1, internal, static lock bytes"
        case 3: return "capability container"
        default: break
        }
        if let cfg = profile?.configPage
            ?? ((chip.family == .ntag21x || chip.family == .ultralightEV1) ? total - 4 : nil)
        {
            switch page - cfg {
            case 0: return "CFG0 (AUTH0 = \(image.pages[page].map { Hex.encode([$0[3]]) } ?? "?"))"
            case 1: return "CFG1 (ACCESS)"
            case 2: return "PWD (never readable)"
            case 3: return "PACK (never readable)"
            default: break
            }
        }
        if let lock = profile?.dynamicLock?.page ?? chip.dynamicLockPage, page == lock { return "dynamic lock bytes" }
        if let last = profile?.lastUserPage, page > last { return "reserved" }
        return page == 4 ? "user memory" : ""
    }

    /// The pages in the one memory map (``MemoryMap``): numbered in hex, runs of identical pages collapsed.
    func listing() -> String {
        let rows = image.pages.enumerated().map { i, p in
            var note = meaning(i)
            if p == nil { note = note.isEmpty ? "protected (password)" : note + ", protected (password)" }
            return MemoryMap.Row(number: i, bytes: p, note: note)
        }
        return MemoryMap(rows: rows, rowWidth: 4).text()
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
