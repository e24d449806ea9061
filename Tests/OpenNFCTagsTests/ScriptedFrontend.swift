import OpenNFCBytes
import OpenNFCRF
import OpenNFCTestSupport
import Testing

/// A frontend that plays an exact transcript: each step is the command the procedure must send and the tag's
/// canned answer (or an expected re-activation). Any other command is recorded as a test issue; tests end with
/// `#expect(frontend.isComplete)` so that every line of the script was used.
final class ScriptedFrontend: RFFrontend {
    enum Reply {
        case data([UInt8])
        case ack
        case nak(UInt8)
        case fail(RFError.Code)
    }

    struct Step {
        var command: [UInt8]?  // nil: an activation
        var reply: Reply

        /// The procedure sends `hex`; the tag answers `reply`.
        static func send(_ hex: String, _ reply: Reply) -> Step { Step(command: h(hex), reply: reply) }
        /// The procedure sends `hex`; the tag answers the data bytes `answer`.
        static func send(_ hex: String, _ answer: String) -> Step { Step(command: h(hex), reply: .data(h(answer))) }
        static func send(_ hex: String, _ answer: [UInt8]) -> Step { Step(command: h(hex), reply: .data(answer)) }
        /// The procedure re-activates the target.
        static let activate = Step(command: nil, reply: .ack)
    }

    let capabilities: RFCapabilities
    private let steps: [Step]
    private(set) var position = 0

    init(
        maxCommandSize: Int = 255, maxResponseSize: Int = 256, rawFrames: Bool = true,
        technologies: Set<RFTechnology> = [.nfcA, .nfcB], _ steps: [Step]
    ) {
        self.capabilities = RFCapabilities(
            maxCommandSize: maxCommandSize, maxResponseSize: maxResponseSize, rawFrames: rawFrames,
            technologies: technologies)
        self.steps = steps
    }

    /// A script in the one transcript grammar of the test suites (``Transcript``): `<command hex> -> <answer>` per
    /// exchange (`ACK`, `NAK <n>`, `TIMEOUT` or the answer's hex), `ACTIVATE -> …` for an expected re-activation.
    /// A malformed script is a bug in the test: it is recorded and gives an empty script.
    convenience init(
        maxCommandSize: Int = 255, maxResponseSize: Int = 256, rawFrames: Bool = true,
        technologies: Set<RFTechnology> = [.nfcA, .nfcB], transcript: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var steps: [Step] = []
        do {
            for line in try Transcript.parse(transcript) {
                switch (line.input, line.answer) {
                case (.activate, _): steps.append(.activate)
                case (.frame(let c), .frame(let a)): steps.append(Step(command: c, reply: .data(a)))
                case (.frame(let c), .ack): steps.append(Step(command: c, reply: .ack))
                case (.frame(let c), .nak(let n)): steps.append(Step(command: c, reply: .nak(n)))
                case (.frame(let c), .timeout): steps.append(Step(command: c, reply: .fail(.timeout)))
                case (_, let answer):
                    Issue.record(
                        "transcript line \(line.number): \(answer) is not an answer a reader gets",
                        sourceLocation: sourceLocation)
                }
            }
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
        self.init(
            maxCommandSize: maxCommandSize, maxResponseSize: maxResponseSize, rawFrames: rawFrames,
            technologies: technologies, steps)
    }

    var isComplete: Bool { position == steps.count }

    func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] { [] }

    func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        guard position < steps.count, steps[position].command == nil else {
            Issue.record("step \(position + 1): unexpected activation")
            throw RFError(.frontendFailure, "unexpected activation")
        }
        position += 1
        return target
    }

    func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        guard position < steps.count else {
            Issue.record("unexpected command \(command.hexString) after the script's \(steps.count) steps")
            throw RFError(.frontendFailure, "script ended")
        }
        let step = steps[position]
        guard step.command == command else {
            Issue.record(
                "step \(position + 1): expected \(step.command?.hexString ?? "activation"), got \(command.hexString)")
            throw RFError(.frontendFailure, "script mismatch")
        }
        position += 1
        switch step.reply {
        case .data(let d): return .frame(d)
        case .ack: return .ack
        case .nak(let n): return .nak(n)
        case .fail(let code): throw RFError(code)
        }
    }

    func deactivate() {}
}

/// The NFC-A target of an NXP Type 2 chip (SENS_RES 0x0044, SEL_RES 00).
let ntagTarget = RFTarget.nfcA(
    uid: h("04 E5 DA 01 40 3A 03"), sensRes: 0x0044, selRes: 0x00)
