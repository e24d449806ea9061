import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for NFC Forum Type 4 tags (T4T 2.0 §5): the CC and the whole NDEF file.
enum Type4Dump {
    /// The family's entry in ``DumpFamily/all``: any ISO 7816-4 card over ISO-DEP.
    static let family = DumpFamily(
        section: "iso7816", takesPassword: false,
        dumps: { if case .iso7816 = $0.identified.kind { true } else { false } },
        dump: dump,
        restore: { source, path, inv, _ in
            guard let s = source as? Type4Tag else { throw DumpFamily.notOfSection(path) }
            return try restore(s, path: path, inv)
        },
        info: { tag in .init(chip: "\(tag.chip) (ISO/IEC 7816-4 over ISO-DEP, NFC Forum Type 4)") })

    /// Reads the NDEF application of the ISO-DEP tag in the field.
    static func read(_ tag: ConnectedTag) throws -> Type4NDEFImage {
        let procedure = Type4NDEF(target: tag.target, frontend: tag.frontend)
        return try tagStep("read its NDEF application") { () throws(TagError) in try procedure.readImage() }
    }

    /// The virtual card reproducing `image` with the tag's UID, ATQA, SAK and ATS.
    static func virtualTag(_ image: Type4NDEFImage, _ tag: ConnectedTag) throws -> Type4Tag {
        let configuration = Type4Configuration(
            mappingVersion: image.mappingVersion, ndefFileID: image.fileID, ndefFileSize: image.ndefFile.count,
            mle: image.maxResponseData, mlc: image.maxCommandData, readAccess: image.readAccess,
            writeAccess: image.writeAccess,
            extendedLength: image.maxResponseData > 0x100 || image.maxCommandData > 0xFF,
            answersBothNDEFNames: image.answeredV2Name != (image.mappingVersion >> 4 >= 2))
        do {
            let card = try Type4Tag(uid: tag.target.identifier, configuration: configuration, ndefFile: image.ndefFile)
            var activation = card.activation
            if let atqa = tag.target.sensRes { activation.sensRes = atqa }
            if let sak = tag.target.selRes { activation.selRes = sak }
            if let ats = tag.target.ats { activation.ats = ats }
            card.activation = activation
            return card
        } catch {
            throw CLIError.failure("the card cannot be saved as a type4 tag file: \(error)")
        }
    }

    /// The listing printed without -o: the CC and the NDEF file up to the end of its message. The length field is
    /// the one the reader procedure found (NLEN, or ENLEN under mapping 3.0); offsets have 4 hex digits, 6 for a
    /// file past 64 KiB.
    static func listing(_ image: Type4NDEFImage, _ tag: ConnectedTag) -> String {
        func hex(_ v: Int, digits: Int) -> String {
            Hex.encode(stride(from: digits / 2 - 1, through: 0, by: -1).map { UInt8(v >> ($0 * 8) & 0xFF) })
        }
        let file = image.ndefFile
        let lengthLabel = image.lengthFieldSize == 4 ? "ENLEN:    " : "NLEN:     "
        let length = image.messageLength
        let digits = file.count > 0x10000 ? 6 : 4
        var s = "Tag:      \(tag.chip), UID \(tag.uid), NDEF file \(hex(Int(image.fileID), digits: 4)) of "
        s += "\(file.count) bytes\n"
        s += "CC:       mapping version \(Hex.encode([image.mappingVersion])), MLe \(image.maxResponseData), "
        s += "MLc \(image.maxCommandData), read access \(Hex.encode([image.readAccess])), "
        s += "write access \(Hex.encode([image.writeAccess]))\n"
        s += lengthLabel + "\(length)\n"
        let shown = min(file.count, image.lengthFieldSize + length)
        s += MemoryMap(
            bytes: Array(file.prefix(shown)), width: 16, ascii: false, minimumDigits: digits, numbering: { $0 * 16 }
        )
        .text()
        if shown < file.count {
            let rest = file[shown...].allSatisfy { $0 == 0 } ? "all zero" : "not shown; -o saves them"
            s += "bytes \(shown)–\(file.count - 1) after the message: \(rest)\n"
        }
        return s
    }

    /// Writes the message of a type4 dump to the tag in the field, tear-safely (NLEN 0, data, NLEN: T4T §5.4.4).
    /// Returns whether anything was written.
    static func restore(_ source: Type4Tag, path: String, to tag: ConnectedTag) throws -> Bool {
        guard tag.target.isISODEP, case .iso7816 = tag.identified.kind else {
            throw CLIError.failure(
                "'\(path)' is a dump of a type4 tag, but the tag in the field is \(tag.chip) (UID \(tag.uid)); "
                    + "restore writes only to the same chip")
        }
        let procedure = Type4NDEF(target: tag.target, frontend: tag.frontend)
        let size = try tagStep("read its NDEF application") { () throws(TagError) in try procedure.ndefFileSize() }
        let wanted = source.ndefFile.count
        guard size == wanted else {
            throw CLIError.failure(
                "'\(path)' holds an NDEF file of \(wanted) bytes, but the tag's (UID \(tag.uid)) is \(size) bytes; "
                    + "restore writes only to a tag of the same NDEF file size")
        }
        let message = source.ndefMessage
        if let current = try? procedure.readMessage(), current == message { return false }
        try tagStep("restore the NDEF file") { () throws(TagError) in
            if message.isEmpty { try procedure.format() } else { try procedure.writeMessage(message) }
        }
        return true
    }

    /// Reads the CC and NDEF file of the Type 4 tag in the field and prints them or saves a type4 tag file.
    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        let image = try read(tag)
        try session.release()
        if request.output == nil && !request.json {
            Console.out(listing(image, tag))
            return 0
        }
        let virtual = try virtualTag(image, tag)
        try DumpRequest.save(virtual, to: request.output) { output in
            "Saved \(tag.chip) \(tag.uid) (NDEF file of \(image.ndefFile.count) bytes) to \(output).\n"
        }
        if let output = request.output, TagFile.Format(path: output) == .flipper {
            Console.err(
                "Note: a Flipper .nfc file (ISO14443-4A) keeps only the UID and activation of a "
                    + "Type 4 card, not its CC and NDEF file; save as .json to keep them\n")
        }
        return 0
    }

    /// `restore` of a type4 dump: the NDEF message onto a type4 tag with an NDEF file of the same size.
    static func restore(_ source: Type4Tag, path: String, _ inv: Invocation) throws -> Int32 {
        try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            let written = try restore(source, path: path, to: tag)
            try session.release()
            let length = source.ndefMessage.count
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([
                        ("chip", .string(tag.chip)), ("uid", .string(tag.uid)), ("source", .string(path)),
                        ("messageLength", .int(length)), ("written", .bool(written)),
                    ]).pretty + "\n")
            } else if !written {
                Console.err("\(tag.chip) \(tag.uid) already holds the NDEF message of '\(path)'; nothing written.\n")
            } else {
                Console.err("Restored the \(length)-byte NDEF message of '\(path)' to \(tag.chip) \(tag.uid).\n")
            }
            return 0
        }
    }
}
