import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for MIFARE DESFire EV1: applications and standard data files, read and
/// written without authentication (``DESFireCard``).
enum DESFireDump {
    /// Reads every application and file of the DESFire in the field.
    static func read(_ tag: ConnectedTag) throws -> DESFireImage {
        let card = DESFireCard(target: tag.target, frontend: tag.frontend)
        return try tagStep("read its applications") { () throws(TagError) in try card.readImage() }
    }

    /// The virtual card reproducing `image` with the tag's UID, ATQA, SAK and ATS.
    static func virtualTag(_ image: DESFireImage, _ tag: ConnectedTag) throws -> DESFireEV1Tag {
        let p = image.production
        let version = DESFireEV1Tag.Version(
            hardware: image.hardware, software: image.software, batch: Array(p[7..<12]), productionWeek: p[12],
            productionYear: p[13])
        let apps = image.applications.map { a in
            DESFireApplication(
                aid: a.aid, keySettings: a.keySettings, keyCount: a.keyCount, isoFileID: a.isoFileID, dfName: a.dfName,
                files: a.files.map {
                    DESFireFile(
                        number: $0.number, isoFileID: $0.isoFileID, communicationSettings: $0.communication,
                        accessRights: $0.accessRights, contents: $0.contents)
                })
        }
        do {
            let card = try DESFireEV1Tag(uid: tag.target.identifier, applications: apps, version: version)
            var activation = card.activation
            if let atqa = tag.target.sensRes { activation.sensRes = atqa }
            if let sak = tag.target.selRes { activation.selRes = sak }
            if let ats = tag.target.ats { activation.ats = ats }
            card.activation = activation
            return card
        } catch {
            throw CLIError.failure("the card cannot be saved as a desfire-ev1 tag file: \(error)")
        }
    }

    /// The dump of a saved `desfire-ev1` tag file, as the reader side restores it.
    static func image(of source: DESFireEV1Tag) -> DESFireImage {
        let v = source.version
        return DESFireImage(
            hardware: v.hardware, software: v.software,
            production: Array(repeating: 0, count: 7) + v.batch + [v.productionWeek, v.productionYear],
            applications: source.applications.map { a in
                DESFireApplicationImage(
                    aid: a.aid, keySettings: a.keySettings, keyCount: a.keyCount, isoFileID: a.isoFileID,
                    dfName: a.dfName,
                    files: a.files.map {
                        DESFireFileImage(
                            number: $0.number, isoFileID: $0.isoFileID, communication: $0.communicationSettings,
                            accessRights: $0.accessRights, contents: $0.contents)
                    })
            })
    }

    /// The listing printed without -o: each application and file, with the file's bytes.
    static func listing(_ image: DESFireImage, _ tag: ConnectedTag) -> String {
        func aid(_ v: UInt32) -> String { Hex.encode([UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        func hex16(_ v: Int) -> String { Hex.encode([UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        var s = "Tag:      \(tag.chip), UID \(tag.uid), \(image.applications.count) application(s)\n"
        for a in image.applications {
            s += "Application \(aid(a.aid)): key settings \(Hex.encode([a.keySettings])), "
            s += "key count \(Hex.encode([a.keyCount]))"
            if let fid = a.isoFileID { s += ", ISO DF \(hex16(Int(fid)))" }
            if let name = a.dfName { s += ", DF name \(Hex.encode(name))" }
            s += "\n"
            for f in a.files {
                s += "  File \(f.number)"
                if let fid = f.isoFileID { s += " (ISO \(hex16(Int(fid))))" }
                s += ": \(f.contents.count) bytes, communication \(Hex.encode([f.communication])), "
                s += "access \(hex16(Int(f.accessRights)))\n"
                let used = (f.contents.lastIndex { $0 != 0 } ?? -1) + 1
                let shown = min(f.contents.count, (used + 15) / 16 * 16)
                for offset in stride(from: 0, to: shown, by: 16) {
                    let row = f.contents[offset..<min(shown, offset + 16)]
                    s += "  \(hex16(offset))  \(Hex.encode(row, separator: " "))\n"
                }
                if shown < f.contents.count { s += "  bytes \(shown)–\(f.contents.count - 1): all zero\n" }
            }
        }
        return s
    }

    /// Restores a desfire-ev1 dump onto the DESFire in the field.
    static func restore(_ source: DESFireEV1Tag, path: String, to tag: ConnectedTag) throws -> (
        applications: Int, files: Int, bytes: Int
    ) {
        guard case .desfire = tag.identified.kind else {
            throw CLIError.failure(
                "'\(path)' is a dump of a desfire-ev1 tag, but the tag in the field is \(tag.chip) (UID \(tag.uid)); "
                    + "restore writes only to the same chip")
        }
        let card = DESFireCard(target: tag.target, frontend: tag.frontend)
        let image = image(of: source)
        return try tagStep("restore its applications") { () throws(TagError) in try card.restore(image) }
    }

    /// Reads every application and standard data file readable without a key and prints or saves them.
    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        let image = try read(tag)
        try session.release()
        if request.output == nil && !request.json {
            Console.out(listing(image, tag))
            return 0
        }
        let virtual = try virtualTag(image, tag)
        let files = image.applications.reduce(0) { $0 + $1.files.count }
        try DumpRequest.save(virtual, to: request.output) { output in
            "Saved \(tag.chip) \(tag.uid) (\(image.applications.count) application(s), "
                + "\(files) file(s)) to \(output).\n"
        }
        return 0
    }

    /// `restore` of a desfire-ev1 dump: creates what the DESFire lacks, then writes every file.
    static func restore(_ source: DESFireEV1Tag, path: String, _ inv: Invocation) throws -> Int32 {
        try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            let done = try restore(source, path: path, to: tag)
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
