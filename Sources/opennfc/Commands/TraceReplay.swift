import OpenNFCBytes
import OpenNFCRF
import OpenNFCRemote

extension Commands {
    static let traceReplay = Command(
        name: "replay",
        abstract: "Play a recording's reader side against a card and compare its answers (replay as a reader).",
        discussion: """
            The other half of replay: (replay:<file> plays a recording's card to a program). This plays the \
            recording's reader — every activation, MIFARE Classic authentication, frame and deactivation, in order \
            — against the tag on --device (a sim: tag file, a PC/SC reader, …) and compares each answer with the \
            recorded one. Polls are the device's own: its tag takes the recorded tag's place. One line per \
            exchange, '=' when the answer is the recorded one, '≠' with both when not; exit 0 when every answer \
            matched, 1 otherwise. The file: .json, .pcapng, or a Proxmark3 .trace with --protocol; enciphered \
            MIFARE Classic frames need their --key (docs/TRACES.md, "Replay as a reader").

            Examples:
              opennfc trace replay sniff.trace --protocol 14a --device sim:tag.json
              opennfc trace replay read.pcapng --device pcsc --trace
            """,
        arguments: [.init(name: "file", help: "A .json transcript, .pcapng capture or Proxmark3 .trace.")],
        options: TagSession.options + traceOptions,
        run: { inv in
            let path = inv.positionals[0]
            guard let format = TraceFormat(path: path) else {
                throw CLIError.usage("\(path): use a .json, .pcapng or .trace file")
            }
            if format != .trace, inv.value("protocol") != nil {
                throw CLIError.usage("--protocol is for a Proxmark3 .trace; \(path) says its own")
            }
            let p = try TraceCLI.protocolOption(inv)
            let keys = try TraceCLI.keys(inv)
            let transcript: RFTranscript
            do throws(AirTrace.Problem) {
                transcript = try TraceFile.readTranscript(path: path, format: format, protocol: p, keys: keys)
            } catch {
                throw CLIError.failure(error.description)
            }
            return try TagSession.run(inv) { session in
                var player = ReaderReplay(frontend: session.frontend)
                guard let found = try session.waitForTarget() else { throw CLIError.failure(session.noTagMessage) }
                player.found = found
                for event in transcript.events { player.play(event.operation) }
                try session.release()
                var out = player.lines.joined(separator: "\n") + (player.lines.isEmpty ? "" : "\n")
                out +=
                    "\(player.compared) answers compared, \(player.differing) differ"
                    + (player.differing == 0 ? ": the card answers as recorded.\n" : ".\n")
                Console.out(out)
                return player.differing == 0 ? 0 : 1
            }
        }
    )
}

/// Plays the reader's operations of a transcript on a frontend and compares what comes back with what was recorded.
struct ReaderReplay {
    let frontend: any RFFrontend
    /// The tag the device found, which takes the recorded tag's place.
    var found: RFTarget?
    var lines: [String] = []
    var compared = 0
    var differing = 0
    /// False after an activation failed: the operations up to the next activation are skipped.
    var active = false

    init(frontend: any RFFrontend) { self.frontend = frontend }

    mutating func note(_ same: Bool, _ what: String, recorded: String, got: String) {
        compared += 1
        if same {
            lines.append("= \(what): \(got)")
        } else {
            differing += 1
            lines.append("≠ \(what): recorded \(recorded), the card \(got)")
        }
    }

    static func describe(_ r: Result<RFResponse, RFError>) -> String {
        switch r {
        case .success(.frame(let b)): return b.isEmpty ? "(empty)" : b.hexString
        case .success(.ack): return "ACK"
        case .success(.nak(let n)): return "NAK \(n)"
        case .failure(let e): return "error: \(e.code.rawValue)"
        }
    }

    static func describe(_ t: RFTarget) -> String {
        switch t.activation {
        case .nfcA(let a):
            return "NFC-A UID \(a.uid.hexString)" + (a.selRes.map { " SAK \(Hex.encode([$0]))" } ?? "")
                + (a.ats.map { " ATS \($0.hexString)" } ?? "")
        case .nfcB(let b): return "NFC-B ATQB \(b.atqb.hexString)"
        case .nfcF(let f): return "NFC-F IDm \(f.idm.hexString)"
        case .nfcV(let v): return "NFC-V UID \(v.uid.hexString)"
        }
    }

    mutating func play(_ op: RFTranscript.Operation) {
        switch op {
        case .poll:
            // The device found its tag itself (TagSession.waitForTarget); a recorded poll has nothing to send.
            break
        case .activate(_, let isoDEP, let recorded):
            guard let target = found else { return }
            let got: Result<RFTarget, RFError>
            do throws(RFError) {
                got = .success(try frontend.activate(target, isoDEP: isoDEP))
            } catch {
                got = .failure(error)
            }
            let r = (try? recorded.get()).map(Self.describe) ?? "no answer"
            let g = (try? got.get()).map(Self.describe) ?? "no answer"
            note(r == g, "activation", recorded: r, got: g)
            active = (try? got.get()) != nil
        case .authenticate(let a, let recordedError):
            guard active else { return }
            var error: RFError?
            do throws(RFError) { try frontend.authenticate(a) } catch let e { error = e }
            let r = recordedError.map { "failed (\($0.code.rawValue))" } ?? "authenticated"
            let g = error.map { "failed (\($0.code.rawValue))" } ?? "authenticated"
            guard case .mifareClassic(let block, let type, _) = a else { return }
            note(r == g, "authentication \(type == .a ? "A" : "B") block \(block)", recorded: r, got: g)
        case .exchange(let command, let recorded):
            guard active else { return }
            let got: Result<RFResponse, RFError>
            do throws(RFError) {
                got = .success(try frontend.exchange(command))
            } catch {
                got = .failure(error)
            }
            let r = Self.describe(recorded)
            let g = Self.describe(got)
            note(r == g, "> \(command.hexString)", recorded: r, got: g)
        case .deactivate:
            guard active else { return }
            frontend.deactivate()
            active = false
        }
    }
}
