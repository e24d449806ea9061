import OpenNFCBytes
import OpenNFCSimulation

/// The per-family half of `opennfc dump` and `opennfc restore`: one entry per tag family, the one list these two
/// commands and `opennfc info` dispatch through (docs/ADDING-A-TAG-FAMILY.md). A family adds its `Dump+<Family>.swift`
/// file, which defines its entry (`<Family>Dump.family`), and one entry to ``all``; `dump` walks the entries in order
/// (DESFire before Type 4, as identification does), `info` asks the first that dumps the tag for its chip and memory,
/// and `restore` picks the entry whose tag-file section the loaded dump has.
struct DumpFamily: Sendable {
    /// The family's section in tag files (``TagFileChip/section``).
    let section: String
    /// Whether `--password` applies to this family (its `restore` is given it).
    let takesPassword: Bool
    /// True when the tag in the field is one this entry dumps.
    let dumps: @Sendable (ConnectedTag) -> Bool
    /// Reads the tag, releases it, and prints or saves it.
    let dump: @Sendable (_ tag: ConnectedTag, _ session: TagSession, _ request: DumpRequest) throws -> Int32
    /// Connects to the tag in the field and writes the loaded dump (a tag of this entry's section) to it.
    let restore:
        @Sendable (_ source: any VirtualTag, _ path: String, _ inv: Invocation, _ password: [UInt8]?) throws -> Int32
    /// What `opennfc info` prints of the chip (its family, its memory); nil for an entry `info` never picks (its
    /// `dumps` is never true).
    var info: (@Sendable (ConnectedTag) -> ChipInfo)? = nil
    /// `opennfc info`'s lines of the family's own, printed after the NDEF lines (a password's state, the keys that
    /// open the sectors); nil when it has none.
    var infoFacts: (@Sendable (ConnectedTag) -> [TagInfo.Fact])? = nil

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
        DESFireDump.family, Type1Dump.family, Type4Dump.family, Type2Dump.family, Type5Dump.family, Type3Dump.family,
        Type3Dump.standardFamily, MifareClassicDumpCommand.family, MIFAREPlusDumpCommand.family,
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
