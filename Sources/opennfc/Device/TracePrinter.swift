import OpenNFCBytes
import OpenNFCRF

/// `--trace`: every frame or APDU on stderr as it happens, fed by ``InstrumentedFrontend``'s observer.
///
/// The format:
/// ```
/// # activated: nfcA UID 04A1B2C3D4E5F6 ATQA 0044 SAK 00
/// > 60  # GET_VERSION
/// < 0004040201000F03  # NTAG213
/// > 3004  # READ page 4 (pages 4–7)
/// < NAK 0  # NAK: invalid argument or not allowed (…)
/// > 3004
/// < TIMEOUT
/// # air: 12.345 ms on the air (frames 10.123 ms, gaps 2.222 ms)
/// frames: 3
/// ```
/// The `>` lines are exactly the frames (Type 2) or ISO-DEP payloads (APDUs, DESFire native commands) sent after
/// activation, so they can be replayed with `opennfc tag send`; activation appears only as a `#` comment, and the
/// last line counts the `>` lines.
///
/// After each activation, exchange and release, a `#   on air:` comment names the frames it put on the air by the
/// air-time model (docs/TIMING.md): each frame's duration and the gap the standard requires before it
/// (`> 358.7 µs after 86.4 µs`), the S(WTX) requests and responses of a card that asked for more time included
/// (`< S(WTX) … after …, > S(WTX) answer … after …`, when the frontend reports them: ``AirReporting``); the `# air:`
/// line before the count adds them all up (no reader or host time). The lines are ``AirFrame/traceText``'s.
final class TracePrinter {
    private let write: (String) -> Void
    private(set) var framesSent = 0
    private var mode = RFFrameMode.nfcA
    private var lastCommand: [UInt8] = []
    private var awaitingAnswer = false
    private var tracker = AirTracker()
    /// Every frame put on the air so far, by the model.
    private(set) var airFrames: [AirFrame] = []

    init(write: @escaping (String) -> Void = { Console.err($0) }) {
        self.write = write
    }

    func handle(_ event: RFTraceEvent) {
        let frames = tracker.frames(for: event)
        defer {
            if !frames.isEmpty {
                airFrames += frames
                write(frames.onAirComment() + "\n")
            }
        }
        switch event {
        case .activated(let t):
            mode = FrameDecoder.mode(t)
            write("# activated: \(t)\n")
        case .authenticated(let a):
            write("# authenticated: \(a)\n")
        case .waitingTimeExtensions:
            // Shown with the answer they delayed, in its `on air` line (ISO/IEC 14443-4 §7.3).
            break
        case .sent(let c):
            framesSent += 1
            lastCommand = c
            awaitingAnswer = true
            write(
                line("> \(c.hexString)", FrameDecoder.describe(command: c, mode: mode)))
        case .received(let r):
            awaitingAnswer = false
            let text: String
            switch r {
            case .frame(let b): text = "< \(b.hexString)"
            case .ack: text = "< 0A"
            case .nak(let n): text = "< NAK \(n)"
            }
            write(
                line(
                    text,
                    FrameDecoder.describe(response: r, to: lastCommand, mode: mode)))
        case .failed(let e):
            if awaitingAnswer {
                awaitingAnswer = false
                write(line("< TIMEOUT", e.code == .timeout ? nil : e.description))
            } else {
                write("# \(e)\n")
            }
        case .deactivated:
            write("# deactivated\n")
        }
    }

    /// A free comment line (`# …`), e.g. "tag removed" between tags of a batch.
    func comment(_ text: String) { write("# \(text)\n") }

    /// The closing lines: the air time, then the frame count.
    func finish() {
        if !airFrames.isEmpty {
            write(airFrames.airTotalComment() + "\n")
        }
        write("frames: \(framesSent)\n")
    }

    private func line(_ text: String, _ comment: String?) -> String {
        comment.map { "\(text)  # \($0)\n" } ?? "\(text)\n"
    }
}
