import Foundation
import OpenNFCBytes
import OpenNFCNDEF
import OpenNFCTags

extension Commands {
    static let write = Command(
        name: "write",
        abstract: "Write an NDEF message to the tag in the field.",
        discussion: """
            The message comes from the same record options as 'opennfc ndef encode' (in the order given), or from
            a raw message file with --ndef-file. The capacity is checked before the first write; the write is
            tear-safe (a tag pulled away at any moment reads as the old message, empty, or the new message) and
            verified by reading the message back.

            Examples:
              opennfc write --device sim:poster.json --uri https://example.com/exhibit/12
              opennfc write --text "Gate 4" --lang en --device pcsc
              opennfc write --ndef-file message.ndef --trace
            """,
        options: TagSession.options + NDEFRecordFlags.options + [
            .init(name: "ndef-file", value: "<file>", help: "Write this raw NDEF message file instead."),
            .init(name: "json", help: "Print the result as JSON."),
            ultralightCAuthOption,
        ],
        run: { inv in
            let message = try MessageInput.message(from: inv)
            let key = try ultralightCKey(inv)
            return try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                try authenticateIfKeyGiven(key, tag)
                let outcome = try NDEFWriting.write(message, to: tag)
                try session.release()
                if inv.flag("json") {
                    var o: [(String, JSONValue)] = [("chip", .string(tag.chip)), ("uid", .string(tag.uid))]
                    o.append(("written", .int(message.count)))
                    o.append(("capacity", .int(outcome.capacity)))
                    o.append(("verified", .bool(true)))
                    o.append(("raw", .string(message.hexString)))
                    Console.out(JSONValue.object(o).pretty + "\n")
                } else {
                    Console.out(
                        "Wrote \(message.count) bytes to \(tag.chip) \(tag.uid) (capacity \(outcome.capacity) bytes); "
                            + "read back and verified.\n")
                }
                return 0
            }
        }
    )
}

/// Where `write` gets its message: record options or `--ndef-file`, encoded and validated before any tag is touched.
enum MessageInput {
    static func message(from inv: Invocation) throws -> [UInt8] {
        let fromFlags = NDEFRecordFlags.hasRecords(inv) ? try NDEFRecordFlags.message(from: inv) : nil
        if let path = inv.value("ndef-file") {
            if fromFlags != nil {
                throw CLIError.usage("give either record options or --ndef-file, not both")
            }
            return try ndefFile(path)
        }
        guard let m = fromFlags else {
            throw CLIError.usage("nothing to write: give record options (such as --uri or --text) or --ndef-file")
        }
        return m
    }

    /// A raw NDEF message file, checked to be one valid message.
    static func ndefFile(_ path: String) throws -> [UInt8] {
        let bytes = try InputFile.bytes(path, what: "NDEF file")
        if bytes.isEmpty { throw CLIError.failure("the NDEF file '\(path)' is empty") }
        do {
            _ = try NDEFMessage(decoding: bytes)
        } catch {
            throw CLIError.failure("the NDEF file '\(path)' is not a valid NDEF message: \(error)")
        }
        return bytes
    }
}

/// The write-and-verify sequence shared by `write` and `batch write`.
enum NDEFWriting {
    struct Outcome {
        var capacity: Int
    }

    /// Writes tear-safely, then reads back with a fresh procedure and compares. Whether the message may be written
    /// (NDEF formatted, writable, not empty, fits) is the reader procedure's rule (`NDEFWriteRule`), checked before
    /// its first write; this only words its refusals for the terminal.
    static func write(_ message: [UInt8], to tag: ConnectedTag) throws -> Outcome {
        let procedure = try tag.ndef()
        let detection = try tagStep("detect NDEF", naks: tag.nakMeaning) { () throws(TagError) in try procedure.detect()
        }
        do {
            try procedure.writeMessage(message)
        } catch {
            switch error.code {
            case .notFormatted:
                throw CLIError.failure(
                    "the tag (\(tag.chip), UID \(tag.uid)) is not NDEF formatted: \(detection.reason ?? error.reason); "
                        + "'opennfc format' prepares it")
            case .readOnly:
                throw CLIError.failure("the tag (\(tag.chip), UID \(tag.uid)) is read-only: it cannot be written")
            case .capacityExceeded:
                throw CLIError.failure(
                    "the message of \(message.count) bytes does not fit: the tag (\(tag.chip)) holds at most "
                        + "\(detection.capacity) bytes")
            default:
                throw CLIError.failure(TagErrorText.describe(error, doing: "write the message", naks: tag.nakMeaning))
            }
        }
        let fresh = try tag.ndef()
        let back = try tagStep("read the message back", naks: tag.nakMeaning) { () throws(TagError) in
            try fresh.readMessage()
        }
        guard back == message else {
            throw CLIError.failure(
                "verification failed: the tag reads back \(back.count) bytes that differ from the \(message.count) "
                    + "bytes written")
        }
        return Outcome(capacity: detection.capacity)
    }
}
