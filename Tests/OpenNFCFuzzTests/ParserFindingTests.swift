import OpenNFCBytes
import OpenNFCCLIKit
import OpenNFCHTTP
import OpenNFCRF
import OpenNFCRemote
import Testing

/// Findings of the `doctor`, `cli`, `field` and `transcript` targets (docs/RELIABILITY.md, "Findings"), each pinned
/// by a direct test beside the replay of its input (`Fuzz/Corpus/<target>/finding-*`, run by ``FuzzCorpusTests``).
@Suite struct ParserFindingTests {
    /// doctor: a single-line string left open at the end of its line counted that line break twice, so every
    /// finding after it was reported one line too far down.
    @Test func anUnterminatedStringDoesNotShiftTheLinesAfterIt() {
        let tokens = SourceTokenizer.tokenize("let a = \"open\nlet b = NFCTagReaderSession(\n")
        let b = tokens.first { $0.isIdentifier("b") }
        #expect(b?.line == 2)
        #expect(b?.column == 5)
        var facts = SourceFacts()
        SourceScanner(file: "A.swift", tokens: tokens).collect(into: &facts)
        #expect(facts.sessions.map(\.location.description) == ["A.swift:2"])
    }

    /// doctor: a `[` as the file's last token trapped reading it as a byte list (an empty range taken backwards).
    @Test func anOpenBracketAtTheEndOfAFileIsNoByteList() {
        let tokens = SourceTokenizer.tokenize("let apdu = [")
        var facts = SourceFacts()
        SourceScanner(file: "A.swift", tokens: tokens).collect(into: &facts)
        #expect(facts.selects.isEmpty)
        #expect(SourceScanner(file: "A.swift", tokens: tokens).integerList(at: tokens.count - 1) == nil)
    }

    /// doctor (fourth campaign): a string literal of spaces alone was read as hex of no bytes, so a SELECT whose data
    /// was `"  "` was reported with an empty AID; such a string is no byte value, and the SELECT's AID is unknown.
    @Test func aStringOfSpacesIsNoAID() {
        #expect(SourceScanner.hexBytes("   ") == nil)
        #expect(SourceScanner.hexBytes("A0 00") == [0xA0, 0x00])
        let source = """
            let apdu = NFCISO7816APDU(instructionClass: 0, instructionCode: 0xA4, p1Parameter: 4, p2Parameter: 0,
                                      data: "    ", expectedResponseLength: -1)
            """
        var facts = SourceFacts()
        SourceScanner(file: "A.swift", tokens: SourceTokenizer.tokenize(source)).collect(into: &facts)
        #expect(facts.selects.count == 1)
        #expect(facts.selects.first.map { $0.aid == nil } == true)
    }

    /// cli: a hex argument holding a non-ASCII character named a UTF-8 byte of it as a Latin-1 character
    /// (`'Ã'` for `é`); it now names the character itself, and invisible ones by code point.
    @Test func aHexErrorNamesTheCharacterAsTyped() {
        #expect(throws: CLIError.self) { try HexArgument.decode("04é1", argument: "--uid") }
        do {
            _ = try HexArgument.decode("04é1", argument: "--uid")
        } catch {
            guard case .usage(let message) = error else { return }
            #expect(message == "--uid '04é1' is not hex: invalid hex character 'é' at character 2")
        }
        #expect(throws: Hex.ParseError(reason: "invalid hex character U+0000", offset: 1)) {
            try Hex.decode("0\u{0}")
        }
        #expect(throws: Hex.ParseError(reason: "invalid hex character U+00A0", offset: 2)) {
            try Hex.decode("04\u{A0}A1")
        }
        #expect(throws: Hex.ParseError(reason: "invalid hex character '✓'", offset: 0)) { try Hex.decode("✓") }
    }

    /// transcript: a duration (`d`) the replay's clock cannot hold in nanoseconds (beyond 2^64 / 1000 µs) was read,
    /// and replaying it trapped multiplying; `t` and `d` are now bounded to 2^53 µs with the member named.
    @Test func aTranscriptDurationBeyondTheClockIsRefused() throws {
        func transcript(duration: UInt64) -> String {
            RFTranscript(
                device: "sim:x", capabilities: .simulatedIPhone,
                events: [
                    RFTranscript.Event(time: 0, duration: duration, operation: .exchange([0x30, 0x00], .success(.ack)))
                ]
            ).text
        }
        #expect(throws: RFWire.Problem("t.json: events[0].d", "\(1 << 60) is outside 0…\(1 << 53)")) {
            _ = try RFTranscript(parsing: transcript(duration: 1 << 60), file: "t.json")
        }
        let longest = try RFTranscript(parsing: transcript(duration: 1 << 53), file: "t.json")
        let clock = VirtualClock()
        let replay = ReplayFrontend(longest, clock: clock)
        #expect(try replay.exchange([0x30, 0x00]) == .ack)
        #expect(clock.now.nanoseconds == (1 << 53) * 1_000)
    }

    /// field: a response's status line took `+12` (and `-99`, `050`) as a status code, which re-serializes as
    /// two characters; RFC 9112 §4 wants three digits, RFC 9110 §15 a code from 100 to 599.
    @Test func aStatusCodeIsThreeDigitsFrom100To599() throws {
        for bad in ["+12", "-99", " 12", "1e2", "050", "000", "600"] {
            #expect(throws: HTTPError(400, "malformed status line")) {
                _ = try HTTPParser.responseHead(Array("HTTP/1.1 \(bad) OK\r\n".utf8))
            }
        }
        #expect(try HTTPParser.responseHead(Array("HTTP/1.1 204 No Content\r\n".utf8)).status == 204)
    }

    /// cli: a flag given twice (`--json --json`) parses, as the flag given once; only a valued option that is not
    /// repeatable is refused the second time (`--device a --device b`: which one was meant?). Decided, not a bug:
    /// the harness had wanted every non-repeatable option once.
    @Test func aFlagGivenTwiceIsTheFlagGivenOnce() throws {
        let command = Command(
            name: "cmd", abstract: "",
            options: [.init(name: "json", help: ""), .init(name: "device", value: "<device>", help: "")])
        let inv = try CLI.parse(["--json", "--json"], for: command, path: ["opennfc", "cmd"])
        #expect(inv.flag("json"))
        #expect(throws: CLIError.self) {
            _ = try CLI.parse(["--device", "a", "--device", "b"], for: command, path: ["opennfc", "cmd"])
        }
    }

    /// cli (third campaign, 193 K executions): `--data=` followed by a value starting with a combining mark did not
    /// split: "=" with the mark is one Character that is not "=", so the whole argument read as an unknown option.
    /// The split is at the first "=" scalar now.
    @Test func anInlineValueMayStartWithACombiningMark() throws {
        let command = Command(name: "cmd", abstract: "", options: [.init(name: "data", value: "<hex>", help: "")])
        let inv = try CLI.parse(["--data=\u{0301}x"], for: command, path: ["opennfc", "cmd"])
        #expect(inv.value("data") == "\u{0301}x")
    }
}
