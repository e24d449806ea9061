import OpenNFCSimulation

extension Commands {
    static let tagConvert = Command(
        name: "convert",
        abstract: "Convert a tag file between formats, by extension (.json, .nfc, .ndef).",
        discussion: """
            .json and .nfc keep the whole chip state; converting to .ndef keeps only the NDEF message; a .ndef input \
            becomes a factory chip (--chip, default ntag215) holding the message.
            """,
        arguments: [
            .init(name: "in", help: "Input tag file."),
            .init(name: "out", help: "Output tag file, written atomically."),
        ],
        options: [.init(name: "chip", value: "<chip>", help: "Chip a .ndef input is loaded into (default ntag215).")],
        run: { inv in
            let output = inv.positionals[1]
            guard TagFile.Format(path: output) != nil else {
                throw CLIError.usage("\(output): use a .json, .nfc or .ndef file name")
            }
            let tag = try TagCLI.load(inv.positionals[0], ndefChip: inv.value("chip") ?? "ntag215")
            try TagCLI.save(tag, to: output)
            return 0
        }
    )
}
