import Foundation
import OpenNFCBytes
import OpenNFCNDEF

extension Commands {
    static let ndefEncode = Command(
        name: "encode",
        abstract: "Build an NDEF message from record flags.",
        discussion: """
            Builds one message from the record flags, in the order given, and prints it as hex (--binary: the raw
            bytes), or writes the raw bytes to a file with -o (atomically; -o - is standard output). Either form
            pipes into 'opennfc ndef decode'. --lang, --data-hex and --title modify the record before
            them.

            Examples:
              opennfc ndef encode --uri https://example.com --text 'Hello' --lang en
              opennfc ndef encode --smart-poster https://example.com --title 'Example' --lang en -o poster.ndef
              opennfc ndef encode --mime text/plain --data-hex '68 69' --chunk-size 1
              opennfc ndef encode --raw 5::01:CAFE
            """,
        options: NDEFRecordFlags.options + [
            .init(name: "output", short: "o", value: "<file>", help: "Write the raw bytes to this file instead."),
            .init(name: "binary", help: "Print the raw bytes instead of hex."),
        ],
        run: runNDEFEncode
    )

    @Sendable static func runNDEFEncode(_ inv: Invocation) throws -> Int32 {
        let bytes = try NDEFRecordFlags.message(from: inv)
        if let path = inv.value("output") {
            try NDEFFiles.writeAtomically(bytes, to: path)
        } else if inv.flag("binary") {
            try NDEFFiles.writeAtomically(bytes, to: "-")
        } else {
            Console.out(bytes.hexString + "\n")
        }
        return 0
    }
}

/// File output for the NDEF commands.
enum NDEFFiles {
    /// Writes `bytes` to a temporary file in the same directory, then renames it over `path`.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try InputFile.write(bytes, to: path)
    }
}
