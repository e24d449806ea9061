import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import Testing

/// Runs a transcript against a tag through ``TagLineSession``: each line is
/// `INPUT -> EXPECTED  # what it is`, with INPUT a frame in hex, `ACTIVATE` or `REMOVE`, and EXPECTED the exact
/// answer line (hex compared without spaces). The tag is placed and activated first. Every line must match.
@discardableResult
func expectTranscript(
    _ tag: any VirtualTag, _ script: String, session: TagLineSession? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> TagLineSession {
    let s = session ?? TagLineSession(tag: tag)
    if session == nil { s.activate() }
    var checked = 0
    for (number, raw) in script.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard line.contains("->") else {
            #expect(line.allSatisfy { $0 == " " }, "line \(number + 1) has no '->'", sourceLocation: sourceLocation)
            continue
        }
        let parts = line.components(separatedBy: "->")
        let input = parts[0].trimmed
        let expected = parts[1].trimmed
        let got = s.answer(input)
        #expect(
            normalize(got) == normalize(expected),
            "line \(number + 1): \(input) answered \(got), expected \(expected)", sourceLocation: sourceLocation)
        checked += 1
    }
    #expect(checked > 0, "empty transcript", sourceLocation: sourceLocation)
    return s
}

private func normalize(_ s: String) -> String {
    let t = s.trimmed
    if let bytes = try? Hex.decode(t), !bytes.isEmpty { return Hex.encode(bytes) }
    return t
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
