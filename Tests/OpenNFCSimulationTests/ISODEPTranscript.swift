import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import Testing

/// Plays a transcript against a virtual ISO-DEP card, nfcpy-style: one exchange per line,
/// `<command hex> -> <response hex | SILENCE>  # what it is`. Spaces inside hex are ignored. Every line is checked
/// and a mismatch names the line and its comment.
func playISODEP(
    _ tag: some VirtualTag, _ script: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    var lineNumber = 0
    for rawLine in script.split(separator: "\n", omittingEmptySubsequences: false) {
        lineNumber += 1
        let parts = rawLine.split(separator: "#", maxSplits: 1)
        let comment = parts.count > 1 ? parts[1].trimmingSpaces : ""
        let body = parts.first.map { String($0) } ?? ""
        if body.trimmingSpaces.isEmpty { continue }
        let sides = body.components(separatedBy: "->")
        guard sides.count == 2 else {
            Issue.record("line \(lineNumber): expected '<command> -> <response>'", sourceLocation: sourceLocation)
            return
        }
        let command: [UInt8]
        do {
            command = try Hex.decode(sides[0].replacingOccurrences(of: " ", with: ""))
        } catch {
            Issue.record("line \(lineNumber): bad command hex: \(error)", sourceLocation: sourceLocation)
            return
        }
        let expectedText = sides[1].replacingOccurrences(of: " ", with: "")
        let answer = tag.receive(command, tearAfter: nil)
        let actualText: String
        switch answer {
        case .data(let bytes): actualText = Hex.encode(bytes)
        case .silence: actualText = "SILENCE"
        case .ack: actualText = "ACK"
        case .nak(let n): actualText = "NAK\(n)"
        }
        #expect(
            actualText == expectedText.uppercased(),
            "line \(lineNumber) (\(comment)): \(Hex.encode(command))", sourceLocation: sourceLocation)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension String {
    var trimmingSpaces: String { self[...].trimmingSpaces }
}

/// The bytes of a hex literal written in a test.
func bytes(_ hex: String) -> [UInt8] {
    (try? Hex.decode(hex.replacingOccurrences(of: " ", with: ""))) ?? []
}

/// UID used by the ISO-DEP tests (an NXP-style 7-byte UID from a public DESFire EV1 4K GetVersion trace).
let testUID: [UInt8] = [0x04, 0x1F, 0x5B, 0x92, 0xDA, 0x2C, 0x80]

/// "http://nfcpy.org" as an NDEF URI record (NFC Forum T4T 2.0 §5.4, from nfcpy tests/test_tag_tt4.py).
let nfcpyURIMessage: [UInt8] = [0xD1, 0x01, 0x0A, 0x55, 0x03, 0x6E, 0x66, 0x63, 0x70, 0x79, 0x2E, 0x6F, 0x72, 0x67]
