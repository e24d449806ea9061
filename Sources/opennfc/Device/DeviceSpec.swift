/// Where a command finds its tag: the one device syntax of every tag command (`--device`).
///
/// - `sim:<tagfile>` — the simulated field holding the tag stored in a tag file (.json, .nfc, .ndef); changes are
///   written back atomically, and a command that changes nothing leaves the file byte-for-byte untouched.
/// - `sim:<a.json>+<b.json>+…` — the tags presented one after another, each taken away once the command is done
///   with it (how batch runs are tested without hardware).
/// - `pcsc` — the only PC/SC reader (an error lists the readers when there are several).
/// - `pcsc:<reader>` — the PC/SC reader with that name (or a unique part of it).
///
/// Without `--device`, `$OPENNFC_DEVICE` is used, and without that the only PC/SC reader.
enum DeviceSpec: Equatable, Sendable, CustomStringConvertible {
    case sim([String])
    case pcsc(reader: String?)
    /// `remote:[<port>|127.0.0.1:<port>]`: the field of `opennfc field serve` (docs/FIELD.md).
    case remote(String)
    /// `replay:<file>`: a transcript recorded with `--record`.
    case replay(String)

    static let environmentVariable = "OPENNFC_DEVICE"

    /// Parses a `--device` value; usage errors say what is accepted.
    static func parse(_ text: String) throws -> DeviceSpec {
        if text == "pcsc" { return .pcsc(reader: nil) }
        if text.hasPrefix("pcsc:") {
            let name = String(text.dropFirst(5))
            guard !name.isEmpty else { throw CLIError.usage("--device pcsc: needs a reader name after the colon") }
            return .pcsc(reader: name)
        }
        if text.hasPrefix("sim:") {
            let files = text.dropFirst(4).split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            guard !files.isEmpty, !files.contains(where: \.isEmpty) else {
                throw CLIError.usage("--device sim: needs tag files, as in sim:tag.json or sim:a.json+b.json")
            }
            return .sim(files)
        }
        if text == "remote" || text.hasPrefix("remote:") { return .remote(String(text.dropFirst(7))) }
        if text.hasPrefix("replay:") {
            guard text.count > 7 else { throw CLIError.usage("--device replay: needs a transcript file") }
            return .replay(String(text.dropFirst(7)))
        }
        throw CLIError.usage(
            "unknown device '\(text)'; use sim:<tagfile>[+<tagfile>…], pcsc, pcsc:<reader>, remote:[<port>] or "
                + "replay:<file>")
    }

    var description: String {
        switch self {
        case .sim(let files): return "sim:" + files.joined(separator: "+")
        case .pcsc(let r): return r.map { "pcsc:\($0)" } ?? "pcsc"
        case .remote(let a): return "remote:" + a
        case .replay(let p): return "replay:" + p
        }
    }
}
