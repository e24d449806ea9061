/// What a frontend can carry, so procedures choose the fewest frames that fit.
public struct RFCapabilities: Sendable, Hashable {
    /// Largest command (frame without CRC, or ISO-DEP INF / APDU) the frontend sends in one exchange.
    public var maxCommandSize: Int
    /// Largest answer the frontend delivers from one exchange (bounds FAST_READ ranges).
    public var maxResponseSize: Int
    /// Whether raw NFC-A frames reach a non-ISO-DEP tag (false for a PC/SC reader without pass-through, which
    /// only offers storage-card pseudo-APDUs).
    public var rawFrames: Bool
    public var technologies: Set<RFTechnology>

    public init(maxCommandSize: Int, maxResponseSize: Int, rawFrames: Bool, technologies: Set<RFTechnology>) {
        self.maxCommandSize = maxCommandSize
        self.maxResponseSize = maxResponseSize
        self.rawFrames = rawFrames
        self.technologies = technologies
    }
}

/// The protocol every backend speaks to the tag procedures: poll → activate → exchange → deactivate.
///
/// This is the NFC Forum Digital/Activity split: a frontend does anticollision, CRCs, ISO-DEP block framing,
/// chaining and waiting-time extensions itself, and hands the layers above whole frames without CRC (NFC-A
/// level 3 targets) or whole ISO-DEP payloads (APDUs, DESFire native commands) for ISO-DEP targets.
///
/// Frontends are synchronous and not thread-safe: one serial executor drives each one.
public protocol RFFrontend: AnyObject {
    var capabilities: RFCapabilities { get }

    /// Targets currently in the field for the given technologies (may be empty). Polling does not select.
    func poll(_ technologies: Set<RFTechnology>) throws(RFError) -> [RFTarget]

    /// Selects the target (anticollision, and RATS for ISO-DEP when `isoDEP` is true and the target offers it)
    /// and returns what the activation reported. A target that was muted by a NAK answers again afterwards.
    func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget

    /// Sends one frame (or ISO-DEP payload) to the active target and returns its answer.
    func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse

    /// Releases the active target (HLTA / DESELECT); the next exchange needs a new activation.
    func deactivate()
}

extension RFFrontend {
    /// Activates the target in its highest protocol: ISO-DEP when it offers it, level 3 otherwise.
    public func activate(_ target: RFTarget) throws(RFError) -> RFTarget {
        try activate(target, isoDEP: target.isISODEP)
    }
}
