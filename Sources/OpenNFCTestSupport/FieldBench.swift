package import OpenNFCRF
package import OpenNFCSimulation
package import OpenNFCTags

/// One virtual tag alone in a simulated reader's field, reached through the reader procedures exactly as a session
/// reaches it (poll, activate, identify, the NDEF procedure) over an `InstrumentedFrontend` that counts the frames:
/// the bench of the interop tests, the frame pins (docs/PROCEDURES.md) and the tear sweeps (``TearSweep``).
package final class FieldBench {
    package let clock = VirtualClock()
    package let field: VirtualField
    package let frontend: InstrumentedFrontend

    /// The simulated iPhone by default (261-byte commands, 258-byte answers).
    package init(capabilities: RFCapabilities = .simulatedIPhone) {
        field = VirtualField(clock: clock)
        frontend = InstrumentedFrontend(VirtualFieldFrontend(field: field, capabilities: capabilities))
    }

    /// Puts `tag` alone in the field, polls with `request` and activates the first answer (the counts go on).
    package func activate(_ tag: any VirtualTag, polling request: RFPollRequest) throws -> RFTarget {
        field.removeAll()
        field.place(tag)
        guard let first = try frontend.poll(request).first else { throw RFError(.linkLost, "no tag in the field") }
        return try frontend.activate(first)
    }

    /// Activates `tag` (``activate(_:polling:)``), identifies it and returns its NDEF procedure, with the frame
    /// counts reset: identification frames are not part of a procedure's count.
    package func connect(_ tag: any VirtualTag, polling request: RFPollRequest) throws -> (
        IdentifiedTag, any NDEFTagProcedure
    ) {
        let identified = try TagIdentifier.identify(target: try activate(tag, polling: request), frontend: frontend)
        guard let procedure = identified.ndefProcedure(frontend: frontend) else {
            throw TagError(.unsupported, "no NDEF procedure for \(identified.kind)")
        }
        frontend.resetCounts()
        return (identified, procedure)
    }

    /// Frames the reader sent since the counts were last reset.
    package var frames: Int { frontend.counts.framesSent }
}

/// A well-framed NDEF message of exactly `length` bytes (≥ 3): one record of TNF 5 (unknown, no type), short form
/// when the payload fits a byte, with payload bytes derived from `seed` so that two messages differ everywhere.
package func ndefMessage(length: Int, seed: UInt8 = 1) -> [UInt8] {
    precondition(length >= 3)
    let payload = { (n: Int) in (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed) &* 31) } }
    if length - 3 <= 255 { return [0xD5, 0x00, UInt8(length - 3)] + payload(length - 3) }
    let n = length - 6
    return [0xC5, 0x00, UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + payload(n)
}
