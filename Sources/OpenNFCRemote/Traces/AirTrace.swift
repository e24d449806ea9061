package import OpenNFCRF

/// The air protocols a trace file can hold, named as the Proxmark3 client's `trace list -t` names them.
package enum AirProtocol: String, Sendable, Hashable, CaseIterable {
    /// ISO/IEC 14443-3/-4 Type A (NFC-A).
    case iso14443a = "14a"
    /// ISO/IEC 14443-3/-4 Type B (NFC-B).
    case iso14443b = "14b"
    /// ISO/IEC 15693 (NFC-V).
    case iso15693 = "15"
    /// JIS X 6319-4 (NFC-F).
    case felica

    package var technology: RFTechnology {
        switch self {
        case .iso14443a: return .nfcA
        case .iso14443b: return .nfcB
        case .iso15693: return .nfcV
        case .felica: return .nfcF
        }
    }

    package init(_ technology: RFTechnology) {
        switch technology {
        case .nfcA: self = .iso14443a
        case .nfcB: self = .iso14443b
        case .nfcV: self = .iso15693
        case .nfcF: self = .felica
        }
    }

    /// The names `--protocol` accepts.
    package static let names = allCases.map(\.rawValue).joined(separator: "|")
}

/// Frames on the air in order, from a pcapng capture, a Proxmark3 trace, or an ``RFTranscript`` rendered as the
/// frames a reader would have sent (``init(transcript:)``).
package struct AirTrace: Sendable, Hashable {
    package var frames: [AirFrame]
    /// The technologies of the frames: one for a Proxmark3 trace (the user says which), NFC-A and/or NFC-B for pcapng.
    package var protocols: Set<AirProtocol>

    package init(frames: [AirFrame], protocols: Set<AirProtocol>) {
        self.frames = frames
        self.protocols = protocols
    }

    /// A problem in a trace file: the file, where (block, record, byte offset) and what.
    package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        package var message: String
        package init(_ message: String) { self.message = message }
        package var description: String { message }
    }
}
