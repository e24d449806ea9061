import OpenNFCBytes
import OpenNFCRF
import OpenNFCRemote

extension Commands {
    static let trace = Command(
        name: "trace",
        abstract: "Show and convert recordings: our transcripts (.json), pcapng captures, Proxmark3 traces.",
        discussion: """
            The formats follow the extension: .json (OpenCoreNFC transcript, written by --record), .pcapng \
            (link type 264, ISO 14443, for Wireshark and tshark) and .trace (the Proxmark3 client's binary trace, \
            which does not say its protocol: pass --protocol 14a|14b|15|felica to read one). docs/TRACES.md.
            """,
        subcommands: [traceShow, traceConvert, traceReplay]
    )

    static let traceOptions: [Command.Option] = [
        .init(
            name: "protocol", value: "<p>",
            help: "The protocol of a Proxmark3 .trace: 14a, 14b, 15 or felica (the file does not say)."),
        .init(
            name: "key", value: "<hex>",
            help: "A MIFARE Classic key (12 hex digits) to decipher authenticated frames with; repeatable.",
            repeatable: true),
    ]

    static let traceShow = Command(
        name: "show",
        abstract: "Print every frame on the air with its meaning.",
        discussion: """
            One line per frame or field event: the time in microseconds since the start, '>' for the reader's \
            frames and '<' for the card's, the bytes as they travelled (CRC included), then '#' and what the frame \
            is (WUPA, SELECT, I-block, …) and, for the frames of a command and its answer, the same names as \
            --trace gives them. MIFARE Classic's enciphered frames are shown enciphered unless a --key deciphers \
            their authentication; then the plain bytes follow. A transcript (.json) is shown as the frames its \
            reader would have put on the air.

            Examples:
              opennfc trace show read.pcapng
              opennfc trace show sniff.trace --protocol 14a --key FFFFFFFFFFFF
            """,
        arguments: [.init(name: "file", help: "A .json transcript, .pcapng capture or Proxmark3 .trace.")],
        options: traceOptions,
        run: { inv in
            let path = inv.positionals[0]
            let (air, _) = try TraceCLI.read(inv, path)
            let reading = air.reading(keys: try TraceCLI.keys(inv), device: path)
            var out = "# \(path): \(air.frames.filter(\.isFrame).count) frames, "
            out += air.protocols.map(\.rawValue).sorted().joined(separator: "+") + "\n"
            var byFrame: [Int: (command: [UInt8], result: Result<RFResponse, RFError>, isAnswer: Bool)] = [:]
            for (index, frames) in reading.exchangeFrames {
                guard case .exchange(let c, let r) = reading.transcript.events[index].operation else { continue }
                byFrame[frames.command] = (c, r, false)
                if let a = frames.answer { byFrame[a] = (c, r, true) }
            }
            var mode = RFFrameMode.nfcA
            for (k, f) in air.frames.enumerated() {
                if let t = reading.activations[k] { mode = FrameDecoder.mode(t) }
                let time = String(format: "%12.3f", Double(f.time) / 1_000)
                var line: String
                switch f.event {
                case .fieldOn, .fieldOff: line = "\(time)  *"
                case .reader: line = "\(time)  > \(f.bytes.hexString)"
                case .tag: line = "\(time)  < \(f.bytes.hexString)"
                }
                if let b = f.lastBits { line += " (\(b) bits)" }
                var notes = [reading.labels[k]].filter { !$0.isEmpty }
                if let x = byFrame[k] {
                    let meaning: String?
                    if x.isAnswer {
                        switch x.result {
                        case .success(let r): meaning = FrameDecoder.describe(response: r, to: x.command, mode: mode)
                        case .failure(let e): meaning = e.description
                        }
                    } else {
                        meaning = FrameDecoder.describe(command: x.command, mode: mode)
                        if case .failure(let e) = x.result, e.code == .timeout { notes.append("no answer") }
                    }
                    if let meaning { notes.append(meaning) }
                }
                out += notes.isEmpty ? line + "\n" : "\(line)  # \(notes.joined(separator: ": "))\n"
            }
            for p in reading.problems { out += "# \(p)\n" }
            Console.out(out)
            return 0
        }
    )

    static let traceConvert = Command(
        name: "convert",
        abstract: "Convert a recording between .json, .pcapng and Proxmark3 .trace, by extension.",
        discussion: """
            Frames, their directions and order are kept both ways between .pcapng and .trace (pcapng keeps a short \
            frame's bit count and MIFARE Classic's enciphered parity bits in each packet's comment). A .json \
            transcript becomes the frames its reader would have put on the air (docs/TRACES.md); a capture becomes \
            a transcript only when every frame reads (enciphered MIFARE Classic frames need their --key). \
            NFC-F and NFC-V cannot go to .pcapng (link type 264 is ISO 14443 only). Written atomically.

            Examples:
              opennfc trace convert read.json -o read.pcapng
              opennfc trace convert sniff.trace --protocol 14a -o sniff.pcapng
            """,
        arguments: [.init(name: "in", help: "The recording to read.")],
        options: traceOptions + [
            .init(name: "output", short: "o", value: "<file>", help: "Where to write (.json, .pcapng or .trace).")
        ],
        run: { inv in
            guard let output = inv.value("output") else { throw CLIError.usage("missing -o <file>") }
            guard let format = TraceFormat(path: output) else {
                throw CLIError.usage("\(output): use a .json, .pcapng or .trace file name")
            }
            let path = inv.positionals[0]
            let (air, inFormat) = try TraceCLI.read(inv, path)
            let p = try TraceCLI.protocolOption(inv)
            let keys = try TraceCLI.keys(inv)
            do throws(AirTrace.Problem) {
                let bytes: [UInt8]
                if format == .json && inFormat != .json {
                    let transcript = try TraceFile.readTranscript(
                        path: path, format: inFormat, protocol: p, keys: keys)
                    bytes = Array(transcript.text.utf8)
                } else if format == .json {
                    bytes = try FileBytes.read(path)
                } else {
                    bytes = try TraceFile.encode(air, format: format, protocol: p)
                }
                try TraceFile.write(bytes, to: output)
            } catch {
                throw CLIError.failure(error.description)
            }
            return 0
        }
    )
}

enum FileBytes {
    static func read(_ path: String) throws(AirTrace.Problem) -> [UInt8] {
        do {
            return try FileAccess.contents(of: path)
        } catch {
            throw AirTrace.Problem("\(path): cannot read: \(error.reason)")
        }
    }
}

/// What `trace show` and `trace convert` share.
enum TraceCLI {
    static func protocolOption(_ inv: Invocation) throws -> AirProtocol? {
        guard let name = inv.value("protocol") else { return nil }
        guard let p = AirProtocol(rawValue: name) else {
            throw CLIError.usage("--protocol '\(name)': expected \(AirProtocol.names)")
        }
        return p
    }

    static func keys(_ inv: Invocation) throws -> [[UInt8]] {
        try inv.values("key").map { text in
            let b = try HexArgument.decode(text, argument: "--key")
            guard b.count == 6 else { throw CLIError.usage("--key takes 6 bytes (12 hex digits), not \(b.count)") }
            return b
        }
    }

    /// The frames of a file of any of the three formats.
    static func read(_ inv: Invocation, _ path: String) throws -> (AirTrace, TraceFormat) {
        guard let format = TraceFormat(path: path) else {
            throw CLIError.usage("\(path): use a .json, .pcapng or .trace file")
        }
        if format != .trace, inv.value("protocol") != nil {
            throw CLIError.usage("--protocol is for a Proxmark3 .trace; \(path) says its own")
        }
        let p = try protocolOption(inv)
        do throws(AirTrace.Problem) {
            return (try TraceFile.readAir(path: path, format: format, protocol: p), format)
        } catch {
            throw CLIError.failure(error.description)
        }
    }
}
