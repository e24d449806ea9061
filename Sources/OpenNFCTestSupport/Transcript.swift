internal import Foundation
internal import OpenNFCBytes
package import OpenNFCRF

/// The one transcript grammar of the card-side and reader-side tests (and of `TagLineSession`, `opennfc tag send`):
///
/// ```
/// <input> -> <answer>   # what it is
/// ```
///
/// | Part | Spellings |
/// |---|---|
/// | input | a frame in hex (spaces ignored), `ACTIVATE`, or `REMOVE` |
/// | answer | a frame in hex, `ACK`, `NAK <n>` (the 4-bit NAK value), `TIMEOUT` (no answer), or any other text (an activation line such as `UID … ATQA … SAK …`), compared as written |
///
/// Blank lines and lines holding only a comment are skipped; any other line without `->` is an error naming it.
package enum Transcript {
    /// What a line sends.
    package enum Input: Equatable, Sendable {
        case frame([UInt8])
        case activate
        case remove
    }

    /// What a line expects back.
    package enum Answer: Equatable, Sendable, CustomStringConvertible {
        case frame([UInt8])
        case ack
        case nak(UInt8)
        case timeout
        case text(String)

        /// Parses an answer as written in a transcript (or as `TagLineSession` prints it).
        package init(_ written: String) {
            let t = written.trimmingSpaces
            switch t.uppercased() {
            case "ACK": self = .ack
            case "TIMEOUT": self = .timeout
            default:
                let parts = t.split(separator: " ")
                if parts.count == 2, parts[0].uppercased() == "NAK", let n = UInt8(parts[1]), n < 16 {
                    self = .nak(n)
                } else if let bytes = try? Hex.decode(t.filter { $0 != " " }), !bytes.isEmpty {
                    self = .frame(bytes)
                } else {
                    self = .text(t)
                }
            }
        }

        /// The answer a frontend gave, in the grammar's words (every failure is `TIMEOUT`: the reader got no
        /// usable answer).
        package init(_ result: Result<RFResponse, RFError>) {
            switch result {
            case .success(.frame(let bytes)): self = bytes.isEmpty ? .timeout : .frame(bytes)
            case .success(.ack): self = .ack
            case .success(.nak(let n)): self = .nak(n)
            case .failure: self = .timeout
            }
        }

        package var description: String {
            switch self {
            case .frame(let b): return Hex.encode(b)
            case .ack: return "ACK"
            case .nak(let n): return "NAK \(n)"
            case .timeout: return "TIMEOUT"
            case .text(let t): return t
            }
        }
    }

    /// One line of a transcript.
    package struct Line: Equatable, Sendable {
        package var number: Int
        package var input: Input
        package var answer: Answer
        package var comment: String
    }

    /// A transcript line that does not follow the grammar.
    package struct SyntaxError: Error, CustomStringConvertible {
        package var line: Int
        package var reason: String
        package var description: String { "transcript line \(line): \(reason)" }
    }

    /// The lines of `script`, in order.
    package static func parse(_ script: String) throws(SyntaxError) -> [Line] {
        var lines: [Line] = []
        for (i, raw) in script.textLines().enumerated() {
            let parts = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let body = parts.first.map(String.init) ?? ""
            let comment = parts.count > 1 ? parts[1].trimmingSpaces : ""
            if body.trimmingSpaces.isEmpty { continue }
            let sides = body.components(separatedBy: "->")
            guard sides.count == 2 else {
                throw SyntaxError(line: i + 1, reason: "expected '<input> -> <answer>', got \"\(body.trimmingSpaces)\"")
            }
            let inputText = sides[0].trimmingSpaces
            let input: Input
            switch inputText.uppercased() {
            case "ACTIVATE": input = .activate
            case "REMOVE": input = .remove
            default:
                guard let bytes = try? Hex.decode(inputText.filter { $0 != " " }), !bytes.isEmpty else {
                    throw SyntaxError(line: i + 1, reason: "the input \"\(inputText)\" is not hex, ACTIVATE or REMOVE")
                }
                input = .frame(bytes)
            }
            lines.append(Line(number: i + 1, input: input, answer: Answer(sides[1]), comment: comment))
        }
        return lines
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
