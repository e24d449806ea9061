package import OpenNFCBytes

/// The decoded view of a DESFire EV1 for `opennfc tag show`: version, applications, files and their access rights.
extension DESFireEV1Tag {
    static func rightsText(_ r: UInt16) -> String {
        func nibble(_ n: UInt16) -> String { n == 0xE ? "free" : n == 0xF ? "never" : "key \(n)" }
        return "read \(nibble(r >> 12 & 0xF)), write \(nibble(r >> 8 & 0xF)), read&write \(nibble(r >> 4 & 0xF)), "
            + "change \(nibble(r & 0xF))"
    }

    /// A file's type in words: "standard data, 32 bytes", "value 130 (0…1000)", "linear records, 2 of 3 × 16 bytes".
    static func kindText(_ f: DESFireFile) -> String {
        switch f.kind {
        case .standard: return "standard data, \(f.contents.count) bytes"
        case .backup: return "backup data, \(f.contents.count) bytes"
        case .value(let lower, let upper, let limited, let free):
            var t = "value \(f.value) (\(lower)…\(upper))"
            if limited { t += ", limited credit \(f.limitedCreditValue)" }
            if free { t += ", free GetValue" }
            return t
        case .linearRecord(let size, let most), .cyclicRecord(let size, let most):
            let which = f.kind.typeByte == 0x04 ? "cyclic" : "linear"
            return "\(which) records, \(f.records.count) of \(most) × \(size) bytes"
        }
    }

    /// A file in the one memory map (``MemoryMap``): a data file's bytes by offset (4 hex digits), a record file's
    /// records by number, one record a line; empty for a value file (its value is on the file's line).
    static func memoryMap(_ f: DESFireFile, in app: DESFireApplication) -> MemoryMap {
        if case .linearRecord(let size, _) = f.kind { return recordMap(f.records, size: size) }
        if case .cyclicRecord(let size, _) = f.kind { return recordMap(f.records, size: size) }
        let cc = app.files.first { $0.isoFileID == Type4Configuration.ccFileID }?.contents
        return dataMap(f.contents, isoFileID: f.isoFileID, ccFile: cc)
    }

    /// A data file's bytes by offset; in the NFC Forum NDEF application (T4T 2.0 §5.1) the CC file and the NDEF file
    /// its CC names are annotated.
    package static func dataMap(_ bytes: [UInt8], isoFileID: UInt16?, ccFile: [UInt8]?) -> MemoryMap {
        var first = ""
        if isoFileID == Type4Configuration.ccFileID {
            first = "capability container (CC)"
        } else if let cc = ccFile, cc.count >= 11, let id = isoFileID, id == UInt16(cc[9]) << 8 | UInt16(cc[10]) {
            first = "NLEN (2 bytes), then the NDEF message"
        }
        return MemoryMap(
            bytes: bytes, width: 16, minimumDigits: 4, numbering: { $0 * 16 }, note: { $0 == 0 ? first : "" })
    }

    package static func recordMap(_ records: [[UInt8]], size: Int) -> MemoryMap {
        MemoryMap(
            rows: records.enumerated().map { .init(number: $0, bytes: $1, note: "record \($0)") },
            rowWidth: max(1, size))
    }

    static func aidText(_ aid: UInt32) -> String {
        Hex.encode([UInt8(aid >> 16 & 0xFF), UInt8(aid >> 8 & 0xFF), UInt8(aid & 0xFF)], separator: " ")
    }

    var report: TagReport {
        typealias F = ISODEPReportFormatting
        let v = version
        var lines: [String] = []
        let storage = v.hardware[5]
        let size = 1 << Int(storage >> 1)
        lines.append(
            "Product: MIFARE DESFire EV1, storage \(size) bytes\(storage & 1 == 1 ? "+" : ""), "
                + "hardware \(Hex.encode(v.hardware, separator: " ")), software \(Hex.encode(v.software, separator: " "))"
        )
        lines.append(
            "Production: batch \(Hex.encode(v.batch, separator: " ")), week \(Hex.encode([v.productionWeek])), "
                + "year \(Hex.encode([v.productionYear]))")
        if let ats = activation.ats { lines.append("ATS: \(F.ats(ats))") }
        lines.append("Applications: \(applications.count)")
        var appsJSON: [JSONValue] = []
        for app in applications {
            var text = "  Application \(Self.aidText(app.aid)): key settings \(Hex.encode([app.keySettings]))h, "
            let crypto = ["DES/3DES", "3K3DES", "AES", "RFU"][Int(app.keyCount >> 6)]
            text += "\(app.keyCount & 0x0F) key(s) \(crypto)" + (app.keyCount & 0x20 != 0 ? ", ISO file ids" : "")
            if let fid = app.isoFileID { text += ", ISO DF \(Hex.encode([UInt8(fid >> 8), UInt8(fid & 0xFF)]))" }
            if let name = app.dfName {
                text += ", DF name \(Hex.encode(name, separator: " "))"
                if name == Type4Configuration.ndefApplicationNameV2 { text += " (NFC Forum NDEF application)" }
            }
            lines.append(text)
            var filesJSON: [JSONValue] = []
            for f in app.files {
                var ftext = "    File \(f.number): \(Self.kindText(f))"
                if let fid = f.isoFileID { ftext += ", ISO \(Hex.encode([UInt8(fid >> 8), UInt8(fid & 0xFF)]))" }
                let comm =
                    f.communicationSettings == 0 ? "plain" : f.communicationSettings == 1 ? "MACed" : "enciphered"
                ftext += ", \(comm), \(Self.rightsText(f.accessRights))"
                lines.append(ftext)
                lines += Self.memoryMap(f, in: app).lines(indent: "      ")
                var fj: [(String, JSONValue)] = [("number", .int(Int(f.number)))]
                if let fid = f.isoFileID {
                    fj.append(("isoFileID", .string(Hex.encode([UInt8(fid >> 8), UInt8(fid & 0xFF)]))))
                }
                fj += [
                    ("communication", .string(comm)),
                    ("accessRights", .string(Hex.encode([UInt8(f.accessRights >> 8), UInt8(f.accessRights & 0xFF)]))),
                    ("size", .int(f.contents.count)),
                ]
                fj += Self.kindJSON(f).filter { $0.0 != "data" }
                filesJSON.append(.object(fj))
            }
            var aj: [(String, JSONValue)] = [
                ("aid", .string(Self.aidText(app.aid).filter { $0 != " " })),
                ("keySettings", .string(Hex.encode([app.keySettings]))),
                ("keyCount", .string(Hex.encode([app.keyCount]))),
            ]
            if let fid = app.isoFileID {
                aj.append(("isoFileID", .string(Hex.encode([UInt8(fid >> 8), UInt8(fid & 0xFF)]))))
            }
            if let name = app.dfName { aj.append(("dfName", .string(Hex.encode(name)))) }
            aj.append(("files", .array(filesJSON)))
            appsJSON.append(.object(aj))
        }
        let json: [(String, JSONValue)] = [
            ("product", .string("MIFARE DESFire EV1")), ("storageBytes", .int(size)),
            ("hardwareVersion", .string(Hex.encode(v.hardware))), ("softwareVersion", .string(Hex.encode(v.software))),
            ("applications", .array(appsJSON)),
        ]
        return TagReport(lines: lines, json: json, ndefAccess: ndefAccessText)
    }

    /// NDEF access through the ISO mapping: the NDEF application's CC write access byte and the NDEF file's rights.
    var ndefAccessText: String {
        guard let app = applications.first(where: { $0.dfName == Type4Configuration.ndefApplicationNameV2 }),
            let cc = app.files.first(where: { $0.isoFileID == Type4Configuration.ccFileID }), cc.contents.count >= 15
        else { return "not NDEF formatted" }
        let fid = UInt16(cc.contents[9]) << 8 | UInt16(cc.contents[10])
        guard let ndef = app.files.first(where: { $0.isoFileID == fid }) else { return "not NDEF formatted" }
        guard cc.contents[13] == 0x00, ndef.access(.read) == .free else { return "no read access" }
        return cc.contents[14] == 0x00 && ndef.access(.write) == .free ? "read/write" : "read-only"
    }
}
