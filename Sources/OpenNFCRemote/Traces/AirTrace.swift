package import OpenNFCRF

/// One event on the air, as a sniffer or a Proxmark3 logs it: a frame with its CRC (and, for NFC-A, its parity
/// bits), or the reader's field switching on or off (docs/TRACES.md).
package struct AirFrame: Sendable, Hashable {
    package enum Event: Sendable, Hashable {
        /// PCD → PICC (the reader's frame).
        case reader
        /// PICC → PCD (the card's frame).
        case tag
        case fieldOn
        case fieldOff
    }

    package var event: Event
    /// Start of the frame, nanoseconds since the trace started.
    package var time: UInt64
    /// The bytes as they travelled, CRC included (FeliCa: from the sync code `B2 4D` on, as a Proxmark3 logs them).
    package var bytes: [UInt8]
    /// NFC-A only: one parity bit (0 or 1) per byte as it travelled, when it is not the odd parity of the byte
    /// (MIFARE Classic's enciphered parity, ISO/IEC 14443-3 §6.2.3.1 otherwise); nil means odd parity.
    package var parity: [UInt8]?
    /// Valid bits of the last byte when not 8: 7 for REQA/WUPA (ISO/IEC 14443-3 §6.2.3.2 short frame), 4 for an
    /// ACK/NAK.
    package var lastBits: Int?
    /// How long the frame took on the air, nanoseconds, when known.
    package var duration: UInt64?

    package init(
        _ event: Event, time: UInt64, bytes: [UInt8] = [], parity: [UInt8]? = nil, lastBits: Int? = nil,
        duration: UInt64? = nil
    ) {
        self.event = event
        self.time = time
        self.bytes = bytes
        self.parity = parity
        self.lastBits = lastBits
        self.duration = duration
    }

    /// Whether it is a frame (not a field event).
    package var isFrame: Bool { event == .reader || event == .tag }

    /// The ISO/IEC 14443-3 §6.2.3.1 odd parity bit of every byte.
    package static func oddParity(_ bytes: [UInt8]) -> [UInt8] { bytes.map { UInt8(1 - $0.nonzeroBitCount & 1) } }

    /// The parity bits the frame carried (``parity``, or odd parity).
    package var parityBits: [UInt8] { parity ?? Self.oddParity(bytes) }
}

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
