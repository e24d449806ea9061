import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags

/// `opennfc dump` and `opennfc restore` for MIFARE DESFire EV1: applications and every file type, read with free
/// access and the keys of `--keys FILE` (``DESFireCard/readImage(keys:random:)``), restored with their keys
/// (``DESFireCard/restoreWithKeys(_:random:)``).
enum DESFireDump {
    /// The family's entry in ``DumpFamily/all``.
    static let family = DumpFamily(
        section: "desfire", takesPassword: false,
        dumps: { if case .desfire = $0.identified.kind { true } else { false } },
        dump: dump,
        restore: { source, path, inv, _ in
            guard let s = source as? DESFireEV1Tag else { throw DumpFamily.notOfSection(path) }
            return try restore(s, path: path, inv)
        },
        info: { tag in .init(chip: "\(tag.chip) (MIFARE DESFire, NFC Forum Type 4)") })

    /// Parses a DESFire keys file: one key a line, `<aid> <key number> <cipher> <hex>` (AID 6 hex digits, most
    /// significant first; `000000` the PICC master key), `#` comments and blank lines ignored.
    static func keys(path: String) throws -> [UInt32: [UInt8: DESFireCardKey]] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CLIError.failure("cannot read the keys file '\(path)': \(error.localizedDescription)")
        }
        var out: [UInt32: [UInt8: DESFireCardKey]] = [:]
        for (i, raw) in text.textLines().enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            let at = "'\(path)' line \(i + 1)"
            guard fields.count == 4 else {
                throw CLIError.failure(
                    "\(at): expected '<aid> <key number> <cipher> <hex>', found \(fields.count) fields")
            }
            guard let aidBytes = try? Hex.decode(String(fields[0])), aidBytes.count == 3 else {
                throw CLIError.failure("\(at): the AID '\(fields[0])' is not 6 hex digits")
            }
            guard let number = UInt8(fields[1]), number <= 13 else {
                throw CLIError.failure("\(at): the key number '\(fields[1])' is not 0-13")
            }
            guard let cipher = DESFireCardKey.Cipher(rawValue: String(fields[2])) else {
                throw CLIError.failure("\(at): the cipher must be des, 2k3des, 3k3des or aes, not '\(fields[2])'")
            }
            guard let value = try? Hex.decode(String(fields[3])) else {
                throw CLIError.failure("\(at): the key is not hex")
            }
            let key: DESFireCardKey
            do {
                key = try DESFireCardKey(cipher, value: value)
            } catch {
                throw CLIError.failure("\(at): \(error.reason)")
            }
            let aid = UInt32(aidBytes[0]) << 16 | UInt32(aidBytes[1]) << 8 | UInt32(aidBytes[2])
            out[aid, default: [:]][number] = key
        }
        return out
    }

    /// Reads every application and file of the DESFire in the field that free access or `keys` open.
    static func read(_ tag: ConnectedTag, keys: [UInt32: [UInt8: DESFireCardKey]]) throws -> DESFireImage {
        let card = DESFireCard(target: tag.target, frontend: tag.frontend)
        return try tagStep("read its applications") { () throws(TagError) in try card.readImage(keys: keys) }
    }

    static func cardKey(_ k: DESFireCardKey, version: UInt8 = 0) -> DESFireKey {
        let type: DESFireKey.KeyType =
            switch k.cipher {
            case .des: .des
            case .tdes2: .tdes2
            case .tdes3: .tdes3
            case .aes: .aes
            }
        // Cannot throw: a DESFireCardKey has its cipher's length.
        return try! DESFireKey(type, bytes: k.value, version: version)
    }

    static func readerKey(_ k: DESFireKey) -> DESFireCardKey {
        let cipher: DESFireCardKey.Cipher =
            switch k.type {
            case .des: .des
            case .tdes2: .tdes2
            case .tdes3: .tdes3
            case .aes: .aes
            }
        // Cannot throw: a DESFireKey has its type's length.
        return try! DESFireCardKey(cipher, value: k.bytes)
    }

    static func file(_ f: DESFireFileImage) -> DESFireFile {
        var out: DESFireFile
        switch f.kind {
        case .standard, .backup:
            var backup = false
            if case .backup = f.kind { backup = true }
            out = DESFireFile(
                number: f.number, isoFileID: f.isoFileID, communicationSettings: f.communication,
                accessRights: f.accessRights, contents: f.contents, kind: backup ? .backup : .standard)
        case .value(let lower, let upper, let limit, let limited, let free):
            out = .valueFile(
                number: f.number, communicationSettings: f.communication, accessRights: f.accessRights, lower: lower,
                upper: upper, value: min(max(f.value, lower), upper), limitedCredit: limited, freeGetValue: free,
                limitedCreditValue: limit)
        case .linearRecord(let size, let most, _), .cyclicRecord(let size, let most, _):
            var cyclic = false
            if case .cyclicRecord = f.kind { cyclic = true }
            out = .recordFile(
                number: f.number, isoFileID: f.isoFileID, communicationSettings: f.communication,
                accessRights: f.accessRights, recordSize: size, maxRecords: most, cyclic: cyclic, records: f.records)
        }
        return out
    }

    /// Whether the DESFire in the field shows a random ID (SetConfiguration option `00` bit 1): a single-size UID
    /// `08…` (ISO/IEC 14443-3 §6.5.4), or `80…` (docs/DIFFERENCES.md), instead of its NXP UID.
    static func showsRandomID(_ tag: ConnectedTag) -> Bool { TagIdentifier.isRandomUID(tag.target.identifier) }

    /// The real UID of a DESFire showing a random ID: GetCardUID `51` in a session of the first key `image` learned
    /// (the PICC master key, then each application's keys in AID and key order; any key will do, NXP MF3ICD81
    /// GetCardUID); nil when no key is known.
    static func realUID(_ tag: ConnectedTag, _ image: DESFireImage) -> [UInt8]? {
        var candidates: [(aid: UInt32, number: UInt8, key: DESFireCardKey)] = []
        if let master = image.masterKey { candidates.append((0, 0, master)) }
        for a in image.applications {
            for (number, key) in a.keys.sorted(by: { $0.key < $1.key }) { candidates.append((a.aid, number, key)) }
        }
        let s = DESFireSecureSession(target: tag.target, frontend: tag.frontend)
        for c in candidates {
            do throws(TagError) {
                try s.select(c.aid)
                try s.authenticate(keyNumber: c.number, key: c.key)
                let uid = try s.cardUID()
                try s.select(0)
                return uid
            } catch {
                continue
            }
        }
        return nil
    }

    /// The warning of a dump that could not learn the real UID behind a random ID (docs/TAG-FILES.md, DESFire).
    static func randomIDWarning(_ tag: ConnectedTag) -> String {
        "Warning: this DESFire shows a random ID (\(tag.uid)); its real UID needs a key: pass --keys.\n"
    }

    /// The virtual card reproducing `image` with the tag's UID, ATQA, SAK and ATS; unknown keys are saved as zeros.
    /// A card showing a random ID is saved with `configuration.randomID` and `realUID` (GetCardUID's) in `uid`, or
    /// zeros when no key gave it (GetVersion hides it too), and the factory double-size ATQA: the single-size ATQA
    /// of the random UID is what the saved card shows again at each power-up.
    static func virtualTag(_ image: DESFireImage, _ tag: ConnectedTag, realUID: [UInt8]? = nil) throws
        -> DESFireEV1Tag
    {
        let p = image.production
        let version = DESFireEV1Tag.Version(
            hardware: image.hardware, software: image.software, batch: Array(p[7..<12]), productionWeek: p[12],
            productionYear: p[13])
        let apps = image.applications.map { a in
            var app = DESFireApplication(
                aid: a.aid, keySettings: a.keySettings, keyCount: a.keyCount, isoFileID: a.isoFileID, dfName: a.dfName,
                files: a.files.map(file))
            for (n, k) in a.keys where Int(n) < app.keys.count { app.keys[Int(n)] = cardKey(k) }
            return app
        }
        let random = showsRandomID(tag)
        do {
            let card = try DESFireEV1Tag(
                uid: random ? realUID ?? [UInt8](repeating: 0, count: 7) : tag.target.identifier,
                applications: apps, version: version, masterKey: image.masterKey.map { cardKey($0) } ?? .zero(.des))
            var activation = card.realActivation
            if let atqa = tag.target.sensRes, !random { activation.sensRes = atqa }
            if let sak = tag.target.selRes { activation.selRes = sak }
            if let ats = tag.target.ats { activation.ats = ats }
            card.activation = activation
            if random { card.configuration.randomID = true }
            return card
        } catch {
            throw CLIError.failure("the card cannot be saved as a desfire-ev1 tag file: \(error)")
        }
    }

    /// The dump of a saved `desfire-ev1` tag file, as the reader side restores it (every key known).
    static func image(of source: DESFireEV1Tag) -> DESFireImage {
        let v = source.version
        return DESFireImage(
            hardware: v.hardware, software: v.software,
            production: Array(repeating: 0, count: 7) + v.batch + [v.productionWeek, v.productionYear],
            applications: source.applications.map { a in
                var keys: [UInt8: DESFireCardKey] = [:]
                for (n, k) in a.keys.enumerated() { keys[UInt8(n)] = readerKey(k) }
                return DESFireApplicationImage(
                    aid: a.aid, keySettings: a.keySettings, keyCount: a.keyCount, isoFileID: a.isoFileID,
                    dfName: a.dfName,
                    files: a.files.map { f in
                        let kind: DESFireFileSettings.Kind
                        switch f.kind {
                        case .standard: kind = .standard(size: f.contents.count)
                        case .backup: kind = .backup(size: f.contents.count)
                        case .value(let lower, let upper, let limited, let free):
                            kind = .value(
                                lower: lower, upper: upper, limitedCreditValue: f.limitedCreditValue,
                                limitedCredit: limited, freeGetValue: free)
                        case .linearRecord(let s, let m):
                            kind = .linearRecord(recordSize: s, maxRecords: m, current: f.records.count)
                        case .cyclicRecord(let s, let m):
                            kind = .cyclicRecord(recordSize: s, maxRecords: m, current: f.records.count)
                        }
                        return DESFireFileImage(
                            number: f.number, isoFileID: f.isoFileID, communication: f.communicationSettings,
                            accessRights: f.accessRights, contents: f.contents, kind: kind, value: f.value,
                            records: f.records)
                    }, keys: keys)
            }, masterKey: readerKey(source.masterKey))
    }

    /// The listing printed without -o: each application and file, with the file's bytes, value or records, and
    /// what stayed closed.
    static func listing(_ image: DESFireImage, _ tag: ConnectedTag) -> String {
        func aid(_ v: UInt32) -> String { Hex.encode([UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        func hex16(_ v: Int) -> String { Hex.encode([UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        var s = "Tag:      \(tag.chip), UID \(tag.uid), \(image.applications.count) application(s)\n"
        for a in image.applications {
            s += "Application \(aid(a.aid)): key settings \(Hex.encode([a.keySettings])), "
            s += "key count \(Hex.encode([a.keyCount]))"
            if let fid = a.isoFileID { s += ", ISO DF \(hex16(Int(fid)))" }
            if let name = a.dfName { s += ", DF name \(Hex.encode(name))" }
            if !a.keys.isEmpty { s += ", keys known: \(a.keys.keys.sorted().map(String.init).joined(separator: " "))" }
            s += "\n"
            for f in a.files {
                s += "  File \(f.number)"
                if let fid = f.isoFileID { s += " (ISO \(hex16(Int(fid))))" }
                s += ": \(f.settings.typeName)"
                switch f.kind {
                case .standard, .backup: s += ", \(f.contents.count) bytes"
                case .value(let lower, let upper, _, _, _):
                    s += " \(f.closed == nil ? String(f.value) : "?") (\(lower)…\(upper))"
                case .linearRecord(let size, let most, let current), .cyclicRecord(let size, let most, let current):
                    s += ", \(current) of \(most) records × \(size) bytes"
                }
                s += ", communication \(Hex.encode([f.communication])), access \(hex16(Int(f.accessRights)))\n"
                if let why = f.closed {
                    s += "  closed: \(why)\n"
                    continue
                }
                // The one memory map: bytes by offset (identical lines collapsed), records one a line.
                switch f.kind {
                case .linearRecord(let size, _, _), .cyclicRecord(let size, _, _):
                    s += DESFireEV1Tag.recordMap(f.records, size: size).text(indent: "    ")
                case .standard, .backup:
                    let cc = a.files.first { $0.isoFileID == Type4Configuration.ccFileID && $0.closed == nil }
                    s += DESFireEV1Tag.dataMap(f.contents, isoFileID: f.isoFileID, ccFile: cc?.contents)
                        .text(indent: "    ")
                case .value: break
                }
            }
        }
        return s
    }

    /// Restores a desfire-ev1 dump onto the DESFire in the field; `setPICCKey`: its PICC master key too, after
    /// authenticating with it or one of `currentPICCKeys`.
    static func restore(
        _ source: DESFireEV1Tag, path: String, to tag: ConnectedTag, setPICCKey: Bool = false,
        currentPICCKeys: [DESFireCardKey] = []
    ) throws -> (applications: Int, files: Int, bytes: Int, records: Int, keys: Int, notes: [String]) {
        guard case .desfire = tag.identified.kind else {
            throw CLIError.failure(
                "'\(path)' is a dump of a desfire-ev1 tag, but the tag in the field is \(tag.chip) (UID \(tag.uid)); "
                    + "restore writes only to the same chip")
        }
        let card = DESFireCard(target: tag.target, frontend: tag.frontend)
        let image = image(of: source)
        let piccKey = setPICCKey ? readerKey(source.masterKey) : nil
        return try tagStep("restore its applications") { () throws(TagError) in
            try card.restoreWithKeys(
                image, piccKey: piccKey, piccKeyVersion: source.masterKey.version,
                currentPICCKeys: currentPICCKeys + [.zero(.des)])
        }
    }

    static func aidText(_ v: UInt32) -> String {
        Hex.encode([UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
    }

    /// Reads every application and file readable with free access or the keys given and prints or saves them.
    static func dump(_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32 {
        let keys = try request.keys.map { try Self.keys(path: $0) } ?? [:]
        let image = try read(tag, keys: keys)
        let random = showsRandomID(tag)
        let real = random ? realUID(tag, image) : nil
        try session.release()
        if random && real == nil { Console.err(randomIDWarning(tag)) }
        let closed = image.applications.flatMap { a in
            a.files.compactMap { f in f.closed.map { (a.aid, f.number, $0) } }
        }
        if request.output == nil && !request.json {
            var text = listing(image, tag)
            if let real { text += "Random ID: the real UID is \(Hex.encode(real)) (GetCardUID)\n" }
            Console.out(text)
            return 0
        }
        let virtual = try virtualTag(image, tag, realUID: real)
        let files = image.applications.reduce(0) { $0 + $1.files.count }
        try DumpRequest.save(virtual, to: request.output) { output in
            var text = "Saved \(tag.chip) \(tag.uid) (\(image.applications.count) application(s), "
            text += "\(files) file(s)) to \(output).\n"
            if random {
                text +=
                    real.map { "Random ID: saved with its real UID \(Hex.encode($0)) (GetCardUID).\n" }
                    ?? "Random ID: saved with UID 00000000000000 (not learned) and randomID true.\n"
            }
            for (aid, number, why) in closed {
                text += "Not read: file \(number) of application \(aidText(aid)) (\(why)); saved empty.\n"
            }
            let unknown = image.applications.reduce(0) { $0 + Int($1.keyCount & 0x0F) - $1.keys.count }
            if unknown > 0 { text += "\(unknown) key(s) not given: saved as zeros.\n" }
            return text
        }
        if let output = request.output, TagFile.Format(path: output) == .flipper,
            let loss = FlipperNFCFile.exportLoss(virtual)
        {
            Console.err("Warning: \(output): \(loss).\n")
        }
        return 0
    }

    /// `restore` of a desfire-ev1 dump: creates what the DESFire lacks, writes every file, then the keys.
    static func restore(_ source: DESFireEV1Tag, path: String, _ inv: Invocation) throws -> Int32 {
        // The dump carries the PICC master key when `dump --keys` opened it (the factory key otherwise).
        let setPICCKey = source.masterKey != .zero(.des)
        if setPICCKey && !inv.flag("yes") {
            throw CLIError.failure(
                "'\(path)' sets the PICC master key to its \(source.masterKey.type.rawValue) key, and a card whose "
                    + "PICC master key is lost is locked for good; repeat with --yes")
        }
        let current = try inv.value("keys").map { try keys(path: $0)[0]?[0] } ?? nil
        return try TagSession.run(inv) { session in
            let tag = try session.connectTag()
            var done = try restore(
                source, path: path, to: tag, setPICCKey: setPICCKey, currentPICCKeys: current.map { [$0] } ?? [])
            try session.release()
            if source.configuration.randomID {
                // SetConfiguration's random ID is for good (NXP MF3ICD81 SetConfiguration): never implied by restore.
                done.notes.append(
                    "random ID (the dump's card shows one; turn it on for good with "
                        + "'opennfc desfire configure --random-id --yes')")
            }
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([
                        ("chip", .string(tag.chip)), ("uid", .string(tag.uid)), ("source", .string(path)),
                        ("applicationsCreated", .int(done.applications)), ("filesCreated", .int(done.files)),
                        ("bytesWritten", .int(done.bytes)), ("recordsWritten", .int(done.records)),
                        ("keysChanged", .int(done.keys)), ("notes", .array(done.notes.map { .string($0) })),
                    ]).pretty + "\n")
            } else {
                Console.err(
                    "Restored '\(path)' to \(tag.chip) \(tag.uid): \(done.applications) application(s) and "
                        + "\(done.files) file(s) created, \(done.bytes) bytes and \(done.records) record(s) written, "
                        + "\(done.keys) key(s) set.\n" + done.notes.map { "Not restored: \($0).\n" }.joined())
            }
            return 0
        }
    }
}
