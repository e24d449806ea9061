import OpenNFCBytes
import OpenNFCNDEF
import OpenNFCRF
import OpenNFCTags

extension Commands {
    static let read = Command(
        name: "read",
        abstract: "Read the NDEF message of the tag in the field.",
        discussion: """
            Prints the chip, the UID, the NDEF status and capacity, and the message decoded record by record.
            A tag without a valid message is an error (exit status 1) that says why: not formatted, empty, or torn.

            Examples:
              opennfc read --device sim:poster.json
              opennfc read --device pcsc --json
              opennfc read --raw --trace
            """,
        options: TagSession.options + [
            .init(name: "json", help: "Print JSON: chip, uid, status, capacity and \"ndef\": {raw, records}."),
            .init(name: "raw", help: "Print only the message bytes as hex."),
            ultralightCAuthOption,
        ],
        run: { inv in
            if inv.flag("json") && inv.flag("raw") { throw CLIError.usage("--json and --raw cannot be combined") }
            let key = try ultralightCKey(inv)
            return try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                try authenticateIfKeyGiven(key, tag)
                let result = try NDEFReading.read(tag)
                try session.release()
                if inv.flag("raw") {
                    Console.out(result.bytes.hexString + "\n")
                } else if inv.flag("json") {
                    Console.out(result.json(tag).pretty + "\n")
                } else {
                    Console.out(result.human(tag))
                }
                return 0
            }
        }
    )
}

/// What `read` (and the checks of `write` and `batch`) learn from a tag: detection, the message bytes and their
/// decoding, or a failure saying why there is no valid message.
struct NDEFReading {
    var detection: NDEFDetection
    var bytes: [UInt8]
    var message: NDEFMessage

    /// Detects and reads; throws a one-line failure for a tag without a valid message.
    static func read(_ tag: ConnectedTag) throws -> NDEFReading {
        let procedure = try tag.ndef()
        let detection = try tagStep("detect NDEF", naks: tag.nakMeaning) { () throws(TagError) in try procedure.detect()
        }
        if detection.status == .notSupported {
            throw CLIError.failure(
                "the tag (\(tag.chip), UID \(tag.uid)) is not NDEF formatted: \(detection.reason ?? "no NDEF data")"
                    + "; 'opennfc format' prepares it")
        }
        let bytes = try tagStep("read the NDEF message", naks: tag.nakMeaning) { () throws(TagError) in
            try procedure.readMessage()
        }
        if bytes.isEmpty {
            throw CLIError.failure(
                "the tag (\(tag.chip), UID \(tag.uid)) holds no NDEF message: it is formatted but empty")
        }
        do {
            let message = try NDEFMessage(decoding: bytes)
            return NDEFReading(detection: detection, bytes: bytes, message: message)
        } catch {
            throw CLIError.failure(
                "the tag's NDEF message (\(bytes.count) bytes) is not valid: \(error); it may be torn — "
                    + "'opennfc write' replaces it")
        }
    }

    var statusText: String {
        switch detection.status {
        case .readWrite: return "read/write"
        case .readOnly: return "read-only"
        case .notSupported: return "not supported"
        }
    }

    func human(_ tag: ConnectedTag) -> String {
        var s = "Tag:      \(tag.chip), UID \(tag.uid)\n"
        s += "NDEF:     \(statusText), capacity \(detection.capacity) bytes, message \(bytes.count) bytes\n"
        for line in message.listing() { s += line + "\n" }
        return s
    }

    func json(_ tag: ConnectedTag) -> JSONValue {
        let records = message.jsonValue()["records"] ?? .array([])
        var o: [(String, JSONValue)] = [("chip", .string(tag.chip)), ("uid", .string(tag.uid))]
        o.append(contentsOf: TagJSON.activation(tag.target))
        o.append(("status", .string(detection.status.rawValue)))
        o.append(("capacity", .int(detection.capacity)))
        o.append(("ndef", .object([("raw", .string(bytes.hexString)), ("records", records)])))
        return .object(o)
    }
}

/// JSON fragments shared by the tag commands.
enum TagJSON {
    /// `atqa`, `sak` and `ats` as hex, when the activation reported them.
    static func activation(_ t: RFTarget) -> [(String, JSONValue)] {
        var o: [(String, JSONValue)] = []
        if let a = t.sensRes { o.append(("atqa", .string(Hex.encode([UInt8(a >> 8), UInt8(a & 0xFF)])))) }
        if let k = t.selRes { o.append(("sak", .string(Hex.encode([k])))) }
        if let ats = t.ats { o.append(("ats", .string(ats.hexString))) }
        return o
    }
}
