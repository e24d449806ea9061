import OpenNFCBytes
import OpenNFCTags

extension Commands {
    static let format = Command(
        name: "format",
        abstract: "NDEF-format a blank or torn tag (an empty NDEF message).",
        discussion: """
            Writes the capability container and an empty NDEF message as the chip's maker ships it (Type 2), or
            empties the NDEF file (Type 4). Any message on the tag is lost. A read-only tag is refused.

            Examples:
              opennfc format --device sim:blank.json
              opennfc format --device pcsc
            """,
        options: TagSession.options + [.init(name: "json", help: "Print the result as JSON.")],
        run: { inv in
            try TagSession.run(inv) { session in
                let tag = try session.connectTag()
                let procedure = try tag.ndef()
                do throws(TagError) {
                    // A torn TLV structure is repaired by the procedure itself.
                    try procedure.format()
                } catch {
                    throw CLIError.failure(TagErrorText.describe(error, doing: "format the tag"))
                }
                let fresh = try tag.ndef()
                let after = try tagStep("check the format") { () throws(TagError) in try fresh.detect() }
                try session.release()
                if inv.flag("json") {
                    Console.out(
                        JSONValue.object([
                            ("chip", .string(tag.chip)), ("uid", .string(tag.uid)),
                            ("status", .string(after.status.rawValue)), ("capacity", .int(after.capacity)),
                        ]).pretty + "\n")
                } else {
                    Console.out(
                        "Formatted \(tag.chip) \(tag.uid): empty NDEF message, capacity \(after.capacity) bytes.\n")
                }
                return 0
            }
        }
    )
}
