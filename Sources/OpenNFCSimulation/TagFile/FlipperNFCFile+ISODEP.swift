internal import OpenNFCBytes

/// Flipper Zero `.nfc` files for the ISO-DEP chips, from the format description in flipperzero-firmware
/// documentation/file_formats/NfcFileFormats.md (landscape.md §4.1):
///
/// | Device type | Chip | Import | Export |
/// |---|---|---|---|
/// | `Mifare DESFire` | `desfire-ev1` | PICC Version, ATQA/SAK/ATS, applications, key settings, standard data files | ✓ |
/// | `ISO14443-4A` | `type4` | UID, ATQA, SAK, ATS; factory NDEF state (empty message) | UID and activation only (lossy) |
///
/// The DESFire layout stores no ISO identifiers or DF names. Import gives application `000001` holding files 1
/// and 2 the NFC Forum mapping's (DF `E105` named `D2760000850101`, EF `E103`/`E104`, key count flag `20`), so an
/// NDEF-formatted card reads as NDEF again; other applications lose their ISO identifiers (export warns).
/// Key versions are not modelled: export writes `00`, import ignores them. AIDs and access rights are written in
/// wire order (least significant byte first), as Flipper does.
extension FlipperNFCFile {
    typealias Entry = (value: String, line: Int)

    /// Parses a `.nfc` dump of any chip this simulator has: NTAG/Ultralight, `Mifare DESFire` (as `desfire-ev1`)
    /// or `ISO14443-4A` (as a factory `type4` with that UID and activation).
    package static func decodeAnyChip(_ text: String) throws(TagFileError) -> any VirtualTag {
        if let felica = try decodeFeliCaIfFeliCa(text) { return felica }
        let values = try keyValues(text)
        switch values["Device type"]?.value {
        case "Mifare DESFire": return try decodeDESFire(values)
        case "ISO14443-4A": return try decodeISO14443_4A(values)
        case "Mifare Classic": return try decodeMifareClassic(values)
        case let type? where iso15693DeviceTypes.contains(type): return try decodeISO15693(values)
        default: return try decode(text)
        }
    }

    /// What a `.nfc` file of `tag` cannot hold, or nil when the export is lossless.
    package static func exportLoss(_ tag: any VirtualTag) -> String? {
        if let loss = feliCaExportLoss(tag) { return loss }
        if tag is Type4Tag {
            return "Flipper's ISO14443-4A format stores only UID, ATQA, SAK and ATS: the card's files "
                + "(CC, NDEF) are not saved"
        }
        if let d = tag as? DESFireEV1Tag {
            var losses: [String] = []
            if d.configuration.randomID {
                losses.append(
                    "Flipper's Mifare DESFire format has no random ID: the file holds the real UID "
                        + "\(Hex.encode(d.realActivation.uid)), which a Flipper emulates as a fixed UID")
            }
            let lost = d.applications.filter { ($0.isoFileID != nil || $0.dfName != nil) && !isNDEFMapping($0) }
            if !lost.isEmpty {
                let aids = lost.map {
                    Hex.encode([UInt8($0.aid >> 16), UInt8($0.aid >> 8 & 0xFF), UInt8($0.aid & 0xFF)])
                }
                .joined(separator: ", ")
                losses.append(
                    "Flipper's Mifare DESFire format stores no ISO file identifiers or DF names: "
                        + "application(s) \(aids) lose them")
            }
            return losses.isEmpty ? nil : losses.joined(separator: "; ")
        }
        return nil
    }

    // MARK: Parsing

    /// The lines that are not blank or comments, with their 1-based numbers.
    static func contentLines(_ text: String) -> [(number: Int, line: Substring)] {
        text.textLines().enumerated().compactMap { n, line in
            let trimmed = line.drop { $0 == " " }
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : (n + 1, line)
        }
    }

    static func keyValues(_ text: String) throws(TagFileError) -> [String: Entry] {
        var values: [String: Entry] = [:]
        for (number, line) in contentLines(text) {
            let n = number - 1
            guard let colon = line.firstIndex(of: ":") else {
                throw TagFileError("expected 'Key: value'", line: n + 1)
            }
            let key = String(line[..<colon])
            // A key given twice (two `Page 5:` lines) is a damaged or hand-edited dump: which one is meant is unknown.
            if let first = values[key] {
                throw TagFileError("given twice (first on line \(first.line))", field: key, line: n + 1)
            }
            values[key] = (String(line[line.index(after: colon)...].drop { $0 == " " }), n + 1)
        }
        let filetype = try require(values, "Filetype")
        guard filetype.value == "Flipper NFC device" else {
            throw TagFileError("not a Flipper NFC file", field: "Filetype", line: filetype.line)
        }
        return values
    }

    static func require(_ values: [String: Entry], _ key: String) throws(TagFileError) -> Entry {
        guard let v = values[key] else { throw TagFileError("missing", field: key) }
        return v
    }

    static func hexValue(_ values: [String: Entry], _ key: String, count: Int?) throws(TagFileError) -> [UInt8]? {
        guard let v = values[key] else { return nil }
        do {
            return try TagFileFields.hex(String(v.value.map { $0 == "?" ? "0" : $0 }), field: key, count: count)
        } catch {
            throw TagFileError(error.reason, field: key, line: v.line)
        }
    }

    static func bool(_ values: [String: Entry], _ key: String) throws(TagFileError) -> Bool? {
        guard let v = values[key] else { return nil }
        switch v.value {
        case "true": return true
        case "false": return false
        default: throw TagFileError("expected true or false", field: key, line: v.line)
        }
    }

    /// Version 4 only: earlier versions predate these device types.
    static func checkVersion(_ values: [String: Entry]) throws(TagFileError) {
        let version = try require(values, "Version")
        guard version.value == "4" else {
            throw TagFileError(
                "version '\(version.value)' is not supported for this device type (4 is)", field: "Version",
                line: version.line)
        }
    }

    /// UID, ATQA, SAK and ATS over `activation`.
    static func activation(_ values: [String: Entry], over base: VirtualActivation) throws(TagFileError)
        -> VirtualActivation
    {
        var a = base
        if let atqa = try hexValue(values, "ATQA", count: 2) { a.sensRes = UInt16(atqa[0]) << 8 | UInt16(atqa[1]) }
        if let sak = try hexValue(values, "SAK", count: 1) { a.selRes = sak[0] }
        if let ats = try hexValue(values, "ATS", count: nil) {
            guard ats.count >= 1, Int(ats[0]) == ats.count else {
                throw TagFileError(
                    "the ATS must start with its length byte TL (\(ats.count) bytes)", field: "ATS",
                    line: values["ATS"]!.line)
            }
            a.ats = ats
        }
        return a
    }

    // MARK: ISO14443-4A

    static func decodeISO14443_4A(_ values: [String: Entry]) throws(TagFileError) -> Type4Tag {
        try checkVersion(values)
        let uidLine = try require(values, "UID")
        let uid = try hexValue(values, "UID", count: nil) ?? []
        let tag: Type4Tag
        do throws(ISODEPCardError) {
            tag = try Type4Tag.factory(uid: uid, holding: [])
        } catch {
            throw TagFileError(error.reason, field: "UID", line: uidLine.line)
        }
        tag.activation = try activation(values, over: tag.activation)
        return tag
    }

    static func encodeISO14443_4A(_ tag: Type4Tag) -> String {
        let a = tag.activation
        var lines = header("ISO14443-4A", a)
        lines.append("# ISO14443-4A specific data")
        lines.append("ATS: \(hex(a.ats ?? []))")
        return lines.joined(separator: "\n") + "\n"
    }

    static func header(_ device: String, _ a: VirtualActivation) -> [String] {
        preamble(deviceType: device) + [
            "# UID is common for all formats",
            "UID: \(hex(a.uid))",
            "# ISO14443-3A specific data",
            "ATQA: \(hex([UInt8((a.sensRes ?? 0) >> 8), UInt8((a.sensRes ?? 0) & 0xFF)]))",
            "SAK: \(hex([a.selRes ?? 0]))",
        ]
    }

    static func hex(_ b: some Collection<UInt8>) -> String { Hex.encode(b, separator: " ") }

    // MARK: Mifare DESFire

    /// The AID as Flipper names it in keys: its wire bytes, least significant first, without spaces.
    static func aidHex(_ aid: UInt32) -> String {
        Hex.encode([UInt8(aid & 0xFF), UInt8(aid >> 8 & 0xFF), UInt8(aid >> 16 & 0xFF)])
    }

    static func isNDEFMapping(_ app: DESFireApplication) -> Bool {
        app.aid == DESFireEV1Tag.ndefApplicationAID && app.isoFileID == 0xE105
            && app.dfName == Type4Configuration.ndefApplicationNameV2
            && app.files.allSatisfy {
                ($0.number == 1 && $0.isoFileID == 0xE103) || ($0.number == 2 && $0.isoFileID == 0xE104)
            }
    }

    static func encodeDESFire(_ tag: DESFireEV1Tag) -> String {
        let v = tag.version
        // Flipper has no random-ID field: the file holds the real UID and ATQA (a Flipper emulates them fixed),
        // never this power-up's random UID (docs/TAG-FILES.md); the ATS is the one RATS answers.
        var a = tag.realActivation
        a.ats = tag.activation.ats
        var lines = header("Mifare DESFire", a)
        lines.append("# ISO14443-4A specific data")
        lines.append("ATS: \(hex(a.ats ?? []))")
        lines.append("# Mifare DESFire specific data")
        let picc = v.hardware + v.software + a.uid + v.batch + [v.productionWeek, v.productionYear]
        lines.append("PICC Version: \(hex(picc))")
        // Nominal storage (2^(n/2) bytes) less the files, allocated in 32-byte blocks.
        let storage = 1 << Int(v.hardware[5] >> 1)
        let used = tag.applications.flatMap(\.files).reduce(0) { $0 + ($1.contents.count + 31) / 32 * 32 }
        lines.append("PICC Free Memory: \(max(0, storage - used))")
        keySettings(prefix: "PICC", settings: 0x0F, keyCount: 0x01, into: &lines)
        lines.append("Application Count: \(tag.applications.count)")
        lines.append(
            "Application IDs: \(hex(tag.applications.flatMap { [UInt8($0.aid & 0xFF), UInt8($0.aid >> 8 & 0xFF), UInt8($0.aid >> 16 & 0xFF)] }))"
        )
        for app in tag.applications {
            let p = "Application \(aidHex(app.aid))"
            keySettings(prefix: p, settings: app.keySettings, keyCount: app.keyCount, into: &lines)
            lines.append("\(p) File IDs: \(hex(app.files.map(\.number)))")
            for f in app.files {
                let fp = "\(p) File \(f.number)"
                lines.append("\(fp) Type: 00")
                lines.append("\(fp) Communication Settings: \(hex([f.communicationSettings]))")
                lines.append("\(fp) Access Rights: \(hex([UInt8(f.accessRights & 0xFF), UInt8(f.accessRights >> 8)]))")
                lines.append("\(fp) Size: \(f.contents.count)")
                lines.append("\(fp): \(hex(f.contents))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func keySettings(prefix p: String, settings s: UInt8, keyCount: UInt8, into lines: inout [String]) {
        lines.append("\(p) Change Key ID: \(hex([s >> 4]))")
        lines.append("\(p) Config Changeable: \(s & 0x08 != 0)")
        lines.append("\(p) Free Create Delete: \(s & 0x04 != 0)")
        lines.append("\(p) Free Directory List: \(s & 0x02 != 0)")
        lines.append("\(p) Key Changeable: \(s & 0x01 != 0)")
        // Flipper splits the key count byte: `Flags` its upper nibble (crypto method and ISO file identifier
        // bits, written only when not zero), `Max Keys` the number of keys.
        if keyCount >> 4 != 0 { lines.append("\(p) Flags: \(hex([keyCount >> 4]))") }
        lines.append("\(p) Max Keys: \(hex([keyCount & 0x0F]))")
        for k in 0..<Int(keyCount & 0x0F) { lines.append("\(p) Key \(k) Version: 00") }
    }

    static func decodeDESFire(_ values: [String: Entry]) throws(TagFileError) -> DESFireEV1Tag {
        try checkVersion(values)
        let uidLine = try require(values, "UID")
        let uid = try hexValue(values, "UID", count: 7) ?? []
        var version = DESFireEV1Tag.Version()
        if let picc = try hexValue(values, "PICC Version", count: 28) {
            guard Array(picc[14..<21]) == uid else {
                throw TagFileError(
                    "bytes 15-21 (the UID) do not match UID", field: "PICC Version", line: values["PICC Version"]!.line)
            }
            version = DESFireEV1Tag.Version(
                hardware: Array(picc[0..<7]), software: Array(picc[7..<14]), batch: Array(picc[21..<26]),
                productionWeek: picc[26], productionYear: picc[27])
        }
        let ids = try hexValue(values, "Application IDs", count: nil) ?? []
        if let count = values["Application Count"] {
            guard let n = Int(count.value), n * 3 == ids.count else {
                throw TagFileError(
                    "'\(count.value)' does not match the \(ids.count / 3) AIDs of Application IDs",
                    field: "Application Count", line: count.line)
            }
        }
        guard ids.count % 3 == 0 else {
            throw TagFileError(
                "expected 3 bytes per AID, found \(ids.count) bytes", field: "Application IDs",
                line: values["Application IDs"]!.line)
        }
        var applications: [DESFireApplication] = []
        for i in stride(from: 0, to: ids.count, by: 3) {
            let aid = UInt32(ids[i + 2]) << 16 | UInt32(ids[i + 1]) << 8 | UInt32(ids[i])
            applications.append(try decodeApplication(values, aid: aid))
        }
        let tag: DESFireEV1Tag
        do throws(ISODEPCardError) {
            tag = try DESFireEV1Tag(uid: uid, applications: applications, version: version)
        } catch {
            throw TagFileError(error.reason, field: "UID", line: uidLine.line)
        }
        tag.activation = try activation(values, over: tag.activation)
        return tag
    }

    static func decodeApplication(_ values: [String: Entry], aid: UInt32) throws(TagFileError) -> DESFireApplication {
        let p = "Application \(aidHex(aid))"
        var app = DESFireApplication(aid: aid)
        var settings: UInt8 = 0
        if let id = try hexValue(values, "\(p) Change Key ID", count: 1) {
            guard id[0] <= 0x0F else {
                throw TagFileError(
                    "expected a key number 00…0F", field: "\(p) Change Key ID", line: values["\(p) Change Key ID"]!.line
                )
            }
            settings = id[0] << 4
        }
        for (bit, name) in [
            (0x08, "Config Changeable"), (0x04, "Free Create Delete"), (0x02, "Free Directory List"),
            (0x01, "Key Changeable"),
        ] as [(UInt8, String)] {
            if try bool(values, "\(p) \(name)") ?? true { settings |= bit }
        }
        app.keySettings = settings
        // `Flags` (optional) is the key count byte's upper nibble; a `Max Keys` above 0F carries it too, as older
        // files wrote the whole byte there, and both are merged as Flipper reads them.
        let flags = try hexValue(values, "\(p) Flags", count: 1)?[0] ?? 0
        guard flags <= 0x0F else {
            throw TagFileError(
                "expected 00…0F (the upper nibble of the key count byte)", field: "\(p) Flags",
                line: values["\(p) Flags"]!.line)
        }
        if let k = try hexValue(values, "\(p) Max Keys", count: 1) {
            app.keyCount = (flags | k[0] >> 4) << 4 | k[0] & 0x0F
        } else {
            app.keyCount = flags << 4 | app.keyCount & 0x0F
        }
        for number in try hexValue(values, "\(p) File IDs", count: nil) ?? [] {
            let fp = "\(p) File \(number)"
            if let type = try hexValue(values, "\(fp) Type", count: 1), type[0] != 0 {
                throw TagFileError(
                    "file type \(hex(type)) is not simulated (only standard data files, 00)", field: "\(fp) Type",
                    line: values["\(fp) Type"]!.line)
            }
            let sizeLine = try require(values, "\(fp) Size")
            guard let size = Int(sizeLine.value), (0...0xFF_FFFF).contains(size) else {
                throw TagFileError("expected a size from 0 to 16777215", field: "\(fp) Size", line: sizeLine.line)
            }
            var contents = [UInt8](repeating: 0, count: size)
            if let data = try hexValue(values, fp, count: nil) {
                guard data.count == size else {
                    throw TagFileError(
                        "expected \(size) bytes (Size), found \(data.count)", field: fp, line: values[fp]!.line)
                }
                contents = data
            }
            let rights = try hexValue(values, "\(fp) Access Rights", count: 2) ?? [0xEE, 0xEE]
            app.files.append(
                DESFireFile(
                    number: number,
                    communicationSettings: try hexValue(values, "\(fp) Communication Settings", count: 1)?[0] ?? 0,
                    accessRights: UInt16(rights[1]) << 8 | UInt16(rights[0]), contents: contents))
        }
        // The NFC Forum mapping's ISO identifiers, which the format does not store.
        let numbers = app.files.map(\.number)
        if aid == DESFireEV1Tag.ndefApplicationAID, numbers.contains(1), numbers.contains(2) {
            app.isoFileID = 0xE105
            app.dfName = Type4Configuration.ndefApplicationNameV2
            app.keyCount |= 0x20
            for i in app.files.indices where app.files[i].number <= 2 {
                app.files[i].isoFileID = app.files[i].number == 1 ? Type4Configuration.ccFileID : 0xE104
            }
        }
        // The file stores key versions, not keys: as many zero keys as the key count byte says.
        app.keys = DESFireApplication(aid: app.aid, keyCount: app.keyCount).keys
        return app
    }
}
