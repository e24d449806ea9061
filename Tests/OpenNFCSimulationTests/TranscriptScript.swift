import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Runs a transcript against a tag through ``TagLineSession``, in the one transcript grammar of the test suites
/// (``Transcript``): each line is `INPUT -> EXPECTED  # what it is`, with INPUT a frame in hex, `ACTIVATE` or
/// `REMOVE`, and EXPECTED the answer (hex compared without spaces, `ACK`, `NAK <n>`, `TIMEOUT`, or an activation line
/// compared as written). The tag is placed and activated first. Every line must match.
@discardableResult
func expectTranscript(
    _ tag: any VirtualTag, _ script: String, session: TagLineSession? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> TagLineSession {
    let s = session ?? TagLineSession(tag: tag)
    if session == nil { s.activate() }
    let lines: [Transcript.Line]
    do {
        lines = try Transcript.parse(script)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return s
    }
    for line in lines {
        let input: String
        switch line.input {
        case .frame(let bytes): input = Hex.encode(bytes)
        case .activate: input = "ACTIVATE"
        case .remove: input = "REMOVE"
        }
        let got = s.answer(input)
        #expect(
            Transcript.Answer(got) == line.answer,
            "line \(line.number): \(input) answered \(got), expected \(line.answer)", sourceLocation: sourceLocation)
    }
    #expect(!lines.isEmpty, "empty transcript", sourceLocation: sourceLocation)
    return s
}

extension StringProtocol {
    var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

let type2UID: [UInt8] = [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]

func factoryTag(_ profile: Type2ChipProfile, formatted: Bool = true) -> Type2Tag {
    try! Type2Tag.factory(profile, uid: type2UID, ndefFormatted: formatted)
}

/// Hex of `n` zero bytes.
func type2Zeros(_ n: Int) -> String { String(repeating: "00", count: n) }
