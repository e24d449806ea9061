import Foundation
import OpenNFCBytes
import OpenNFCNDEF

extension Commands {
    static let ndefDecode = Command(
        name: "decode",
        abstract: "Decode an NDEF message and list its records.",
        discussion: """
            Reads the message from <file>, from --hex, or from standard input (no <file>, or '-'): raw bytes, or hex
            text as 'ndef encode' prints it (told apart on their own: a message's first byte has its MB bit set, so it
            is never a hex digit; --binary reads the input as raw bytes whatever it holds).
            Prints one line per record and what it decodes to, or with --json one object:
              {"records":[{"tnf":1,"type":"55","id":"","payload":"0365…","uri":"http://…"}]}
            Invalid input exits 1 with 'Error: <rule> at byte <n>' on stderr and nothing on stdout.
            --lenient repairs what real tags get wrong and reports each repair on stderr.

            Examples:
              opennfc ndef decode --hex 'D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67'
              opennfc ndef decode tag.ndef --json
              opennfc ndef encode --uri https://example.com | opennfc ndef decode
              opennfc ndef encode --uri https://example.com --binary | opennfc ndef decode -
            """,
        arguments: [.init(name: "file", help: "A file with the raw message bytes ('-' for stdin).", optional: true)],
        options: [
            .init(name: "hex", value: "<hex>", help: "The message as hex (case-insensitive; spaces allowed)."),
            .init(name: "binary", help: "Read <file> or stdin as raw bytes even if they look like hex text."),
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
        } else {
            let input: [UInt8]
            let source: String
            if let path = inv.positionals.first, path != "-" {
                input = try InputFile.bytes(path, what: "NDEF file")
                source = "'\(path)'"
            } else {
                input = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
                source = "standard input"
            }
            bytes = inv.flag("binary") ? input : try NDEFInput.bytes(input, from: source)
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

/// The input of `ndef decode`: raw bytes, or the hex text `ndef encode` prints.
enum NDEFInput {
    /// `input` itself, or the bytes it spells when it is hex text (hex digits and white space only, at least one
    /// digit). A message's first byte has MB set (NFC Forum NDEF 1.0 §3.2.1), so raw bytes never look like that.
    static func bytes(_ input: [UInt8], from source: String) throws -> [UInt8] {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        func isHex(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x61...0x66).contains(b | 0x20) }
        guard input.contains(where: { !isSpace($0) }), input.allSatisfy({ isSpace($0) || isHex($0) }) else {
            return input
        }
        let text = String(decoding: input, as: UTF8.self)
        do {
            return try Hex.decode(text)
        } catch {
            throw CLIError.failure("\(source) looks like hex text but is not: \(error)")
        }
    }
}
