import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// A virtual field with one tag in it, read through the reader procedures exactly as a session would: poll,
/// activate, identify, then the NDEF procedure, all over an `InstrumentedFrontend` that counts the frames.
final class InteropBench {
    let clock = VirtualClock()
    let field: VirtualField
    let frontend: InstrumentedFrontend

    init(capabilities: RFCapabilities = .simulatedIPhone) {
        field = VirtualField(clock: clock)
        frontend = InstrumentedFrontend(VirtualFieldFrontend(field: field, capabilities: capabilities))
    }

    /// Puts `tag` alone in the field, activates and identifies it, and returns its NDEF procedure with the frame
    /// counts reset (identification frames are not part of a procedure's count).
    func connect(_ tag: any VirtualTag) throws -> (IdentifiedTag, any NDEFTagProcedure) {
        field.removeAll()
        field.place(tag)
        let targets = try frontend.poll([.nfcA, .nfcB, .nfcF])
        guard let first = targets.first else { throw RFError(.linkLost, "no tag in the field") }
        let target = try frontend.activate(first)
        let identified = try TagIdentifier.identify(target: target, frontend: frontend)
        guard let procedure = identified.ndefProcedure(frontend: frontend) else {
            throw TagError(.unsupported, "no NDEF procedure for \(identified.kind)")
        }
        frontend.resetCounts()
        return (identified, procedure)
    }

    var frames: Int { frontend.counts.framesSent }
}

/// A well-framed NDEF message of exactly `length` bytes (≥ 3): one record of TNF 5 (unknown, no type), short form
/// when the payload fits a byte, with payload bytes derived from `seed` so that two messages differ everywhere.
func ndefMessage(length: Int, seed: UInt8 = 1) -> [UInt8] {
    precondition(length >= 3)
    let payload = { (n: Int) in (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed) &* 31) } }
    if length - 3 <= 255 { return [0xD5, 0x00, UInt8(length - 3)] + payload(length - 3) }
    let n = length - 6
    return [0xC5, 0x00, UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + payload(n)
}

let uid7 = h("04 A1 B2 C3 D4 E5 F6")

/// The code of a thrown TagError, or nil.
func tagErrorCode(_ body: () throws -> Void) -> TagError.Code? {
    do {
        try body()
        return nil
    } catch let e as TagError {
        return e.code
    } catch {
        return nil
    }
}
