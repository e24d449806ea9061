import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Plays a transcript against a virtual ISO-DEP card, nfcpy-style, in the one transcript grammar of the test suites
/// (``Transcript``): one exchange per line, `<command hex> -> <answer>  # what it is`, the answer being hex, `ACK`,
/// `NAK <n>` or `TIMEOUT`. Spaces inside hex are ignored. Every line is checked and a mismatch names the line and its
/// comment.
func playISODEP(
    _ tag: some VirtualTag, _ script: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let lines: [Transcript.Line]
    do {
        lines = try Transcript.parse(script)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return
    }
    for line in lines {
        guard case .frame(let command) = line.input else {
            Issue.record("line \(line.number): a card transcript sends frames only", sourceLocation: sourceLocation)
            return
        }
        let actual = Transcript.Answer(tag.receive(command, tearAfter: nil))
        #expect(
            actual == line.answer,
            "line \(line.number) (\(line.comment)): \(Hex.encode(command))", sourceLocation: sourceLocation)
    }
}

extension Transcript.Answer {
    /// What the card side answered, in the transcript grammar's words (no answer is `TIMEOUT`).
    init(_ answer: VirtualAnswer) {
        switch answer {
        case .data(let bytes): self = bytes.isEmpty ? .timeout : .frame(bytes)
        case .silence: self = .timeout
        case .ack: self = .ack
        case .nak(let n): self = .nak(n)
        }
    }
}

/// UID used by the ISO-DEP tests (an NXP-style 7-byte UID from a public DESFire EV1 4K GetVersion trace).
let testUID: [UInt8] = [0x04, 0x1F, 0x5B, 0x92, 0xDA, 0x2C, 0x80]

/// "http://nfcpy.org" as an NDEF URI record (NFC Forum RTD-URI 1.0 §3.2.2, from nfcpy tests/test_tag_tt4.py).
let nfcpyURIMessage: [UInt8] = [0xD1, 0x01, 0x0A, 0x55, 0x03, 0x6E, 0x66, 0x63, 0x70, 0x79, 0x2E, 0x6F, 0x72, 0x67]
