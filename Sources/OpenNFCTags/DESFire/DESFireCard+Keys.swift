internal import OpenNFCBytes
package import OpenNFCCrypto

/// Dump and restore of a DESFire EV1 with keys: every file free access or the keys given open is read (in its
/// communication mode), what stays closed is reported; restore recreates applications, files (every type), their
/// contents and then the keys.
///
/// | Step | Frames | Notes |
/// |---|---|---|
/// | Directory (version, AIDs, DF names, per application key settings, file ids, ISO ids, settings) | as ``readImage()`` | no authentication |
/// | A file a key opens | SelectApplication 1 + Authenticate 2 + the read | each key-granted file gets its own session, with the first given key its access rights name |
/// | Restore | CreateApplication, Authenticate with the new application's zero key 0, create and fill each file (records: WriteRecord + commit each; backup: WriteData + commit), then ChangeKey every given key (key 0 last), then the PICC master key when asked | a value file is created holding its value; a limited credit value L is restored as no command sets it: created holding value + L, Debit L, CommitTransaction (3 frames more; refused, with a note, when value + L passes the upper limit or no key debits) |
extension DESFireCard {
    /// Reads the card as ``readImage()`` does, opening key-protected files with `keys` (by AID, then key number;
    /// AID 0 the PICC master key) through sessions drawing RndA from `random`.
    package func readImage(keys: [UInt32: [UInt8: DESFireCardKey]], random: any RandomSource = SystemRandomSource())
        throws(TagError) -> DESFireImage
    {
        var image = try readDirectory()
        let s = DESFireSecureSession(card: self, random: random)
        if let master = keys[0]?[0] {
            try s.select(0)
            if (try? s.authenticate(keyNumber: 0, key: master)) != nil { image.masterKey = master }
        }
        for (a, app) in image.applications.enumerated() {
            let name = Self.aidName(app.aid)
            for (number, key) in keys[app.aid] ?? [:] {
                try s.select(app.aid)
                if (try? s.authenticate(keyNumber: number, key: key)) != nil {
                    image.applications[a].keys[number] = key
                }
            }
            for (i, file) in app.files.enumerated() {
                let f = file.settings
                let nibbles: [Int]
                if case .value(_, _, _, _, true) = f.kind {
                    nibbles = [0xE]
                } else if case .value = f.kind {
                    nibbles = DESFireFileSettings.getValueNibbles
                } else {
                    nibbles = DESFireFileSettings.readNibbles
                }
                let free = nibbles == [0xE] || nibbles.contains { f.key($0) == 0xE }
                let candidates = f.keys(for: nibbles.filter { $0 < 4 }).filter { image.applications[a].keys[$0] != nil }
                try s.select(app.aid)
                if !free {
                    guard let number = candidates.first, let key = image.applications[a].keys[number] else {
                        let needed = f.keys(for: nibbles.filter { $0 < 4 })
                        image.applications[a].files[i].closed =
                            needed.isEmpty
                            ? "never readable"
                            : "needs key \(needed.map(String.init).joined(separator: " or ")) of application \(name)"
                        continue
                    }
                    try s.authenticate(keyNumber: number, key: key)
                }
                let mode = free ? 0x00 : f.communication(for: nibbles)
                let what = "file \(file.number) of application \(name)"
                switch f.kind {
                case .standard(let size), .backup(let size):
                    if size > 0 {
                        image.applications[a].files[i].contents = try s.readData(
                            file: file.number, offset: 0, length: size, communication: mode)
                    }
                case .value:
                    image.applications[a].files[i].value = try s.getValue(file: file.number, communication: mode)
                case .linearRecord(let size, _, let current), .cyclicRecord(let size, _, let current):
                    if current > 0 {
                        let records = try s.readRecords(file: file.number, recordSize: size, communication: mode)
                        guard records.count == current else {
                            throw TagError(
                                .invalidResponse, "\(what): \(records.count) records, settings say \(current)")
                        }
                        image.applications[a].files[i].records = records
                    }
                }
            }
        }
        try s.select(0)
        return image
    }

    /// Version, applications, their key settings and every file's settings (no contents), without a key.
    func readDirectory() throws(TagError) -> DESFireImage {
        let version = try exchange(0x60, [], name: "GetVersion")
        try Self.check(version.status, "GetVersion")
        guard version.data.count >= 28 else {
            throw TagError(.invalidResponse, "GetVersion answered \(version.data.count) bytes, expected 28")
        }
        let v = version.data
        let aids = try applicationIDs()
        // GetDFNames is optional: a card that refuses it has no DF names to save.
        let names = (try? dfNamesByFrame()) ?? [:]
        var apps: [DESFireApplicationImage] = []
        for aid in aids {
            try select(aid)
            let keys = try command(0x45, [], name: "GetKeySettings of application \(Self.aidName(aid))")
            guard keys.count >= 2 else {
                throw TagError(.invalidResponse, "GetKeySettings answered \(keys.count) bytes")
            }
            var app = DESFireApplicationImage(
                aid: aid, keySettings: keys[0], keyCount: keys[1], isoFileID: names[aid]?.0, dfName: names[aid]?.1)
            let numbers = try fileIDs(aid)
            var isoIDs: [UInt16] = []
            if keys[1] & 0x20 != 0 {
                let raw = try command(0x61, [], name: "GetISOFileIDs of application \(Self.aidName(aid))")
                isoIDs = stride(from: 0, to: raw.count - raw.count % 2, by: 2).map { UInt16(Self.le(raw[$0..<$0 + 2])) }
            }
            // GetISOFileIDs lists the data and record files that have ids, in file order; value files have none.
            var isoQueue = isoIDs[...]
            for number in numbers {
                let name = "GetFileSettings of file \(number) in application \(Self.aidName(aid))"
                let raw = try command(0xF5, [number], name: name)
                guard let s = DESFireFileSettings(decoding: raw) else {
                    throw TagError(.invalidResponse, "\(name) answered \(Hex.encode(raw)), not a file's settings")
                }
                var iso: UInt16?
                if s.typeByte != 0x02 { iso = isoQueue.popFirst() }
                var size = 0
                if case .standard(let n) = s.kind { size = n }
                if case .backup(let n) = s.kind { size = n }
                app.files.append(
                    DESFireFileImage(
                        number: number, isoFileID: iso, communication: s.communication, accessRights: s.accessRights,
                        contents: [UInt8](repeating: 0, count: size), kind: s.kind))
            }
            apps.append(app)
        }
        return DESFireImage(
            hardware: Array(v[0..<7]), software: Array(v[7..<14]), production: Array(v[14..<28]), applications: apps)
    }

    /// Restores `image` with every file type and the keys it knows (``DESFireApplicationImage/keys``): each
    /// application the card lacks is created and filled through a session with its (zero) key 0; files it lacks
    /// are created; data, values and records are written; at last each known key is changed from zero to its value.
    /// Applications that already exist are filled with free access only (their keys are not known).
    ///
    /// With `piccKey`, the PICC master key becomes it last (with `piccKeyVersion`), after authenticating with the
    /// first of `piccKey` itself and `currentPICCKeys` that the card accepts (none: `commandRejected`, nothing of the
    /// PICC key changed).
    ///
    /// - Returns: the numbers of applications and files created, data bytes and records written, keys changed
    ///   (the PICC master key included), and notes on what could not be restored.
    package func restoreWithKeys(
        _ image: DESFireImage, piccKey: DESFireCardKey? = nil, piccKeyVersion: UInt8 = 0,
        currentPICCKeys: [DESFireCardKey] = [.zero(.des)], random: any RandomSource = SystemRandomSource()
    ) throws(TagError) -> (applications: Int, files: Int, bytes: Int, records: Int, keys: Int, notes: [String]) {
        var counts = (applications: 0, files: 0, bytes: 0, records: 0, keys: 0, notes: [String]())
        let s = DESFireSecureSession(card: self, random: random)
        let present = Set(try applicationIDs())
        for app in image.applications {
            let created = !present.contains(app.aid)
            let type: DESFireCardKey.Cipher =
                app.keyCount & 0xC0 == 0x80 ? .aes : app.keyCount & 0xC0 == 0x40 ? .tdes3 : .des
            let zero = DESFireCardKey.zero(type)
            if created {
                try s.select(0)
                try s.createApplication(
                    app.aid, keySettings: app.keySettings, keyCount: app.keyCount, isoFileID: app.isoFileID,
                    dfName: app.dfName)
                counts.applications += 1
            }
            try s.select(app.aid)
            let existing = Set(try s.fileIDs())
            let login = { () throws(TagError) in
                try s.select(app.aid)
                if created { try s.authenticate(keyNumber: 0, key: zero) }
            }
            for file in app.files {
                try login()
                let f = file.settings
                let mode = created ? f.communication(for: DESFireFileSettings.writeNibbles) : 0x00
                // A limited credit value is the last committed debits: created holding value + L, then Debit L.
                var limit: Int32 = 0
                if created, !existing.contains(file.number), case .value(_, let upper, let l, _, _) = file.kind, l > 0 {
                    let what =
                        "limited credit value \(l) of file \(file.number) in application \(Self.aidName(app.aid))"
                    if Int64(file.value) + Int64(l) > Int64(upper) {
                        counts.notes.append("\(what) not restored: value + \(l) passes the upper limit \(upper)")
                    } else if f.keys(for: DESFireFileSettings.getValueNibbles).isEmpty
                        && !DESFireFileSettings.getValueNibbles.contains(where: { f.key($0) == 0xE })
                    {
                        counts.notes.append("\(what) not restored: no key may debit the file")
                    } else {
                        limit = l
                    }
                }
                if !existing.contains(file.number) {
                    try s.createFile(
                        file.number, kind: Self.empty(file.kind), communication: file.communication,
                        accessRights: file.accessRights, isoFileID: file.isoFileID, value: file.value + limit)
                    counts.files += 1
                }
                guard file.closed == nil else { continue }
                // Writing needs a key of the Write or Read&Write nibble; a new application's keys are all zero.
                let free = DESFireFileSettings.writeNibbles.contains { f.key($0) == 0xE }
                if created, !free, let writer = f.keys(for: DESFireFileSettings.writeNibbles).first, writer != 0 {
                    try s.select(app.aid)
                    try s.authenticate(keyNumber: writer, key: zero)
                }
                switch file.kind {
                case .standard, .backup:
                    guard !file.contents.isEmpty else { continue }
                    try s.writeData(file: file.number, offset: 0, data: file.contents, communication: mode)
                    if case .backup = file.kind { try s.commitTransaction() }
                    counts.bytes += file.contents.count
                case .value:
                    guard limit > 0 else { continue }  // created holding its value
                    let nibbles = DESFireFileSettings.getValueNibbles
                    let free = nibbles.contains { f.key($0) == 0xE }
                    try s.select(app.aid)
                    if !free, let debitor = f.keys(for: nibbles).first {
                        try s.authenticate(keyNumber: debitor, key: zero)
                    }
                    try s.debit(file: file.number, amount: limit, communication: f.communication(for: nibbles))
                    try s.commitTransaction()
                case .linearRecord, .cyclicRecord:
                    for r in file.records {
                        try s.writeRecord(file: file.number, data: r, communication: mode)
                        try s.commitTransaction()
                        counts.records += 1
                    }
                }
            }
            guard created else { continue }
            // Keys last: every other key with key 0, then key 0 itself (the session ends there).
            for number in app.keys.keys.sorted(by: >) {
                guard let key = app.keys[number], key != zero else { continue }
                let access = app.keySettings >> 4
                guard number == 0 || access != 0xF else { continue }  // frozen keys cannot change
                let authority = number == 0 || access == 0 ? 0 : access == 0xE ? number : access
                try s.select(app.aid)
                try s.authenticate(keyNumber: authority, key: zero)
                try s.changeKey(number, to: key, currentValue: number == authority ? nil : zero.value)
                counts.keys += 1
            }
        }
        if let piccKey {
            var current: DESFireCardKey?
            for k in [piccKey] + currentPICCKeys where current == nil {
                try s.select(0)
                if (try? s.authenticate(keyNumber: 0, key: k)) != nil { current = k }
            }
            guard let current else {
                throw TagError(
                    .commandRejected, "the card's PICC master key is none of the keys given: it was not changed")
            }
            if current != piccKey {
                let number: UInt8 = piccKey.cipher == .aes ? 0x80 : piccKey.cipher == .tdes3 ? 0x40 : 0x00
                try s.changeKey(number, to: piccKey, version: piccKeyVersion)
                counts.keys += 1
            }
        }
        try s.select(0)
        return counts
    }

    /// A file kind as it is created (record files start empty).
    static func empty(_ kind: DESFireFileSettings.Kind) -> DESFireFileSettings.Kind {
        switch kind {
        case .linearRecord(let s, let m, _): .linearRecord(recordSize: s, maxRecords: m, current: 0)
        case .cyclicRecord(let s, let m, _): .cyclicRecord(recordSize: s, maxRecords: m, current: 0)
        default: kind
        }
    }
}
