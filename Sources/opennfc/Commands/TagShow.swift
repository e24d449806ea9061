import OpenNFCBytes
import OpenNFCNDEF
import OpenNFCRF
import OpenNFCSimulation

extension Commands {
    static let tagShow = Command(
        name: "show",
        abstract:
            "Show a tag file: UID, chip, the NDEF message, then the memory map with CC, TLVs, lock and configuration pages.",
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
                var members: [(String, JSONValue)] = [("chip", .string(tag.chip)), ("uid", .string(Hex.encode(a.uid)))]
                if case .nfcA = a.air {
                    members += [("atqa", .string(Hex.encode(atqa))), ("sak", .string(Hex.encode([a.selRes ?? 0])))]
                    if let ats = a.ats { members.append(("ats", .string(Hex.encode(ats)))) }
                } else {
                    // Only the technology's own identifiers (`opennfc info` names them the same way).
                    let reported = Set((report?.json ?? []).map(\.0))
                    members += TagInfo.identifiers(activation: a.air)
                        .filter { !["uid", "technology"].contains($0.key) && !reported.contains($0.key) }
                        .map { ($0.key, $0.json) }
                }
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
                TagShowIdentifiers.line(a.air, atqa: atqa),
            ]
            // The decoded message first, then what the chip's report says (the memory map last).
            lines.append("NDEF access: \(access)")
            if let message, !message.isEmpty {
                lines.append("NDEF message: \(message.count) bytes")
                if let decoded { lines += decoded.listing().map { "  " + $0 } }
                if let decodeError { lines.append("  not a valid NDEF message: \(decodeError)") }
            } else {
                lines.append("NDEF message: none")
            }
            lines += report?.lines ?? []
            Console.out(lines.joined(separator: "\n") + "\n")
            return 0
        }
    )
}

/// The identifier line of `tag show` under the UID: NFC-A's ATQA, SAK (and ATS); the other technologies their own
/// fields (NFC-B PUPI/ATQB, NFC-F IDm/PMm, NFC-V DSFID/AFI/IC maker), never an NFC-A ATQA of zeros.
enum TagShowIdentifiers {
    static func line(_ air: RFActivation, atqa: [UInt8]) -> String {
        if case .nfcA(let a) = air {
            return "ATQA: \(Hex.encode(atqa, separator: " "))  SAK: \(Hex.encode([a.selRes ?? 0]))"
                + (a.ats.map { "  ATS: \(Hex.encode($0, separator: " "))" } ?? "")
        }
        return TagInfo.identifiers(activation: air).filter { !["uid", "technology"].contains($0.key) }
            .map { "\($0.label): \($0.text)" }.joined(separator: "  ")
    }
}
