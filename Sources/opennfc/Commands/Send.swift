import OpenNFCBytes
import OpenNFCRF

extension Commands {
    static let send = Command(
        name: "send",
        abstract: "Send raw frames or APDUs to the tag in the field and show the answers.",
        discussion: """
            Activates the tag and sends each frame in order: frames without CRC for Type 2 tags, APDUs or DESFire
            native commands for ISO-DEP tags. Prints one line per frame: the answer as hex, 'NAK <n>' or
            'TIMEOUT', followed by '# <meaning>' where the answer is known (status words, NAK codes, GET_VERSION).
            A tag that answered NAK stays mute until it is activated again, as real chips do.

            Examples:
              opennfc send 60 3004 --device sim:tag.json
              opennfc send 00A4040007D276000085010100 00A4000C02E103 00B000000F --device pcsc
            """,
        arguments: [.init(name: "hex", help: "Frames or APDUs as hex, one per argument.", variadic: true)],
        options: TagSession.options + [.init(name: "json", help: "Print the exchanges as JSON.")],
        run: { inv in
            guard !inv.positionals.isEmpty else { throw CLIError.usage("missing expected argument '<hex>'") }
            var frames: [[UInt8]] = []
            for (i, text) in inv.positionals.enumerated() {
                let b = try HexArgument.decode(text, argument: "frame \(i + 1)")
                guard !b.isEmpty else { throw CLIError.usage("frame \(i + 1) is empty") }
                frames.append(b)
            }
            return try TagSession.run(inv) { session in
                let target = try session.connect()
                var exchanges: [JSONValue] = []
                for f in frames {
                    var o: [(String, JSONValue)] = [("command", .string(f.hexString))]
                    let line: String
                    let meaning: String?
                    do throws(RFError) {
                        let r = try session.frontend.exchange(f)
                        meaning = FrameDecoder.describe(response: r, to: f, mode: FrameDecoder.mode(target))
                        switch r {
                        case .frame(let b):
                            line = b.hexString
                            o.append(("response", .string(b.hexString)))
                        case .ack:
                            line = "0A"
                            o.append(("response", .string("0A")))
                        case .nak(let n):
                            line = "NAK \(n)"
                            o.append(("nak", .int(Int(n))))
                        }
                    } catch {
                        // Only a silent tag is a timeout; a frame or answer the reader cannot carry says so.
                        line = error.code == .frameTooLong ? "ERROR" : "TIMEOUT"
                        meaning = error.code == .timeout ? nil : error.description
                        o.append(
                            error.code == .frameTooLong ? ("error", .string(error.detail)) : ("timeout", .bool(true)))
                        if error.code == .linkLost || error.code == .frontendFailure {
                            throw CLIError.failure("the tag is gone (\(error)); the remaining frames were not sent")
                        }
                    }
                    if let meaning { o.append(("meaning", .string(meaning))) }
                    exchanges.append(.object(o))
                    if !inv.flag("json") { Console.out(meaning.map { "\(line)  # \($0)\n" } ?? "\(line)\n") }
                }
                try session.release()
                if inv.flag("json") {
                    var o: [(String, JSONValue)] = [("uid", .string(target.identifier.hexString))]
                    o.append(contentsOf: TagJSON.activation(target))
                    o.append(("exchanges", .array(exchanges)))
                    Console.out(JSONValue.object(o).pretty + "\n")
                }
                return 0
            }
        }
    )
}
