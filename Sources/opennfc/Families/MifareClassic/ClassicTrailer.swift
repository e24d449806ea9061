import OpenNFCBytes
import OpenNFCTags

extension Commands {
    /// Why writing `access` into a trailer locks the sector for good (NXP MF1S50yyX §8.7, Tables 7 and 8); empty
    /// when every condition can still be changed by some key. (A readable key B, as in the transport configuration,
    /// is no lock: the access bits can still make it secret again.)
    static func classicLockReasons(_ access: MifareClassicAccessBits) -> [String] {
        var reasons: [String] = []
        let t = access.trailer
        let c3 = String(access.conditions[3], radix: 2)
        let trailer = String(repeating: "0", count: 3 - c3.count) + c3
        if t.accessBitsWrite == .never {
            reasons.append("trailer condition \(trailer): no key can ever write the access bits again")
        }
        if t.keyAWrite == .never && t.keyBWrite == .never {
            reasons.append("trailer condition \(trailer): neither key can ever be changed again")
        }
        for g in 0..<3 {
            let d = access.data(g)
            if d.write == .never && d.increment == .never && d.decrementTransferRestore == .never
                && t.accessBitsWrite == .never
            {
                let c = String(access.conditions[g], radix: 2)
                reasons.append(
                    "block group \(g) (condition \(String(repeating: "0", count: 3 - c.count) + c)) becomes "
                        + "\(d.read == .never ? "unreadable" : "read-only") for good")
            }
        }
        return reasons
    }

    static let classicTrailer = Command(
        name: "trailer",
        abstract: "Change a sector's keys and access bits.",
        discussion: """
            Writes the trailer of --sector: --new-key-a, --new-key-b (default: the key that authenticated keeps \
            its value; the other one FFFFFFFFFFFF), --access as four C1C2C3 values 0-7 for block groups 0-2 and \
            the trailer (0,0,0,1 is the transport configuration FF 07 80, the default; NXP MF1S50yyX Tables 7-8) \
            and --gpb (default 69). The new trailer is decoded first; when no key could ever write its access bits \
            again, neither key could be changed, or a block group becomes read-only for good, the command names \
            what and refuses without --yes, since a mistake then locks the sector for good. Write down the new keys \
            first: a forgotten key locks the sector too.

            Examples:
              opennfc classic trailer --sector 1 --key FFFFFFFFFFFF --new-key-a A0A1A2A3A4A5 --device sim:card.json
              opennfc classic trailer --sector 2 --key FFFFFFFFFFFF --access 2,2,2,6 --yes --device pcsc
            """,
        options: TagSession.options + classicKeyOptions + [
            .init(name: "sector", value: "<n>", help: "The sector."),
            .init(name: "new-key-a", value: "<hex>", help: "The new key A."),
            .init(name: "new-key-b", value: "<hex>", help: "The new key B."),
            .init(name: "access", value: "<c0,c1,c2,c3>", help: "Access conditions (default 0,0,0,1)."),
            .init(name: "gpb", value: "<hex>", help: "General purpose byte (default 69)."),
            .init(name: "yes", help: "Confirm access bits that lock the sector for good."),
        ],
        run: { inv in
            guard inv.value("sector") != nil else { throw CLIError.usage("missing --sector <n>") }
            let sector = try inv.int("sector", default: 0, range: 0...39)
            let text = inv.value("access") ?? "0,0,0,1"
            let conditions = text.split(separator: ",", omittingEmptySubsequences: false).map {
                UInt8($0.filter { !$0.isWhitespace })
            }
            guard conditions.count == 4, conditions.allSatisfy({ ($0 ?? 8) < 8 }) else {
                throw CLIError.usage("--access takes four values 0-7 separated by commas (e.g. 0,0,0,1), not '\(text)'")
            }
            let access: MifareClassicAccessBits
            do throws(TagError) {
                access = try MifareClassicAccessBits(conditions: conditions.map { $0 ?? 0 })
            } catch {
                throw CLIError.usage(error.reason)
            }
            let gpb = try hexOption(inv, "gpb", bytes: 1)?[0] ?? 0x69
            let newA = try hexOption(inv, "new-key-a", bytes: 6)
            let newB = try hexOption(inv, "new-key-b", bytes: 6)
            let reasons = classicLockReasons(access)
            if !reasons.isEmpty && !inv.flag("yes") {
                throw CLIError.failure(
                    "access bits \(Hex.encode(access.bytes)) (\(text)) lock sector \(sector) for good: "
                        + reasons.joined(separator: "; ") + "; repeat with --yes to write them")
            }
            let usedA = try classicKeyTypeIsA(inv)
            return try TagSession.run(inv) { session in
                let (card, used) = try classicOpen(session, inv, sector: sector)
                let ff = [UInt8](repeating: 0xFF, count: 6)
                let keyA = newA ?? (usedA ? used : ff)
                let keyB = newB ?? (usedA ? ff : used)
                try classicStep("write the trailer of sector \(sector)") { () throws(TagError) in
                    try card.writeTrailer(sector: sector, keyA: keyA, access: access, gpb: gpb, keyB: keyB)
                }
                try session.release()
                Console.err(
                    "Sector \(sector): key A \(Hex.encode(keyA)), key B \(Hex.encode(keyB)), access "
                        + "\(Hex.encode(access.bytes)), GPB \(Hex.encode([gpb])): \(access).\n")
                return 0
            }
        }
    )

    static let classicFormat = Command(
        name: "format",
        abstract: "Put every sector back to transport keys, or lay out MAD and NDEF.",
        discussion: """
            Every sector whose trailer a key of --key/--keys (then the built-in keys) may write gets the transport \
            configuration (keys FFFFFFFFFFFF, access FF 07 80, GPB 69) and zeroed data blocks (block 0 stays). \
            Sectors no key may reset are listed and left alone (exit 1). With --ndef the card is then NFC \
            formatted (NXP AN1305: MAD in sector 0, every other sector NDEF with key A D3F7D3F7D3F7) holding an \
            empty message. Everything on the card is lost.

            Examples:
              opennfc classic format --keys keys.txt --device pcsc
              opennfc classic format --ndef --device sim:card.json
            """,
        options: TagSession.options + classicKeyOptions + [
            .init(name: "ndef", help: "NFC format the card afterwards (MAD + NDEF sectors).")
        ],
        run: { inv in
            let keys = try classicKeys(inv)
            return try TagSession.run(inv) { session in
                let card = try classicConnect(session)
                let outcomes = try classicStep("reset the sectors") { () throws(TagError) in
                    try card.resetToTransport(keys: keys)
                }
                var out = ""
                var kept = 0
                for (s, o) in outcomes.enumerated() {
                    switch o {
                    case .reset(let keyA, let key):
                        out +=
                            "Sector \(s): transport configuration (opened with key \(keyA ? "A" : "B") \(Hex.encode(key)))\n"
                    case .kept(let why):
                        kept += 1
                        out += "Sector \(s): kept: \(why)\n"
                    }
                }
                if inv.flag("ndef") {
                    guard kept == 0 else {
                        Console.err(out)
                        throw CLIError.failure(
                            "\(kept) sector(s) could not be reset, so the card was not NFC formatted")
                    }
                    let ndef = MifareClassicNDEF(target: card.target, frontend: card.frontend)
                    try classicStep("NFC format the card") { () throws(TagError) in try ndef.format() }
                    out +=
                        "NFC formatted: MAD in sector 0, NDEF (03 E1) in sectors 1-\(card.model.sectorCount - 1), empty message.\n"
                }
                try session.release()
                Console.err(out)
                return kept == 0 ? 0 : 1
            }
        }
    )

    static let classicBlock0 = Command(
        name: "block0",
        abstract: "Write block 0 (UID, BCC, SAK, ATQA) of a gen1a or gen2/CUID magic card.",
        discussion: """
            --uid sets a new 4-byte UID into the card's current block 0 (BCC recomputed, SAK, ATQA and \
            manufacturer bytes kept); --data writes the whole 16 bytes (byte 4 must be the BCC). A gen1a card is \
            written through its backdoor (40/43, no key), a gen2/CUID card with a normal WRITE after authenticating \
            sector 0 (--key/--keys, then the built-in keys). A genuine card's block 0 is read-only and is refused. \
            A wrong SAK or ATQA can make a magic card unusable, so the command refuses without --yes.

            Examples:
              opennfc classic block0 --uid 11223344 --yes --device sim:gen2.json
            """,
        options: TagSession.options + classicKeyOptions + [
            .init(name: "uid", value: "<hex>", help: "A new 4-byte UID."),
            .init(name: "data", value: "<hex>", help: "All 16 bytes of block 0."),
            .init(name: "yes", help: "Confirm the write."),
        ],
        run: { inv in
            let uid = try hexOption(inv, "uid", bytes: 4)
            let data = try hexOption(inv, "data", bytes: 16)
            guard (uid == nil) != (data == nil) else { throw CLIError.usage("give one of --uid <hex> or --data <hex>") }
            if let data, data[0..<4].reduce(0, ^) != data[4] {
                throw CLIError.usage(
                    "byte 4 of --data must be the BCC \(Hex.encode([data[0..<4].reduce(0, ^)])) (XOR of bytes 0-3)")
            }
            guard inv.flag("yes") else {
                throw CLIError.failure(
                    "block 0 holds the UID, BCC, SAK and ATQA a reader selects the card by: a wrong one makes a magic "
                        + "card unusable; repeat with --yes to write it")
            }
            let keys = try classicKeys(inv)
            return try TagSession.run(inv) { session in
                let card = try classicConnect(session)
                var block = data ?? []
                if let uid {
                    // The current block 0: readable with the sector 0 key (or through the gen1a backdoor).
                    block = try classicStep("read block 0") { () throws(TagError) -> [UInt8] in
                        if (try? card.openBackdoor()) == nil {
                            guard try card.findKey(sector: 0, keyA: true, in: keys) != nil else {
                                throw TagError(.commandRejected, "no known key A opens sector 0")
                            }
                        }
                        let b = try card.readBlock(0)
                        try card.reactivate()
                        return b
                    }
                    block.replaceSubrange(0..<5, with: uid + [uid.reduce(0, ^)])
                }
                let how = try classicStep("write block 0") { () throws(TagError) in
                    try card.writeBlockZero(block, keys: keys)
                }
                try session.release()
                Console.err("Block 0 written (\(how)): \(Hex.encode(block, separator: " ")).\n")
                return 0
            }
        }
    )
}
