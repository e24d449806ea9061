import OpenNFCBytes
import OpenNFCSimulation

extension Commands {
    static let tagSend = Command(
        name: "send",
        abstract: "Activate a virtual tag and send it frames; print exactly one answer line per frame.",
        discussion: """
            Frames are hex: raw frames without CRC for Type 2 chips (30 04 = READ page 4), the bytes an ISO-DEP block \
            carries for ISO-DEP chips (an APDU, or a DESFire native command such as 60). Each answer is printed as \
            hex, ACK, NAK <n> or TIMEOUT. With - in place of the frames, one frame per stdin line is answered at \
            once; the line ACTIVATE re-activates the tag (answer: UID <hex> ATQA <hex> SAK <hex>), REMOVE takes it \
            out of the field (answer: REMOVED), anything unreadable answers ERROR <reason>. The exit status is 0 \
            whatever the tag answered; --save writes the tag's state back to the file.
            """,
        arguments: [
            .init(name: "file", help: "Tag file (.json, .nfc or .ndef)."),
            .init(name: "hex", help: "Frames in hex, or - to read them from stdin.", variadic: true),
        ],
        options: [
            .init(name: "save", help: "Write the tag's state back to the file afterwards."),
            .init(name: "chip", value: "<chip>", help: "Chip a .ndef file is loaded into (default ntag215)."),
        ],
        run: { inv in
            let path = inv.positionals[0]
            let frames = Array(inv.positionals.dropFirst())
            guard !frames.isEmpty else { throw CLIError.usage("missing expected argument '<hex>'") }
            let fromStdin = frames == ["-"]
            var parsed: [[UInt8]] = []
            if !fromStdin {
                for (i, f) in frames.enumerated() {
                    do {
                        parsed.append(try Hex.decode(f))
                    } catch {
                        throw CLIError.usage("frame \(i + 1) '\(f)': \(error)")
                    }
                    if parsed.last!.isEmpty { throw CLIError.usage("frame \(i + 1) is empty") }
                }
            }
            let tag = try TagCLI.load(path, ndefChip: inv.value("chip") ?? "ntag215")
            let session = TagLineSession(tag: tag)
            session.activate()
            if fromStdin {
                while let line = readLine(strippingNewline: true) {
                    Console.out(session.answer(line) + "\n")
                }
            } else {
                for frame in parsed {
                    Console.out(TagLineSession.describe(session.send(frame)) + "\n")
                }
            }
            if inv.flag("save") { try TagCLI.save(tag, to: path) }
            return 0
        }
    )
}
