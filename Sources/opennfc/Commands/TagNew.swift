import OpenNFCBytes
import OpenNFCNDEF
import OpenNFCSimulation

extension Commands {
    static let tagNew = Command(
        name: "new",
        abstract:
            "Create a factory-fresh tag file, NDEF formatted as its maker ships it, optionally holding a message.",
        discussion: """
            Without --uid the UID is random (7 bytes, first byte 04 for the NXP chips; a Topaz takes its 7-byte UID0-UID6 or the 4-byte UID0-UID3 that RID reports). --text and --uri write one \
            Text or URI record; --ndef-hex takes a whole NDEF message in hex. The output format follows the \
            extension of -o (.json, .nfc, .ndef). For --chip type4, --mapping 3.0 makes a card of NFC Forum T4T \
            mapping 3.0 (ENDEF file with a 4-byte ENLEN, reached past 32 KiB with odd-INS READ/UPDATE BINARY) and \
            --ndef-file-size sets the NDEF file size in bytes, length field included (default 4096; up to 65534 \
            under mappings 1.0 and 2.0, 16777216 under 3.0). --key sets the 3DES key of an ultralight-c (16 bytes; \
            default the factory key 49454D4B41455242214E4143554F5946, "BREAKMEIFYOUCAN!" in its key pages). \
            --chip passport and --chip id-card make a virtual eMRTD (docs/PASSPORT.md): ICAO's specimen document \
            unless --mrz or the holder fields are given, signed under a fresh TEST PKI unless --pki names one.
            """,
        options: [
            .init(name: "chip", value: "<chip>", help: "Chip: \(TagCLI.chipList)."),
            .init(name: "uid", value: "<hex>", help: "UID in hex (7 bytes for the NXP chips)."),
            .init(name: "text", value: "<text>", help: "Store a Text record (language en, UTF-8)."),
            .init(name: "uri", value: "<uri>", help: "Store a URI record."),
            .init(name: "ndef-hex", value: "<hex>", help: "Store this NDEF message (hex)."),
            .init(name: "key", value: "<hex>", help: "ultralight-c: the 3DES key, 16 bytes (32 hex digits)."),
            .init(name: "output", short: "o", value: "<file>", help: "Where to write the tag file."),
            .init(name: "mapping", value: "<1.0|2.0|3.0>", help: "type4: NDEF mapping version (default 2.0)."),
            .init(name: "ndef-file-size", value: "<bytes>", help: "type4: NDEF file size, length field included."),
        ] + passportOptions,
        run: { inv in
            guard let chipName = inv.value("chip") else { throw CLIError.usage("missing --chip <\(TagCLI.chipList)>") }
            guard let output = inv.value("output") else { throw CLIError.usage("missing -o <file>") }
            guard TagFile.Format(path: output) != nil else {
                throw CLIError.usage("-o \(output): use a .json, .nfc or .ndef file name")
            }
            let chip = try TagCLI.chip(chipName)
            let uid: [UInt8]
            if let text = inv.value("uid") {
                do {
                    uid = try Hex.decode(text)
                } catch {
                    throw CLIError.usage("--uid: \(error)")
                }
                if let problem = chip.newUIDProblem(uid) { throw CLIError.usage("--uid: \(problem)") }
            } else {
                uid = chip.randomUID()
            }
            if let passport = try passportTag(inv, chip: chip.name, uid: uid) {
                try TagCLI.save(passport, to: output)
                Console.err("Wrote \(chip.name) UID \(Hex.encode(uid)) to \(output) (TEST keys)\n")
                return 0
            }
            let message = try messageOption(inv)
            let configuration = try type4Configuration(inv, chip: chip.name)
            let tag: any VirtualTag
            do {
                if let configuration {
                    tag = try Type4Tag.factory(uid: uid, holding: message ?? [], configuration: configuration)
                } else {
                    tag = try chip.factory(uid, message)
                }
            } catch {
                throw CLIError.failure("\(error)")
            }
            if let text = inv.value("key") {
                guard let type2 = tag as? Type2Tag, type2.ultralightCKeyPages != nil else {
                    throw CLIError.usage("--key: only ultralight-c has a 3DES key, not \(chip.name)")
                }
                let key: [UInt8]
                do {
                    key = try Hex.decode(text)
                } catch {
                    throw CLIError.usage("--key: \(error)")
                }
                do {
                    try type2.setUltralightCKey(key)
                } catch {
                    throw CLIError.usage("--key: \(error)")
                }
                type2.reset()
            }
            try TagCLI.save(tag, to: output)
            Console.err("Wrote \(chip.name) UID \(Hex.encode(uid)) to \(output)\n")
            return 0
        }
    )

    /// The Type 4 configuration of --mapping and --ndef-file-size, nil when neither is given.
    static func type4Configuration(_ inv: Invocation, chip: String) throws(CLIError) -> Type4Configuration? {
        let mapping = inv.value("mapping")
        let size = inv.value("ndef-file-size")
        guard mapping != nil || size != nil else { return nil }
        guard chip == "type4" else { throw CLIError.usage("--mapping and --ndef-file-size apply to --chip type4 only") }
        var c = Type4Configuration()
        if let mapping {
            switch mapping {
            case "1.0": c.mappingVersion = 0x10
            case "2.0": c.mappingVersion = 0x20
            case "3.0": c.mappingVersion = 0x30
            default: throw CLIError.usage("--mapping \(mapping): give 1.0, 2.0 or 3.0")
            }
        }
        if let size {
            guard let n = Int(size), (5...c.maxNDEFFileSize).contains(n) else {
                throw CLIError.usage(
                    "--ndef-file-size \(size): give a size of 5…\(c.maxNDEFFileSize) bytes for mapping \(mapping ?? "2.0")"
                )
            }
            c.ndefFileSize = n
        }
        return c
    }

    /// The message of --text, --uri or --ndef-hex (at most one), encoded.
    static func messageOption(_ inv: Invocation) throws(CLIError) -> [UInt8]? {
        let given = ["text", "uri", "ndef-hex"].filter { inv.value($0) != nil }
        guard given.count <= 1 else {
            throw CLIError.usage("give only one of --text, --uri and --ndef-hex")
        }
        do {
            if let text = inv.value("text") {
                return NDEFMessage(records: [try NDEFTextRecord(text: text).record()]).encoded()
            }
            if let uri = inv.value("uri") {
                return NDEFMessage(records: [try NDEFURIRecord(uri: uri).record()]).encoded()
            }
        } catch {
            throw CLIError.usage("cannot encode the record: \(error)")
        }
        guard let hex = inv.value("ndef-hex") else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(hex)
        } catch {
            throw CLIError.usage("--ndef-hex: \(error)")
        }
        do {
            _ = try NDEFMessage(decoding: bytes)
        } catch {
            throw CLIError.usage("--ndef-hex is not a valid NDEF message: \(error)")
        }
        return bytes
    }
}
