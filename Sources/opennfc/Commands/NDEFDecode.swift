import Foundation
import OpenNFCBytes
import OpenNFCNDEF

extension Commands {
    static let ndefDecode = Command(
        name: "decode",
        abstract: "Decode an NDEF message and list its records.",
        discussion: """
            Reads the raw message bytes from <file>, from --hex, or from standard input (no <file>, or '-').
            Prints one line per record and what it decodes to, or with --json one object:
              {"records":[{"tnf":1,"type":"55","id":"","payload":"0365…","uri":"http://…"}]}
            Invalid input exits 1 with 'Error: <rule> at byte <n>' on stderr and nothing on stdout.
            --lenient repairs what real tags get wrong and reports each repair on stderr.

            Examples:
              opennfc ndef decode --hex 'D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67'
              opennfc ndef decode tag.ndef --json
              opennfc ndef encode --uri https://example.com | xxd -r -p | opennfc ndef decode
            """,
        arguments: [.init(name: "file", help: "A file with the raw message bytes ('-' for stdin).", optional: true)],
        options: [
            .init(name: "hex", value: "<hex>", help: "The message as hex (case-insensitive; spaces allowed)."),
            .init(name: "json", help: "Print the records as one JSON object."),
            .init(name: "lenient", help: "Repair common deviations instead of failing; report them on stderr."),
        ],
        run: runNDEFDecode
    )

    @Sendable static func runNDEFDecode(_ inv: Invocation) throws -> Int32 {
        let bytes: [UInt8]
        if let h = inv.value("hex") {
            guard inv.positionals.isEmpty else { throw CLIError.usage("give either --hex or <file>, not both") }
            bytes = try NDEFRecordFlags.hexValue(h, option: "hex")
        } else if let path = inv.positionals.first, path != "-" {
            bytes = try InputFile.bytes(path, what: "NDEF file")
        } else {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        let options: NDEFDecodingOptions = inv.flag("lenient") ? .lenient : .strict
        var repairs: [NDEFRepair] = []
        let output: String
        do {
            let message = try NDEFMessage(decoding: bytes, options: options, repairs: &repairs)
            if inv.flag("json") {
                output = try message.jsonValue(options: options, repairs: &repairs).compact + "\n"
            } else {
                output = try message.listing(options: options, repairs: &repairs).map { $0 + "\n" }.joined()
            }
        } catch {
            throw CLIError.failure(error.description)
        }
        for r in repairs { Console.err("Warning: repaired \(r)\n") }
        Console.out(output)
        return 0
    }
}
