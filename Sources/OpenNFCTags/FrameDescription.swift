package import OpenNFCRF

/// A family's names for its frames, for people: the `#` comments of `--trace`, the decoded column of
/// `opennfc send` and the field server's log. Unknown frames get no name rather than a guess.
///
/// A family's describer lives in its folder (`<Family>/<Family>Trace.swift`), says which frame modes its frames travel
/// in, and is registered by one line in ``TagFamilies/frameDescribers`` (docs/ADDING-A-TAG-FAMILY.md).
package protocol FrameDescriber: Sendable {
    /// The frame modes whose frames this family names (``RFFrameMode``: the mode a target's frames travel in after
    /// activation).
    static var frameModes: [RFFrameMode] { get }
    /// The command's name and arguments, nil when it is not one of the family's.
    static func describe(command: [UInt8]) -> String?
    /// The answer's meaning, given the command it answers; nil when there is nothing to say.
    static func describe(response: RFResponse, to command: [UInt8]) -> String?
}

/// Names frames by asking the registered describers of the frame's mode (``TagFamilies/frameDescribers``, each under
/// the modes it declares), in registration order; the first name wins.
package enum FrameDescription {
    /// The registered describers by frame mode, each mode's in registration order.
    static let describers: [RFFrameMode: [any FrameDescriber.Type]] = byMode(TagFamilies.frameDescribers)

    /// `registered` grouped under the modes each declares, keeping their order within every mode.
    static func byMode(_ registered: [any FrameDescriber.Type]) -> [RFFrameMode: [any FrameDescriber.Type]] {
        var modes: [RFFrameMode: [any FrameDescriber.Type]] = [:]
        for d in registered {
            for mode in d.frameModes { modes[mode, default: []].append(d) }
        }
        return modes
    }

    /// The frame mode a target's frames travel in after activation.
    package static func mode(of target: RFTarget) -> RFFrameMode { RFFrameMode(target: target) }

    package static func describe(command c: [UInt8], mode: RFFrameMode) -> String? {
        for d in describers[mode] ?? [] {
            if let name = d.describe(command: c) { return name }
        }
        return nil
    }

    package static func describe(response r: RFResponse, to c: [UInt8], mode: RFFrameMode) -> String? {
        for d in describers[mode] ?? [] {
            if let meaning = d.describe(response: r, to: c) { return meaning }
        }
        return nil
    }
}
