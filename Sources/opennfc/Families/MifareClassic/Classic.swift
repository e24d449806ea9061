import Foundation
import OpenNFCBytes
import OpenNFCTags

extension Commands {
    static let classic = Command(
        name: "classic",
        abstract: "Authenticate to a MIFARE Classic and read or write blocks, values, keys and access bits.",
        discussion: """
            A sector opens with --key <12 hex digits> and --key-type a|b (default a), or with --keys FILE: every key \
            of the file, then the well-known default keys, until one authenticates. Blocks are numbered across the \
            card (a 1K has 0-63, sector s starting at 4s; a 4K's sectors 32-39 have 16 blocks from 128). Sector \
            trailers are written with 'classic trailer', which refuses without --yes access bits that lock the \
            sector for good; block 0 of a magic card with 'classic block0'. Needs a reader that performs Crypto1 \
            (sim:, PC/SC readers); an iPhone never authenticates a Classic.
            """,
        subcommands: [
            classicAuth, classicRead, classicWrite, classicValue, classicTrailer, classicFormat, classicBlock0,
        ]
    )

    static let classicKeyOptions: [Command.Option] = [
        .init(name: "key", value: "<hex>", help: "The 6-byte key."),
        .init(name: "key-type", value: "a|b", help: "Authenticate with key A (default) or key B."),
        .init(name: "keys", value: "<file>", help: "A key file: one 12-hex-digit key a line, # comments."),
    ]

    /// The dictionary of --keys FILE followed by the built-in keys, or nil without --keys.
    static func classicDictionary(_ path: String?) throws -> MifareClassicKeyDictionary? {
        guard let path else { return nil }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw CLIError.failure("cannot read the key file '\(path)'") }
        do throws(TagError) {
            return try MifareClassicKeyDictionary.parse(text, name: path).followed(by: .wellKnown)
        } catch {
            throw CLIError.failure(error.reason)
        }
    }

    /// --key or --keys (the file, then the built-in keys), or the built-in keys alone.
    static func classicKeys(_ inv: Invocation) throws -> MifareClassicKeyDictionary {
        if let key = try hexOption(inv, "key", bytes: 6) {
            return MifareClassicKeyDictionary(keys: [key]).followed(
                by: try classicDictionary(inv.value("keys")) ?? .init(keys: []))
        }
        return try classicDictionary(inv.value("keys")) ?? .wellKnown
    }

    static func classicKeyTypeIsA(_ inv: Invocation) throws -> Bool {
        let keyType = (inv.value("key-type") ?? "a").lowercased()
        guard keyType == "a" || keyType == "b" else { throw CLIError.usage("--key-type is a or b, not '\(keyType)'") }
        return keyType == "a"
    }

    /// Connects to the Classic in the field.
    static func classicConnect(_ session: TagSession) throws -> MifareClassicCard {
        let tag = try session.connectTag()
        guard case .mifareClassic = tag.identified.kind else {
            throw CLIError.failure("the tag is \(tag.chip), UID \(tag.uid), not a MIFARE Classic")
        }
        return MifareClassicCard(target: tag.target, frontend: tag.frontend)
    }

    /// Connects to the Classic in the field and authenticates `sector` with --key or --keys; returns the card and
    /// the key that opened the sector.
    static func classicOpen(_ session: TagSession, _ inv: Invocation, sector: Int) throws -> (
        card: MifareClassicCard, key: [UInt8]
    ) {
        let keyA = try classicKeyTypeIsA(inv)
        let key = try hexOption(inv, "key", bytes: 6)
        let dictionary = try classicDictionary(inv.value("keys"))
        guard key != nil || dictionary != nil else { throw CLIError.usage("give --key <hex> or --keys <file>") }
        let card = try classicConnect(session)
        guard (0..<card.model.sectorCount).contains(sector) else {
            throw CLIError.usage(
                "sector \(sector) is outside a MIFARE Classic \(card.model.rawValue) (0-\(card.model.sectorCount - 1))")
        }
        let name = keyA ? "A" : "B"
        if let key {
            try classicStep("authenticate sector \(sector) with key \(name)") { () throws(TagError) in
                try card.authenticate(sector: sector, keyA: keyA, key: key)
            }
            return (card, key)
        }
        let found = try classicStep("search the keys") { () throws(TagError) in
            try card.findKey(sector: sector, keyA: keyA, in: dictionary!)
        }
        guard let found else {
            throw CLIError.failure(
                "no key of '\(inv.value("keys") ?? "")' or the built-in keys opens sector \(sector) as key \(name)")
        }
        return (card, found)
    }

    static func classicBlockOption(_ inv: Invocation) throws -> Int {
        guard inv.value("block") != nil else { throw CLIError.usage("missing --block <n>") }
        return try inv.int("block", default: 0, range: 0...255)
    }

    static let classicAuth = Command(
        name: "auth",
        abstract: "Find or check a sector's key.",
        discussion: """
            Examples:
              opennfc classic auth --sector 1 --keys keys.txt --device pcsc
              opennfc classic auth --sector 0 --key A0A1A2A3A4A5 --device sim:card.json
            """,
        options: TagSession.options + classicKeyOptions + [
            .init(name: "sector", value: "<n>", help: "The sector (default 0).")
        ],
        run: { inv in
            let sector = try inv.int("sector", default: 0, range: 0...39)
            return try TagSession.run(inv) { session in
                let opened = try classicOpen(session, inv, sector: sector)
                try session.release()
                Console.err(
                    "Sector \(sector) authenticated with key \(try classicKeyTypeIsA(inv) ? "A" : "B") "
                        + "\(Hex.encode(opened.key)).\n")
                return 0
            }
        }
    )

    static let classicRead = Command(
        name: "read",
        abstract: "Read a block, or every block of a sector (hex on stdout).",
        discussion: """
            A trailer reads with key A as zeros (a chip never reveals key A) and key B as zeros unless the access \
            bits make it readable.

            Examples:
              opennfc classic read --block 4 --key FFFFFFFFFFFF --device sim:card.json
              opennfc classic read --sector 1 --keys keys.txt --device pcsc
            """,
        options: TagSession.options + classicKeyOptions + [
            .init(name: "block", value: "<n>", help: "One block."),
            .init(name: "sector", value: "<n>", help: "Every block of the sector."),
        ],
        run: { inv in
            let blocks: [Int]
            if inv.value("block") != nil {
                blocks = [try classicBlockOption(inv)]
            } else if inv.value("sector") != nil {
                let s = try inv.int("sector", default: 0, range: 0...39)
                let first = MifareClassicCard.firstBlock(ofSector: s)
                blocks = Array(first..<first + MifareClassicCard.blockCount(inSector: s))
            } else {
                throw CLIError.usage("give --block <n> or --sector <n>")
            }
            return try TagSession.run(inv) { session in
                let (card, _) = try classicOpen(session, inv, sector: MifareClassicCard.sector(ofBlock: blocks[0]))
                var out = ""
                for b in blocks {
                    let data = try classicStep("read block \(b)") { () throws(TagError) in try card.readBlock(b) }
                    let number = String(b)
                    out += String(repeating: " ", count: max(0, 3 - number.count)) + number
                    out += "  \(Hex.encode(data, separator: " "))"
                    if MifareClassicCard.isTrailer(b) {
                        let access =
                            (try? MifareClassicAccessBits(bytes: Array(data[6..<9])))
                            .map {
                                "access C1C2C3 \($0.conditions.map { String($0, radix: 2) }.joined(separator: " "))"
                            }
                            ?? "access bits inconsistent"
                        out += "  trailer (\(access); key A reads as zeros)"
                    }
                    out += "\n"
                }
                try session.release()
                Console.out(out)
                return 0
            }
        }
    )

    static let classicWrite = Command(
        name: "write",
        abstract: "Write 16 bytes to a data block.",
        discussion: """
            Sector trailers are written with 'classic trailer', block 0 of a magic card with 'classic block0'.

            Examples:
              opennfc classic write --block 4 --data 000102030405060708090A0B0C0D0E0F --key FFFFFFFFFFFF --device sim:card.json
            """,
        options: TagSession.options + classicKeyOptions + [
            .init(name: "block", value: "<n>", help: "The block."),
            .init(name: "data", value: "<hex>", help: "16 bytes."),
        ],
        run: { inv in
            let block = try classicBlockOption(inv)
            guard let data = try hexOption(inv, "data", bytes: 16) else { throw CLIError.usage("missing --data <hex>") }
            if MifareClassicCard.isTrailer(block) {
                throw CLIError.usage("block \(block) is a sector trailer: use 'opennfc classic trailer'")
            }
            if block == 0 {
                throw CLIError.usage("block 0 holds the UID: use 'opennfc classic block0' (magic cards only)")
            }
            return try TagSession.run(inv) { session in
                let (card, _) = try classicOpen(session, inv, sector: MifareClassicCard.sector(ofBlock: block))
                try classicStep("write block \(block)") { () throws(TagError) in try card.writeBlock(block, data) }
                try session.release()
                Console.err("Wrote block \(block).\n")
                return 0
            }
        }
    )

    static let classicValue = Command(
        name: "value",
        abstract: "Read, set, increment, decrement, restore or transfer a value block.",
        discussion: """
            Without an operation it prints the value. --set writes a value block (value, its inverse, value, and \
            the block number as address). --inc, --dec and --restore load the chip's transfer buffer, which TRANSFER \
            stores into --to (default the same block) in the same authenticated session.

            Examples:
              opennfc classic value --block 5 --set 100 --key FFFFFFFFFFFF --device sim:card.json
              opennfc classic value --block 5 --dec 20 --key FFFFFFFFFFFF --device sim:card.json
              opennfc classic value --block 5 --restore --to 6 --key FFFFFFFFFFFF --device sim:card.json
            """,
        options: TagSession.options + classicKeyOptions + [
            .init(name: "block", value: "<n>", help: "The value block."),
            .init(name: "set", value: "<n>", help: "Write this value."),
            .init(name: "inc", value: "<n>", help: "Increment by n."),
            .init(name: "dec", value: "<n>", help: "Decrement by n."),
            .init(name: "restore", help: "Copy the value (TRANSFER to --to)."),
            .init(name: "to", value: "<n>", help: "The block TRANSFER stores into (default --block, same sector)."),
        ],
        run: { inv in
            let block = try classicBlockOption(inv)
            let to = try inv.int("to", default: block, range: 0...255)
            func number(_ name: String) throws -> Int32? {
                guard let t = inv.value(name) else { return nil }
                guard let n = Int32(t) else { throw CLIError.usage("--\(name) takes a 32-bit integer, not '\(t)'") }
                return n
            }
            let set = try number("set")
            let inc = try number("inc")
            let dec = try number("dec")
            let restore = inv.flag("restore")
            let ops = [set != nil, inc != nil, dec != nil, restore].filter { $0 }.count
            guard ops <= 1 else { throw CLIError.usage("give one of --set, --inc, --dec, --restore") }
            if inc.map({ $0 < 0 }) ?? false || dec.map({ $0 < 0 }) ?? false {
                throw CLIError.usage("--inc and --dec take amounts of 0 or more")
            }
            let sector = MifareClassicCard.sector(ofBlock: block)
            for b in [block, to] where MifareClassicCard.isTrailer(b) || b == 0 {
                throw CLIError.usage(
                    "block \(b) is \(b == 0 ? "the manufacturer block" : "a sector trailer"), no value block")
            }
            guard MifareClassicCard.sector(ofBlock: to) == sector else {
                throw CLIError.usage(
                    "--to \(to) is not in sector \(sector): TRANSFER stays in the authenticated sector")
            }
            if ops == 0 || set != nil, inv.value("to") != nil {
                throw CLIError.usage("--to goes with --inc, --dec or --restore")
            }
            let shown = ops == 0 || set != nil ? block : to
            return try TagSession.run(inv) { session in
                let (card, _) = try classicOpen(session, inv, sector: sector)
                let value = try classicStep("operate on value block \(block)") { () throws(TagError) -> Int32 in
                    if let set {
                        try card.writeValue(block, set)
                    } else if let inc {
                        try card.increment(block, by: inc)
                        try card.transfer(to)
                    } else if let dec {
                        try card.decrement(block, by: dec)
                        try card.transfer(to)
                    } else if restore {
                        try card.restore(block)
                        try card.transfer(to)
                    }
                    return try card.readValue(shown).value
                }
                try session.release()
                Console.out("Block \(shown): value \(value).\n")
                return 0
            }
        }
    )
}
