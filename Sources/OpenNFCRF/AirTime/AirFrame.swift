/// One event on the air: a frame (who sends it, its bytes as they travelled, CRC included, and for NFC-A its parity
/// bits), or the reader's field switching on or off. The one type for frames on the air, used alike by the air-time
/// model (which fills ``gap``, ``air`` and ``label``; its frames carry no bytes), by the transcript's `air` member,
/// and by the trace files (`OpenNFCRemote/Traces`: pcapng, Proxmark3), which fill ``time`` and ``bytes``
/// (docs/TIMING.md, docs/TRACES.md).
package struct AirFrame: Sendable, Hashable, CustomStringConvertible {
    /// Who transmits, or what the field does.
    package enum Event: Sendable, Hashable {
        /// PCD → PICC (VCD → VICC, initiator → target): the reader's frame.
        case reader
        /// PICC → PCD: the card's frame.
        case tag
        case fieldOn
        case fieldOff
    }

    package var event: Event
    /// Start of the frame, nanoseconds since the trace started (0 in the model's frames, which are placed by their
    /// gaps).
    package var time: UInt64
    /// The bytes as they travelled, CRC included (FeliCa: from the sync code `B2 4D` on, as a Proxmark3 logs them);
    /// empty in the model's frames.
    package var bytes: [UInt8]
    /// NFC-A only: one parity bit (0 or 1) per byte as it travelled, when it is not the odd parity of the byte
    /// (MIFARE Classic's enciphered parity; ISO/IEC 14443-3 §6.2.3.1 otherwise); nil means odd parity.
    package var parity: [UInt8]?
    /// Valid bits of the last byte when not 8: 7 for REQA/WUPA (ISO/IEC 14443-3 §6.2.3.2 short frame), 4 for an
    /// ACK/NAK.
    package var lastBits: Int?
    /// The least silence the standard requires before this frame starts (measured from the end of the previous one).
    package var gap: AirTime
    /// The frame's own duration, start of frame to end of frame; ``AirTime/zero`` when not known (a capture without
    /// it, before ``AirTimeModel/frame(_:technology:highRate:)`` fills it in).
    package var air: AirTime
    /// What the frame is, for people ("I-block 1/3", "R(ACK)", "EOF").
    package var label: String

    package init(
        _ event: Event, time: UInt64 = 0, bytes: [UInt8] = [], parity: [UInt8]? = nil, lastBits: Int? = nil,
        gap: AirTime = .zero, air: AirTime = .zero, label: String = ""
    ) {
        self.event = event
        self.time = time
        self.bytes = bytes
        self.parity = parity
        self.lastBits = lastBits
        self.gap = gap
        self.air = air
        self.label = label
    }

    /// Whether it is a frame (not a field event).
    package var isFrame: Bool { event == .reader || event == .tag }

    /// The ISO/IEC 14443-3 §6.2.3.1 odd parity bit of every byte.
    package static func oddParity(_ bytes: [UInt8]) -> [UInt8] { bytes.map { UInt8(1 - $0.nonzeroBitCount & 1) } }

    /// The parity bits the frame carried (``parity``, or odd parity).
    package var parityBits: [UInt8] { parity ?? Self.oddParity(bytes) }

    /// Gap and frame together.
    package var span: AirTime { gap + air }

    package var description: String {
        switch event {
        case .fieldOn: return "field on"
        case .fieldOff: return "field off"
        case .reader, .tag:
            return "\(event == .reader ? ">" : "<") \(label.isEmpty ? "frame" : label): gap \(gap), air \(air)"
        }
    }
}

extension Sequence where Element == AirFrame {
    /// Every gap and frame, end to end.
    package func total() -> AirTime { map(\.span).total() }
    /// The frames' own durations only.
    package func airOnly() -> AirTime { map(\.air).total() }
    /// The gaps only.
    package func gapsOnly() -> AirTime { map(\.gap).total() }

    /// `--trace`'s comment on what one event put on the air (docs/TIMING.md): `#   on air: ` and every frame as
    /// ``AirFrame/traceText``.
    package func onAirComment() -> String { "#   on air: " + map(\.traceText).joined(separator: ", ") }

    /// `--trace`'s closing total: `# air: 12.345 ms on the air (frames 10.123 ms, gaps 2.222 ms)`.
    package func airTotalComment() -> String {
        "# air: \(total()) on the air (frames \(airOnly()), gaps \(gapsOnly()))"
    }
}

extension AirFrame {
    /// One frame as `--trace` names it: `> 358.7 µs after 86.4 µs`, with the block's name when it has one
    /// (`< R(ACK) 273.7 µs after 91.2 µs`, `< S(WTX) 358.7 µs after 86.4 µs`). A wait without a frame (SFGT after
    /// the ATS) shows as the wait alone; a frame after no gap (the first WUPA) without "after".
    package var traceText: String {
        let arrow = event == .reader ? ">" : "<"
        let what = label.isEmpty || label == "answer" ? "" : "\(label) "
        if air == .zero { return "\(arrow) \(what)\(gap)" }
        return gap == .zero ? "\(arrow) \(what)\(air)" : "\(arrow) \(what)\(air) after \(gap)"
    }
}

/// A frontend that knows more of what its last exchange put on the air than the command and the answer say: a
/// simulated field whose card asked for more time. A recorder asks it, so the S(WTX) frames reach the transcript
/// and the trace files (docs/TIMING.md, "S(WTX) from the virtual cards").
package protocol AirReporting: AnyObject {
    /// The WTXM of each S(WTX) request the card sent during the last exchange (ISO/IEC 14443-4 §7.3), in order;
    /// empty when it sent none.
    var lastWaitingTimeExtensions: [UInt8] { get }
}
