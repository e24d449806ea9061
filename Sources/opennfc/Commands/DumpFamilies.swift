import OpenNFCBytes
import OpenNFCSimulation

/// The per-family half of `opennfc dump` and `opennfc restore`: one entry per tag family, the one list these two
/// commands dispatch through (docs/ADDING-A-TAG-FAMILY.md). A family adds its `Dump+<Family>.swift` file, which
/// defines its entry (`MIFAREPlusDumpCommand.family`; the older families' entries are below), and one line to
/// ``all``; `dump` walks the entries in order (DESFire before Type 4, as identification does) and
/// `restore` picks the entry whose tag-file section the loaded dump has.
struct DumpFamily: Sendable {
    /// The family's section in tag files (``TagFileChip/section``): `type2`, `iso7816`, `desfire`.
    let section: String
    /// Whether `--password` (Type 2 PWD_AUTH) applies to this family.
    let takesPassword: Bool
    /// True when the tag in the field is one this entry dumps.
    let dumps: @Sendable (ConnectedTag) -> Bool
    /// Reads the tag, releases it, and prints or saves it.
    let dump: @Sendable (_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32
    /// Connects to the tag in the field and writes the loaded dump (a tag of this entry's section) to it.
    let restore:
        @Sendable (_ source: any VirtualTag, _ path: String, _ inv: Invocation, _ password: [UInt8]?) throws -> Int32
    /// What `opennfc info` prints of the chip (its family, its memory), when the family's entry says it; nil for the
    /// families whose lines are still in `Info.swift`'s own table.
    var info: (@Sendable (ConnectedTag) -> ChipInfo)? = nil

    /// `opennfc info`'s `Chip` and `Memory` lines.
    struct ChipInfo: Sendable {
        var chip: String
        var memory: (text: String, bytes: Int)?
    }

    /// A tag file whose section names this family but whose tag is of another type (a chip registration error).
    static func notOfSection(_ path: String) -> CLIError {
        CLIError.failure("'\(path)': the tag file's chip does not match its section; it cannot be restored")
    }

    /// Every family `dump` and `restore` handle, in the order `dump` tries them.
    static let all: [DumpFamily] = [
        .desfire, .type1, .type4, .type2, .type5, .type3, .type3Standard, .mifareClassic, MIFAREPlusDumpCommand.family,
    ]
}

/// What `dump` was asked for.
struct DumpRequest {
    var output: String?
    var json: Bool
    var password: [UInt8]?
    /// `--keys FILE`: MIFARE Classic, keys tried before the built-in ones; DESFire, `<aid> <key no> <cipher> <hex>`
    /// lines (docs/CLI.md).
    var keys: String? = nil
    /// `--key`: an Ultralight C's 3DES key, authenticated with before the first page and saved in the key pages.
    var ultralightCKey: [UInt8]? = nil
}

extension DumpFamily {
    static let desfire = DumpFamily(
        section: "desfire", takesPassword: false,
        dumps: { if case .desfire = $0.identified.kind { true } else { false } },
        dump: DESFireDump.dump,
        restore: { source, path, inv, _ in
            guard let s = source as? DESFireEV1Tag else { throw notOfSection(path) }
            return try DESFireDump.restore(s, path: path, inv)
        })

    static let type1 = DumpFamily(
        section: "type1", takesPassword: false,
        dumps: { if case .type1 = $0.identified.kind { true } else { false } },
        dump: { tag, session, request in
            try Type1Dump.dump(tag, session, output: request.output, json: request.json)
        },
        restore: { source, path, inv, _ in
            guard let s = source as? Type1Tag else { throw notOfSection(path) }
            return try Type1Dump.restore(s, path: path, inv)
        })

    static let type4 = DumpFamily(
        section: "iso7816", takesPassword: false,
        dumps: { if case .iso7816 = $0.identified.kind { true } else { false } },
        dump: Type4Dump.dump,
        restore: { source, path, inv, _ in
            guard let s = source as? Type4Tag else { throw notOfSection(path) }
            return try Type4Dump.restore(s, path: path, inv)
        })

    static let type2 = DumpFamily(
        section: "type2", takesPassword: true,
        dumps: { $0.type2Chip != nil },
        dump: Type2Dump.dump,
        restore: { source, path, inv, password in
            guard let s = source as? Type2Tag else { throw notOfSection(path) }
            return try Type2Dump.restore(s, path: path, inv, password: password)
        })
}

extension DumpFamily {
    static let type5 = DumpFamily(
        section: "type5", takesPassword: false,
        dumps: { if case .type5 = $0.identified.kind { true } else { false } },
        dump: Type5Dump.dump,
        restore: { source, path, inv, _ in
            guard let s = source as? ISO15693Tag else { throw notOfSection(path) }
            return try Type5Dump.restore(s, path: path, inv)
        })
}

extension DumpRequest {
    /// The end of every family's `dump`: the tag file written atomically to `output` (with the `saved` line on
    /// stderr: a message, not data), or the JSON tag file on stdout. Any failure becomes one `Error:` line.
    static func save(_ virtual: any VirtualTag, to output: String?, saved: (String) -> String) throws {
        do {
            if let output {
                try TagFile.write(virtual, path: output)
                Console.err(saved(output))
            } else {
                Console.out(DumpJSON.compactHex(try TagFile.encodeJSON(virtual)))
            }
        } catch {
            throw CLIError.failure("\(error)")
        }
    }
}

extension DumpFamily {
    /// Type 3: `dump` reads a FeliCa Lite-S or a FeliCa Standard (`Dump+Type3.swift`); `restore` takes a
    /// felica-lite-s dump (section `felica`) here and a felica-standard dump (`felicaStandard`) in the next entry.
    static let type3 = DumpFamily(
        section: "felica", takesPassword: false,
        dumps: { if case .type3 = $0.identified.kind { true } else { false } },
        dump: Type3Dump.dump,
        restore: { source, path, inv, _ in
            guard let s = source as? FeliCaLiteSTag else { throw notOfSection(path) }
            return try Type3Dump.restoreLiteS(s, path: path, inv)
        })

    static let type3Standard = DumpFamily(
        section: "felicaStandard", takesPassword: false, dumps: { _ in false }, dump: Type3Dump.dump,
        restore: { source, path, inv, _ in
            guard let s = source as? FeliCaStandardTag else { throw notOfSection(path) }
            return try Type3Dump.restoreStandard(s, path: path, inv)
        })
}

extension DumpFamily {
    static let mifareClassic = DumpFamily(
        section: "mifareClassic", takesPassword: false,
        dumps: { if case .mifareClassic = $0.identified.kind { true } else { false } },
        dump: MifareClassicDumpCommand.dump,
        restore: { source, path, inv, _ in
            guard let s = source as? MifareClassicTag else { throw notOfSection(path) }
            return try MifareClassicDumpCommand.restore(s, path: path, inv)
        })
}

/// `dump --json`: the tag file's JSON with its hex strings written without spaces, as every `--json` of the CLI writes
/// hex (docs/CLI.md, "Conventions"); the tag file loader reads both forms.
enum DumpJSON {
    static func compactHex(_ text: String) -> String {
        guard let value = try? JSONValue(parsing: text) else { return text }
        return compact(value).pretty + "\n"
    }

    static func compact(_ v: JSONValue) -> JSONValue {
        switch v {
        case .string(let s) where isSpacedHex(s): return .string(s.replacingOccurrences(of: " ", with: ""))
        case .array(let a): return .array(a.map(compact))
        case .object(let o): return .object(o.map { ($0.0, compact($0.1)) })
        default: return v
        }
    }

    /// "04 A1 B2": pairs of hex digits (or `??`, an unknown byte) separated by single spaces.
    static func isSpacedHex(_ s: String) -> Bool {
        let parts = s.split(separator: " ", omittingEmptySubsequences: false)
        return parts.count > 1
            && parts.allSatisfy { p in p.count == 2 && p.allSatisfy { $0.isHexDigit || $0 == "?" } }
    }
}
