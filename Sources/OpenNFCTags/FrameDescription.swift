package import OpenNFCRF

/// A family's names for its frames, for people: the `#` comments of `--trace`, the decoded column of
/// `opennfc send` and the field server's log. Unknown frames get no name rather than a guess.
package protocol FrameDescriber: Sendable {
    /// The command's name and arguments, nil when it is not one of the family's.
    static func describe(command: [UInt8]) -> String?
    /// The answer's meaning, given the command it answers; nil when there is nothing to say.
    static func describe(response: RFResponse, to command: [UInt8]) -> String?
}

/// The describers by frame mode, each family under the mode its frames travel in; families sharing a mode are asked
/// in order and the first name wins (a Type 1 frame has a length no Type 2 command has, so Type 1 goes first on
/// NFC-A; an APDU is tried before a DESFire native command; MIFARE Plus claims only the codes DESFire and ISO/IEC
/// 7816-4 do not use, so it goes first on ISO-DEP).
package enum FrameDescription {
    static let describers: [RFFrameMode: [any FrameDescriber.Type]] = [
        .nfcA: [Type1Trace.self, Type2Trace.self, MIFAREPlusTrace.self],
        .type1: [Type1Trace.self],
        .isoDEP: [MIFAREPlusTrace.self, Type4Trace.self, DESFireTrace.self],
        .felica: [Type3Trace.self],
        .nfcV: [Type5Trace.self],
    ]

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
