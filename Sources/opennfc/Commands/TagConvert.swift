import OpenNFCSimulation

extension Commands {
    static let tagConvert = Command(
        name: "convert",
        abstract: "Convert a tag file between formats, by extension (.json, .nfc, .ndef).",
        discussion: """
            .json and .nfc keep the whole chip state; converting to .ndef keeps only the NDEF message; a .ndef input \
            becomes a factory chip (--chip, default ntag215) holding the message. MIFARE Classic also converts to and \
            from Proxmark3 dumps: .eml, .bin, .mfd, and .json with FileType mfcard (read by content; written with \
            --proxmark).
            """,
        arguments: [
            .init(name: "in", help: "Input tag file."),
            .init(name: "out", help: "Output tag file, written atomically."),
        ],
        options: [
            .init(name: "chip", value: "<chip>", help: "Chip a .ndef input is loaded into (default ntag215)."),
            .init(
                name: "proxmark",
                help: "MIFARE Classic: write a .json output as a Proxmark3 dump (FileType mfcard), not a tag file."),
        ],
        run: { inv in
            let output = inv.positionals[1]
            guard TagFile.Format(path: output) != nil else {
                throw CLIError.usage("\(output): use a .json, .nfc or .ndef file name")
            }
            let tag = try TagCLI.load(inv.positionals[0], ndefChip: inv.value("chip") ?? "ntag215")
            if inv.flag("proxmark") {
                guard TagFile.Format(path: output) == .json else {
                    throw CLIError.usage("--proxmark writes a .json file, not '\(output)'")
                }
                do throws(TagFileError) {
                    try TagFile.writeAtomically(Array(try ProxmarkDumpFile.encodeJSON(tag).utf8), to: output)
                } catch {
                    throw CLIError.failure(error.inFile(output).description)
                }
                TagCLI.warnLosses(tag, output, proxmark: true)
                return 0
            }
            try TagCLI.save(tag, to: output)
            return 0
        }
    )
}
