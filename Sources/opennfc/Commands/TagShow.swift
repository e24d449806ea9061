import OpenNFCBytes
import OpenNFCNDEF
import OpenNFCSimulation

extension Commands {
    static let tagShow = Command(
        name: "show",
        abstract:
            "Show a tag file: UID, chip, memory map with CC, TLVs, lock and configuration pages, the NDEF message.",
        arguments: [.init(name: "file", help: "Tag file (.json, .nfc or .ndef).")],
        options: [
            .init(name: "json", help: "Print JSON instead of text."),
            .init(name: "chip", value: "<chip>", help: "Chip a .ndef file is loaded into (default ntag215)."),
        ],
        run: { inv in
            let path = inv.positionals[0]
            let tag = try TagCLI.load(path, ndefChip: inv.value("chip") ?? "ntag215")
            let a = tag.activation
            let chip = TagFile.chip(for: tag)
            let report = chip?.report?(tag)
            let message = TagFile.ndefMessage(of: tag)
            let access = report?.ndefAccess ?? (message == nil ? "unknown" : "read/write")
            let atqa = [UInt8((a.sensRes ?? 0) >> 8), UInt8((a.sensRes ?? 0) & 0xFF)]
            var decoded: NDEFMessage? = nil
            var decodeError: String? = nil
            if let message, !message.isEmpty {
                do {
                    decoded = try NDEFMessage(decoding: message, options: .lenient)
                } catch {
                    decodeError = "\(error)"
                }
            }
            if inv.flag("json") {
                var members: [(String, JSONValue)] = [
                    ("chip", .string(tag.chip)),
                    ("uid", .string(Hex.encode(a.uid))),
                    ("atqa", .string(Hex.encode(atqa))),
                    ("sak", .string(Hex.encode([a.selRes ?? 0]))),
                ]
                if let ats = a.ats { members.append(("ats", .string(Hex.encode(ats)))) }
                members += report?.json ?? []
                members.append(("ndefAccess", .string(access)))
                var ndef: [(String, JSONValue)] = []
                if let message {
                    ndef.append(("bytes", .string(Hex.encode(message))))
                    if let decoded { ndef.append(("records", .array(decoded.listing().map { .string($0) }))) }
                    if let decodeError { ndef.append(("error", .string(decodeError))) }
                }
                members.append(("ndef", message == nil ? .null : .object(ndef)))
                Console.out(JSONValue.object(members).pretty + "\n")
                return 0
            }
            var lines = [
                "Chip: \(tag.chip)",
                "UID: \(Hex.encode(a.uid, separator: " "))",
                "ATQA: \(Hex.encode(atqa, separator: " "))  SAK: \(Hex.encode([a.selRes ?? 0]))"
                    + (a.ats.map { "  ATS: \(Hex.encode($0, separator: " "))" } ?? ""),
            ]
            lines += report?.lines ?? []
            lines.append("NDEF access: \(access)")
            if let message, !message.isEmpty {
                lines.append("NDEF message: \(message.count) bytes")
                if let decoded { lines += decoded.listing().map { "  " + $0 } }
                if let decodeError { lines.append("  not a valid NDEF message: \(decodeError)") }
            } else {
                lines.append("NDEF message: none")
            }
            Console.out(lines.joined(separator: "\n") + "\n")
            return 0
        }
    )
}
