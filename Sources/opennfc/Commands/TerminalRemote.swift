import OpenNFCBytes
import OpenNFCHTTP
import OpenNFCRemote
import OpenNFCSystem

/// One exchange of `opennfc terminal` printed as `<command> -> <answer>  # meaning`, and checked against the
/// script's expected answer.
enum TerminalReport {
    static func print(_ step: TerminalScript.Step, _ answer: [UInt8], script: String?) throws {
        let meaning = FrameDecoder.describe(response: .frame(answer), to: step.command, mode: .isoDEP)
        let note = [step.comment.isEmpty ? nil : step.comment, meaning].compactMap { $0 }.joined(separator: "; ")
        Console.out("\(step.command.hexString) -> \(answer.hexString)\(note.isEmpty ? "" : "  # \(note)")\n")
        if let e = step.expected, e != answer {
            throw CLIError.failure(
                "\(script ?? "script"):\(step.line): expected \(e.hexString), received \(answer.hexString)")
        }
    }
}

/// `opennfc terminal --device remote:…`: the terminal of the field (`opennfc field serve`), through the page's
/// `POST /api/terminal` (docs/FIELD.md): its field reaches the phone, each APDU goes to the app's `CardSession`
/// with the phone's routing, and the field goes away at the end, as when a phone is taken off a terminal.
enum RemoteTerminal {
    static func run(_ argument: String, _ steps: [TerminalScript.Step], script: String?) throws -> Int32 {
        let address: LoopbackAddress
        do throws(DeviceConnectError) {
            address = try RemoteDeviceString.address(argument)
        } catch {
            throw CLIError.failure(error.message)
        }
        _ = try call(address, [("action", .string("field"))])
        defer { _ = try? call(address, [("action", .string("remove"))]) }
        for step in steps {
            let reply = try call(address, [("action", .string("send")), ("apdu", .string(step.command.hexString))])
            guard let text = reply["response"]?.stringValue, let answer = try? Hex.decode(text) else {
                throw CLIError.failure(
                    "the field answered \(step.command.hexString) without a response: \(reply.compact)")
            }
            try TerminalReport.print(step, answer, script: script)
        }
        return 0
    }

    /// One `POST /api/terminal`; a refusal (no app, a card not emulated, an app that did not answer) is an error
    /// with the field's reason.
    static func call(_ address: LoopbackAddress, _ body: [(String, JSONValue)]) throws -> JSONValue {
        let (status, text) = try FieldCLI.request(
            "POST", "/api/terminal", to: address, body, timeoutMilliseconds: 15_000)
        let reply = try? JSONValue(parsing: text)
        guard status == 200, let reply, reply["ok"]?.boolValue == true else {
            let reason = reply?["error"]?.stringValue ?? text
            throw CLIError.failure("the field's terminal at \(address): \(reason)")
        }
        return reply
    }
}
