import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCSystem
import OpenNFCTags

extension Commands {
    static let terminal = Command(
        name: "terminal",
        abstract:
            "Play a contactless terminal against an emulated card: SELECT an AID, send APDUs, print the exchange.",
        discussion: """
            The terminal side of card emulation (docs/CARD-EMULATION.md): an app's CardSession presented to pcscd
            with OPENCORENFC_DEVICE=vpcd: (use --device pcsc here), an app on the field with
            OPENCORENFC_DEVICE=remote: (use --device remote: here: the field page's terminal), or any ISO-DEP card
            or virtual Type 4 tag. The
            command activates the card, selects --aid when given, then sends the APDUs given as arguments or read
            from --script (one '<command hex> [-> <expected answer hex>]  # comment' per line, the project's
            transcript grammar). Prints one '<command> -> <answer>  # meaning' line per exchange; an answer that
            differs from the script's expected one is an error (exit 1) naming the script's line.

            Examples:
              opennfc terminal --device pcsc --aid F04C4F59414C 80CA000000
              opennfc terminal --device remote:7071 --aid F04C4F59414C 80CA000000
              opennfc terminal --device sim:type4.json --aid D2760000850101 --script read-cc.txt
            """,
        arguments: [.init(name: "hex", help: "Command APDUs as hex, sent after the SELECT.", variadic: true)],
        options: TagSession.options + [
            .init(name: "aid", value: "<hex>", help: "SELECT this AID (by DF name) first."),
            .init(name: "script", value: "<file>", help: "Send the script's APDUs and check its expected answers."),
        ],
        run: { inv in
            var steps: [TerminalScript.Step] = []
            if let aid = inv.value("aid") {
                let b = try HexArgument.decode(aid, argument: "--aid")
                guard (5...16).contains(b.count) else {
                    throw CLIError.usage("--aid must be 5 to 16 bytes (ISO/IEC 7816-4 §8.2.1.2), not \(b.count)")
                }
                steps.append(
                    .init(
                        command: ISO7816Select.byName(b), expected: nil,
                        comment: "SELECT \(b.hexString)", line: 0))
            }
            if let path = inv.value("script") {
                let text = try InputFile.text(path, what: "script")
                do throws(TerminalScriptError) {
                    steps += try TerminalScript(parsing: text, source: path).steps
                } catch {
                    throw CLIError.failure(error.description)
                }
            }
            for (i, text) in inv.positionals.enumerated() {
                let b = try HexArgument.decode(text, argument: "APDU \(i + 1)")
                guard b.count >= 4 else { throw CLIError.usage("APDU \(i + 1) has fewer than 4 bytes (CLA INS P1 P2)") }
                steps.append(.init(command: b, expected: nil, comment: "", line: 0))
            }
            guard !steps.isEmpty else { throw CLIError.usage("nothing to send: give --aid, --script or APDUs") }
            if let device = inv.value("device"), device.lowercased().hasPrefix("remote:") {
                return try RemoteTerminal.run(String(device.dropFirst(7)), steps, script: inv.value("script"))
            }
            return try TagSession.run(inv) { session in
                let target = try session.connect()
                guard target.isISODEP else {
                    throw CLIError.failure("the card in the field is not an ISO-DEP card; a terminal talks APDUs")
                }
                for step in steps {
                    let answer: [UInt8]
                    do throws(RFError) {
                        switch try session.frontend.exchange(step.command) {
                        case .frame(let b): answer = b
                        case .ack, .nak: answer = []
                        }
                    } catch {
                        Console.out("\(step.command.hexString) -> TIMEOUT\n")
                        throw CLIError.failure("the card did not answer \(step.command.hexString) (\(error))")
                    }
                    try TerminalReport.print(step, answer, script: inv.value("script"))
                }
                try session.release()
                return 0
            }
        }
    )
}
