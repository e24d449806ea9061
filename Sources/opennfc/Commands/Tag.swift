import OpenNFCBytes
import OpenNFCSimulation

extension Commands {
    static let tag = Command(
        name: "tag",
        abstract: "Create, inspect, drive and convert virtual tag files.",
        discussion: """
            A tag file holds one virtual chip's complete state (docs/TAG-FILES.md). The format follows the \
            extension: .json (OpenCoreNFC tag file), .nfc (Flipper Zero dump: NTAG/Ultralight, MIFARE Classic, DESFire EV1, Type 4 as ISO14443-4A, FeliCa, ISO 15693) or .ndef (a \
            raw NDEF message, read as a factory NTAG215 holding it unless --chip says otherwise).
            """,
        subcommands: [tagNew, tagShow, tagSend, tagConvert]
    )
}

/// Shared helpers of the `tag` subcommands.
enum TagCLI {
    /// Reads a tag file, turning its error into `Error: <file>: <where>: <what>` (exit 1).
    static func load(_ path: String, ndefChip: String = "ntag215") throws(CLIError) -> any VirtualTag {
        do {
            return try TagFile.read(path: path, ndefChip: ndefChip)
        } catch {
            throw CLIError.failure(error.description)
        }
    }

    static func save(_ tag: any VirtualTag, to path: String) throws(CLIError) {
        do {
            try TagFile.write(tag, path: path)
            warnLosses(tag, path)
        } catch {
            throw CLIError.failure(error.description)
        }
    }

    /// One `Warning:` line on stderr for each thing the format of `path` (or a Proxmark3 `.json`, `proxmark`)
    /// cannot keep of `tag`: Flipper's losses, and each sector a Proxmark3 dump writes as zeros (an unknown key, a
    /// sector no key opened).
    static func warnLosses(_ tag: any VirtualTag, _ path: String, proxmark: Bool = false) {
        let format = TagFile.Format(path: path)
        var losses: [String] = []
        if format == .flipper, let loss = FlipperNFCFile.exportLoss(tag) { losses.append(loss) }
        if proxmark || format == .eml || format == .bin || format == .mfd {
            losses += ProxmarkDumpFile.exportLosses(tag)
        }
        for loss in losses { Console.err("Warning: \(path): \(loss).\n") }
    }

    /// The `--chip` value checked against the registry: a usage error for an unknown chip, a failure for a chip
    /// whose simulation is not registered yet.
    static func chip(_ name: String) throws(CLIError) -> TagFileChip {
        // Chip names are lower case; `NTAG215` as a datasheet prints it is the same chip.
        if let chip = TagFile.chip(named: name.lowercased()) { return chip }
        if let reason = TagFile.plannedChips[name.lowercased()] {
            throw CLIError.failure("chip '\(name)': \(reason)")
        }
        let names = TagFile.chips.map(\.name) + TagFile.plannedChips.keys.sorted()
        throw CLIError.usage(
            "unknown chip '\(name)'\(Suggestion.hint(for: name, among: names)) (choose from: "
                + names.joined(separator: ", ") + ")")
    }

    static var chipList: String {
        (TagFile.chips.map(\.name) + TagFile.plannedChips.keys.sorted()).joined(separator: "|")
    }
}
