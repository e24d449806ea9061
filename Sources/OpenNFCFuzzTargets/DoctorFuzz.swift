internal import OpenNFCBytes
internal import OpenNFCCLIKit

/// The doctor's source scanner (`opennfc doctor --sources`): the tokenizer and the Core NFC facts read from the
/// tokens, over arbitrary Swift-ish or Objective-C-ish text (the input, decoded as UTF-8 with repairs, as the doctor
/// reads files).
///
/// Invariants: every token and every finding (session, SELECT, FeliCa poll, MIFARE Classic mention, ISO 7816 and
/// FeliCa use) names the scanned file, a line inside it and a column inside that line; tokens come in text order,
/// each at least one character; a SELECT's AID has 1…255 bytes (its Lc); scanning is total (unterminated strings
/// and comments end the file) and deterministic (the same text gives the same tokens and the same findings).
enum DoctorFuzz {
    static let target = FuzzTarget(
        "doctor", "the doctor's source scanner over Swift-ish text (findings inside the file; deterministic)",
        seeds: seeds, run: run)

    static let file = "Sources/App/Reader.swift"

    static func run(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        // The length of every line in Unicode scalars (lines end at LF, as the tokenizer counts them).
        var lineLengths: [Int] = [0]
        for scalar in text.unicodeScalars {
            if scalar == "\n" { lineLengths.append(0) } else { lineLengths[lineLengths.count - 1] += 1 }
        }
        func inside(_ line: Int, _ column: Int) -> Bool {
            line >= 1 && line <= lineLengths.count && column >= 1 && column <= lineLengths[line - 1]
        }

        let tokens = SourceTokenizer.tokenize(text)
        fuzzRequire(tokens.count <= text.unicodeScalars.count, "\(tokens.count) tokens from fewer characters")
        var previous = (line: 0, column: 0)
        for t in tokens {
            fuzzRequire(inside(t.line, t.column), "token '\(t.text.prefix(20))' at \(t.line):\(t.column) is outside")
            fuzzRequire(
                t.line > previous.line || (t.line == previous.line && t.column > previous.column),
                "token at \(t.line):\(t.column) after one at \(previous.line):\(previous.column)")
            previous = (t.line, t.column)
            if t.kind != .string { fuzzRequire(!t.text.isEmpty, "an empty \(t.kind) token") }
        }
        fuzzRequire(SourceTokenizer.tokenize(text) == tokens, "tokenizing twice gives different tokens")

        var facts = SourceFacts()
        SourceScanner(file: file, tokens: tokens).collect(into: &facts)
        var again = SourceFacts()
        SourceScanner(file: file, tokens: tokens).collect(into: &again)
        fuzzRequire(summary(facts) == summary(again), "scanning twice gives different findings")

        var locations = facts.sessions.map(\.location) + facts.selects.map(\.location)
        locations += facts.feliCaPolls.map(\.location) + facts.classicExpectations.map(\.location)
        locations += [facts.iso7816Use, facts.feliCaUse].compactMap { $0 }
        for l in locations {
            fuzzRequire(l.file == file, "a finding in '\(l.file)'")
            guard let line = l.line, let column = l.column else {
                fuzzRequire(false, "a finding without a line and column: \(l)")
                return
            }
            fuzzRequire(inside(line, column), "a finding at \(line):\(column), outside the file")
        }
        for s in facts.selects {
            if let aid = s.aid { fuzzRequire((1...255).contains(aid.count), "a SELECT of a \(aid.count)-byte AID") }
        }
        for p in facts.sessions where p.kind != .tag {
            fuzzRequire(p.pollingOptions.isEmpty, "\(p.kind) session with polling options")
        }
    }

    /// Everything the scan found, as text (SourceFacts is not Equatable: the doctor never compares two).
    static func summary(_ f: SourceFacts) -> String {
        var s = "\(f.filesScanned)\n"
        for x in f.sessions { s += "session \(x.kind) \(x.location) \(x.pollingOptions.sorted())\n" }
        for x in f.selects { s += "select \(x.aid?.hexString ?? "?") \(x.location)\n" }
        for x in f.feliCaPolls { s += "poll \(x.systemCode?.hexString ?? "?") \(x.location)\n" }
        for x in f.classicExpectations { s += "classic \(x.what) \(x.location)\n" }
        s += "iso7816 \(f.iso7816Use?.description ?? "-") felica \(f.feliCaUse?.description ?? "-")\n"
        return s
    }

    /// Code written the ways Core NFC apps are (Swift and Objective-C), plus the shapes a scanner trips on:
    /// nested and unterminated comments, raw and multi-line strings, an unterminated string, unbalanced brackets.
    static func seeds() -> [[UInt8]] {
        let samples = [
            """
            import CoreNFC

            final class Reader: NSObject, NFCTagReaderSessionDelegate {
                let aid = Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01])
                func begin() {
                    session = NFCTagReaderSession(pollingOption: [.iso14443, .iso18092], delegate: self, queue: nil)
                    session?.alertMessage = "Hold your iPhone near a MIFARE Classic card."
                    session?.begin()
                }
                func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
                    guard case .iso7816(let tag) = tags.first else { return }
                    let apdu = NFCISO7816APDU(instructionClass: 0, instructionCode: 0xA4, p1Parameter: 4,
                                              p2Parameter: 0, data: aid, expectedResponseLength: 256)
                    tag.sendCommand(apdu: apdu) { _, _, _, _ in }
                }
            }
            """,
            """
            let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]
            let hex = "00 A4 04 00 07 D2760000850101 00"
            felica.polling(systemCode: Data([0x12, 0xFC]), requestCode: .systemCode, timeSlot: .max1) { _, _, _ in }
            mifare.sendMiFareCommand(commandPacket: Data([0x60, 0x04])) { _, _ in }
            let ndef = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: true)
            if case .feliCa(let t) = tag { _ = t }
            """,
            """
            NFCTagReaderSession *s = [[NFCTagReaderSession alloc] initWithPollingOption:NFCPollingISO14443 | NFCPollingISO15693
                                                                                delegate:self queue:nil];
            NFCISO7816APDU *apdu = [[NFCISO7816APDU alloc] initWithInstructionClass:0 instructionCode:0xA4 p1Parameter:4
                                                                        p2Parameter:0 data:aid expectedResponseLength:-1];
            NSString *m = @"MIFARE Classic \\" escaped";
            """,
            """
            /* outer /* nested */ still a comment */ let a = #"raw "quoted" \\(x)"#
            let b = \"\"\"
                multi-line NFCVASReaderSession( not a call
                \"\"\"
            let c = 0b1010_0100 + 0o244 + 164 + 0xA4 + 1.5e3
            let é = NFCPaymentTagReaderSession(
            """,
            "let broken = \"never closed\nlet x = [0x00, 0xA4, 0x04, 0x00, 0x01, 0xFF",
            "/* a comment that never ends\nNFCTagReaderSession(pollingOption: .iso14443",
            "((([[[{{{ ]]] ))) }}} let aid = Data([0x01]) NFCISO7816APDU(instructionCode: 0xA4, p1Parameter: 0x04, data: aid",
        ]
        return samples.map { Array($0.utf8) }
    }
}
