import OpenNFCBytes
import OpenNFCTags

/// `opennfc desfire create-file|value|record|list|format`: the EV1 file types and their transaction
/// (``DESFireSecureSession``). Each changing command commits its own transaction unless `--no-commit` (then the
/// change is dropped when the card leaves, as on the chip).
extension Commands {
    static let desfireFileCommands = [desfireCreateFile, desfireValue, desfireRecord, desfireList, desfireFormat]

    /// Runs `body` on a DESFire session (selected, authenticated when --key is given), mapping tag errors.
    static func withDESFire(
        _ inv: Invocation, doing what: String, _ body: (DESFireSecureSession, String) throws -> String
    ) throws -> Int32 {
        _ = try desfireKey(inv, "key", "cipher")
        return try TagSession.run(inv) { session in
            let (s, aid) = try desfireSession(session, inv)
            let text: String
            do {
                text = try body(s, aid)
            } catch let error as TagError {
                throw CLIError.failure(TagErrorText.describe(error, doing: what))
            }
            try session.release()
            Console.out(text)
            return 0
        }
    }

    /// The communication an access travels in: --comm, or what GetFileSettings says for these access nibbles.
    static func desfireMode(_ inv: Invocation, _ s: DESFireSecureSession, file: UInt8, _ nibbles: [Int])
        throws(TagError) -> (UInt8, DESFireFileSettings)
    {
        let settings = try s.fileSettings(file)
        switch inv.value("comm") {
        case "plain": return (0x00, settings)
        case "mac": return (0x01, settings)
        case "enc": return (0x03, settings)
        default: return (settings.communication(for: nibbles), settings)
        }
    }

    /// An AID as 6 hex digits, most significant first.
    static func desfireAID(_ aid: UInt32) -> String {
        Hex.encode([UInt8(aid >> 16 & 0xFF), UInt8(aid >> 8 & 0xFF), UInt8(aid & 0xFF)])
    }

    static func desfireFileNumber(_ inv: Invocation) throws -> UInt8 {
        let file = try inv.int("file", default: -1, range: -1...31)
        guard file >= 0 else { throw CLIError.usage("missing --file <n>") }
        return UInt8(file)
    }

    static func desfireHex(_ inv: Invocation, _ name: String) throws -> [UInt8]? {
        guard let text = inv.value(name) else { return nil }
        do {
            return try Hex.decode(text)
        } catch {
            throw CLIError.usage("--\(name) is not hex: \(error)")
        }
    }

    static func desfireInt32(_ inv: Invocation, _ name: String, default def: Int32) throws -> Int32 {
        guard let text = inv.value(name) else { return def }
        guard let v = Int32(text) else { throw CLIError.usage("--\(name) takes a signed 32-bit number, not '\(text)'") }
        return v
    }

    static let desfireCommOption = Command.Option(
        name: "comm", value: "<mode>", help: "plain, mac or enc (default: as GetFileSettings says).")
    static let desfireNoCommit = Command.Option(
        name: "no-commit", help: "Do not commit: the change is dropped when the card leaves.")

    static let desfireCreateFile = Command(
        name: "create-file",
        abstract: "Create a standard, backup, value, linear-record or cyclic-record file in an application.",
        discussion: """
            --access is the 16-bit access rights Read|Write|Read&Write|Change as 4 hex digits (E free, F never, \
            0-D a key; default EEEE). --iso-id for applications created with ISO file ids (not for value files).

            Examples:
              opennfc desfire create-file --app 000001 --file 5 --type value --lower 0 --upper 1000 --value 100 \\
                --limited-credit --device sim:card.json
              opennfc desfire create-file --app 000001 --file 6 --type cyclic-record --record-size 16 \\
                --max-records 10 --access 0000 --file-comm enc --device sim:card.json
            """,
        options: TagSession.options + desfireKeyOptions + [
            .init(name: "file", value: "<n>", help: "File number, 0-31."),
            .init(name: "type", value: "<type>", help: "standard, backup, value, linear-record or cyclic-record."),
            .init(name: "file-comm", value: "<mode>", help: "The file's communication: plain, mac or enc."),
            .init(name: "access", value: "<hex4>", help: "Access rights (default EEEE)."),
            .init(name: "iso-id", value: "<hex4>", help: "ISO file identifier."),
            .init(name: "size", value: "<n>", help: "Data file size in bytes."),
            .init(name: "lower", value: "<n>", help: "Value file lower limit (default 0)."),
            .init(name: "upper", value: "<n>", help: "Value file upper limit."),
            .init(name: "value", value: "<n>", help: "Value file initial value (default 0)."),
            .init(name: "limited-credit", help: "Enable LimitedCredit on the value file."),
            .init(name: "free-get-value", help: "GetValue without a key."),
            .init(name: "record-size", value: "<n>", help: "Record size in bytes."),
            .init(name: "max-records", value: "<n>", help: "Most records."),
        ],
        run: { inv in
            let file = try desfireFileNumber(inv)
            let comm: UInt8
            switch inv.value("file-comm") ?? "plain" {
            case "plain": comm = 0x00
            case "mac": comm = 0x01
            case "enc": comm = 0x03
            case let other: throw CLIError.usage("--file-comm must be plain, mac or enc, not '\(other)'")
            }
            let access = try desfireHex(inv, "access") ?? [0xEE, 0xEE]
            guard access.count == 2 else { throw CLIError.usage("--access takes 4 hex digits") }
            let iso = try desfireHex(inv, "iso-id")
            guard iso == nil || iso?.count == 2 else { throw CLIError.usage("--iso-id takes 4 hex digits") }
            let kind: DESFireFileSettings.Kind
            var value: Int32 = 0
            switch inv.value("type") ?? "" {
            case "standard", "backup":
                let size = try inv.int("size", default: -1, range: -1...0xFF_FFFF)
                guard size >= 0 else { throw CLIError.usage("missing --size <n>") }
                kind = inv.value("type") == "backup" ? .backup(size: size) : .standard(size: size)
            case "value":
                guard inv.value("upper") != nil else { throw CLIError.usage("missing --upper <n>") }
                let lower = try desfireInt32(inv, "lower", default: 0)
                let upper = try desfireInt32(inv, "upper", default: 0)
                value = try desfireInt32(inv, "value", default: max(lower, 0))
                guard lower <= upper, (lower...upper).contains(value) else {
                    throw CLIError.usage("--lower ≤ --value ≤ --upper, not \(lower), \(value), \(upper)")
                }
                kind = .value(
                    lower: lower, upper: upper, limitedCreditValue: 0, limitedCredit: inv.flag("limited-credit"),
                    freeGetValue: inv.flag("free-get-value"))
            case "linear-record", "cyclic-record":
                let size = try inv.int("record-size", default: 0, range: 0...0xFF_FFFF)
                let most = try inv.int("max-records", default: 0, range: 0...0xFF_FFFF)
                guard size > 0, most > 0 else { throw CLIError.usage("missing --record-size <n> or --max-records <n>") }
                kind =
                    inv.value("type") == "cyclic-record"
                    ? .cyclicRecord(recordSize: size, maxRecords: most, current: 0)
                    : .linearRecord(recordSize: size, maxRecords: most, current: 0)
            case let other:
                throw CLIError.usage(
                    "--type must be standard, backup, value, linear-record or cyclic-record, not '\(other)'")
            }
            return try withDESFire(inv, doing: "create file \(file)") { s, aid in
                try s.createFile(
                    file, kind: kind, communication: comm, accessRights: UInt16(access[0]) << 8 | UInt16(access[1]),
                    isoFileID: iso.map { UInt16($0[0]) << 8 | UInt16($0[1]) }, value: value)
                let settings = try s.fileSettings(file)
                return "Created \(settings.typeName) file \(file) in application \(aid).\n"
            }
        }
    )

    static let desfireValue = Command(
        name: "value",
        abstract: "Show a value file's value; --credit, --debit or --limited-credit change it (then commit).",
        discussion: """
            Examples:
              opennfc desfire value --app 000001 --file 5 --device sim:card.json
              opennfc desfire value --app 000001 --file 5 --key <hex> --debit 20 --device pcsc
            """,
        options: TagSession.options + desfireKeyOptions + [
            .init(name: "file", value: "<n>", help: "File number, 0-31."),
            .init(name: "credit", value: "<n>", help: "Add n (Read&Write key)."),
            .init(name: "debit", value: "<n>", help: "Take n away."),
            .init(name: "limited-credit", value: "<n>", help: "Add back up to the last debits."),
            desfireCommOption, desfireNoCommit,
        ],
        run: { inv in
            let file = try desfireFileNumber(inv)
            var change: (String, Int32)?
            for name in ["credit", "debit", "limited-credit"] where inv.value(name) != nil {
                guard change == nil else { throw CLIError.usage("give one of --credit, --debit, --limited-credit") }
                let amount = try desfireInt32(inv, name, default: 0)
                guard amount >= 0 else { throw CLIError.usage("--\(name) takes 0 or more") }
                change = (name, amount)
            }
            return try withDESFire(inv, doing: "use value file \(file)") { s, aid in
                guard let (name, amount) = change else {
                    let (mode, _) = try desfireMode(inv, s, file: file, DESFireFileSettings.getValueNibbles)
                    return "\(try s.getValue(file: file, communication: mode))\n"
                }
                let nibbles = name == "credit" ? [2] : name == "debit" ? [0, 1, 2] : [1, 2]
                let (mode, settings) = try desfireMode(inv, s, file: file, nibbles)
                switch name {
                case "credit": try s.credit(file: file, amount: amount, communication: mode)
                case "debit": try s.debit(file: file, amount: amount, communication: mode)
                default: try s.limitedCredit(file: file, amount: amount, communication: mode)
                }
                if inv.flag("no-commit") {
                    try s.abortTransaction()
                    return "\(name) \(amount) on file \(file) not committed (dropped).\n"
                }
                try s.commitTransaction()
                let readMode = settings.communication(for: DESFireFileSettings.getValueNibbles)
                let now = try s.getValue(file: file, communication: inv.value("comm") == nil ? readMode : mode)
                return "\(name) \(amount) on file \(file) of application \(aid) committed: value \(now).\n"
            }
        }
    )

    static let desfireRecord = Command(
        name: "record",
        abstract: "Read a record file's records (hex, oldest first); --write adds one, --clear empties it.",
        discussion: """
            Examples:
              opennfc desfire record --app 000001 --file 6 --device sim:card.json
              opennfc desfire record --app 000001 --file 6 --write 0102030405 --device sim:card.json
            """,
        options: TagSession.options + desfireKeyOptions + [
            .init(name: "file", value: "<n>", help: "File number, 0-31."),
            .init(name: "write", value: "<hex>", help: "Write a new record (at --offset within it)."),
            .init(name: "offset", value: "<n>", help: "Where in the record --write starts (default 0)."),
            .init(name: "clear", help: "Clear every record (Read&Write key)."),
            .init(name: "count", value: "<n>", help: "Read at most n records, newest back (default all)."),
            desfireCommOption, desfireNoCommit,
        ],
        run: { inv in
            let file = try desfireFileNumber(inv)
            let data = try desfireHex(inv, "write")
            if data?.isEmpty == true { throw CLIError.usage("--write is empty") }
            if data != nil && inv.flag("clear") { throw CLIError.usage("--write and --clear cannot be combined") }
            let offset = try inv.int("offset", default: 0, range: 0...0xFF_FFFF)
            let count = try inv.int("count", default: 0, range: 0...0xFF_FFFF)
            return try withDESFire(inv, doing: "use record file \(file)") { s, aid in
                if data != nil || inv.flag("clear") {
                    let (mode, _) = try desfireMode(inv, s, file: file, data != nil ? [1, 2] : [2])
                    if let data {
                        try s.writeRecord(file: file, offset: offset, data: data, communication: mode)
                    } else {
                        try s.clearRecordFile(file: file)
                    }
                    let what = data.map { "record of \($0.count) bytes" } ?? "clear"
                    if inv.flag("no-commit") {
                        try s.abortTransaction()
                        return "\(what) on file \(file) not committed (dropped).\n"
                    }
                    try s.commitTransaction()
                    return "\(what) on file \(file) of application \(aid) committed.\n"
                }
                let (mode, settings) = try desfireMode(inv, s, file: file, DESFireFileSettings.readNibbles)
                var size = 0
                var current = 0
                switch settings.kind {
                case .linearRecord(let r, _, let c), .cyclicRecord(let r, _, let c):
                    size = r
                    current = c
                default: throw TagError(.unsupported, "file \(file) is a \(settings.typeName) file, not a record file")
                }
                if current == 0 { return "" }
                let records = try s.readRecords(file: file, count: count, recordSize: size, communication: mode)
                return records.map { Hex.encode($0) + "\n" }.joined()
            }
        }
    )

    static let desfireList = Command(
        name: "list",
        abstract: "List the applications, or with --app the files of one with their settings.",
        discussion: """
            Examples:
              opennfc desfire list --device sim:card.json
              opennfc desfire list --app 000001 --device sim:card.json
            """,
        options: TagSession.options + desfireKeyOptions,
        run: { inv in
            try withDESFire(inv, doing: "list") { s, aid in
                if aid == "000000" {
                    let ids = try s.applicationIDs()
                    let (settings, count) = try s.keySettings()
                    var out = "PICC: key settings \(Hex.encode([settings])), \(count & 0x0F) key(s), "
                    out += "\(try s.freeMemory()) bytes free, \(ids.count) application(s)\n"
                    for id in ids { out += "Application \(desfireAID(id))\n" }
                    return out
                }
                let (settings, count) = try s.keySettings()
                var out = "Application \(aid): key settings \(Hex.encode([settings])), key count "
                out += "\(Hex.encode([count]))\n"
                for number in try s.fileIDs() {
                    let f = try s.fileSettings(number)
                    let comm = ["plain", "mac", "plain", "enc"][Int(f.communication & 3)]
                    out += "  File \(number): \(f.typeName), \(comm), access "
                    out += Hex.encode([UInt8(f.accessRights >> 8), UInt8(f.accessRights & 0xFF)])
                    switch f.kind {
                    case .standard(let size), .backup(let size): out += ", \(size) bytes"
                    case .value(let lower, let upper, let limit, let limited, let free):
                        out += ", limits \(lower)…\(upper)"
                        if limited { out += ", limited credit \(limit)" }
                        if free { out += ", free GetValue" }
                    case .linearRecord(let size, let most, let current), .cyclicRecord(let size, let most, let current):
                        out += ", \(current) of \(most) records × \(size) bytes"
                    }
                    out += "\n"
                }
                return out
            }
        }
    )

    static let desfireFormat = Command(
        name: "format",
        abstract: "FormatPICC: delete every application and file (refuses without --yes).",
        discussion: """
            Needs the PICC master key (--app 000000, the default).

            Examples:
              opennfc desfire format --key 0000000000000000 --cipher des --yes --device sim:card.json
            """,
        options: TagSession.options + desfireKeyOptions + [.init(name: "yes", help: "Really erase the card.")],
        run: { inv in
            guard try desfireKey(inv, "key", "cipher") != nil else {
                throw CLIError.usage("missing --key <hex> (the PICC master key)")
            }
            guard inv.flag("yes") else {
                throw CLIError.failure("FormatPICC erases every application and file for good; repeat with --yes")
            }
            return try withDESFire(inv, doing: "format the card") { s, aid in
                guard aid == "000000" else {
                    throw TagError(.unsupported, "FormatPICC runs at PICC level (--app 000000)")
                }
                try s.formatPICC()
                return "Formatted: every application and file erased.\n"
            }
        }
    )
}
