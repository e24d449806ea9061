internal import OpenNFCRF

/// A frontend whose tag answers come from the fuzz input: the reader procedures meet an arbitrary (hostile) tag.
///
/// Each exchange takes one answer from the script: `FF` timeout, `FE` ACK, `FD n` NAK n, `FC` link lost, `FB hi lo`
/// then that many bytes (long frames), any other byte n then n bytes (a frame). Each authentication takes one byte:
/// `00` succeeds, anything else fails. When the script is used up every exchange times out; after ``maxExchanges``
/// the link is lost, so a procedure that keeps asking ends instead of hanging.
final class ScriptedFrontend: RFFrontend {
    static let maxExchanges = 2_048

    let capabilities = RFCapabilities(
        maxCommandSize: 261, maxResponseSize: 258, rawFrames: true, technologies: [.nfcA, .nfcB, .nfcF, .nfcV],
        mifareClassicAuthentication: true)
    var script: FuzzInput
    let target: RFTarget
    private(set) var exchanges = 0

    init(target: RFTarget, script: FuzzInput) {
        self.target = target
        self.script = script
    }

    func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        request.technologies.contains(target.technology) ? [target] : []
    }

    func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget { self.target }

    func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        exchanges += 1
        guard exchanges <= Self.maxExchanges else { throw RFError(.linkLost, "script: exchange limit") }
        guard !script.isAtEnd else { throw RFError(.timeout, "script: no more answers") }
        let k = script.byte()
        switch k {
        case 0xFF: throw RFError(.timeout, "script: timeout")
        case 0xFE: return .ack
        case 0xFD: return .nak(script.byte() & 0x0F)
        case 0xFC: throw RFError(.linkLost, "script: link lost")
        case 0xFB:
            let n = Int(script.byte()) << 8 | Int(script.byte())
            return .frame(script.take(n))
        default:
            return .frame(script.take(Int(k)))
        }
    }

    func deactivate() {}

    func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        guard script.byte() == 0 else { throw RFError(.transmission, "script: authentication failed") }
    }

    /// The script entry that makes an exchange return `response`.
    static func entry(_ response: RFResponse) -> [UInt8] {
        switch response {
        case .ack: return [0xFE]
        case .nak(let n): return [0xFD, n]
        case .frame(let b) where b.count < 0xFB: return [UInt8(b.count)] + b
        case .frame(let b): return [0xFB, UInt8(b.count >> 8 & 0xFF), UInt8(b.count & 0xFF)] + b
        }
    }
}
