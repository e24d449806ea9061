/// The time a reader and its host add to each exchange beyond the air time (docs/TIMING.md, "Reader profiles").
///
/// Few readers publish such figures; each profile says where its numbers come from (``source``), and estimates
/// are labelled as such. The host link of a PN532 over UART is computed, not estimated: every byte of its host
/// frames costs 10 bits at the baud rate (PN532 User Manual §6.2.1: preamble, start code, LEN, LCS, TFI, command,
/// DCS, postamble around the data; an ACK frame of 6 bytes after each command).
package struct ReaderProfile: Sendable, Hashable {
    /// How the reader talks to its host.
    package enum HostLink: Sendable, Hashable {
        /// A fixed cost per exchange (USB and the PC/SC stack, the phone's own stack).
        case perExchange(NFCDuration)
        /// A UART carrying PN532 host frames at this baud rate (8N1: 10 bits a byte).
        case pn532UART(baud: Int)
    }

    /// The name `--profile` takes.
    package var name: String
    /// One line for people.
    package var summary: String
    /// Where the figures come from (a measurement, a datasheet, or "estimate: …").
    package var source: String
    /// Time the reader adds to each exchange (firmware, radio turnaround, the phone's OS).
    package var perExchange: NFCDuration
    /// Time the reader adds to each activation beyond its frames (configuration, RF settling).
    package var activation: NFCDuration
    /// Time from a tag entering the field to the reader noticing it (its polling loop, on average).
    package var detection: NFCDuration
    /// Host link cost of an exchange.
    package var hostLink: HostLink

    package init(
        name: String, summary: String, source: String, perExchange: NFCDuration, activation: NFCDuration,
        detection: NFCDuration, hostLink: HostLink
    ) {
        self.name = name
        self.summary = summary
        self.source = source
        self.perExchange = perExchange
        self.activation = activation
        self.detection = detection
        self.hostLink = hostLink
    }

    /// Host time of one exchange that sends `commandBytes` and receives `answerBytes` (payloads, as the procedures
    /// see them).
    package func hostTime(commandBytes: Int, answerBytes: Int) -> NFCDuration {
        switch hostLink {
        case .perExchange(let d): return d
        case .pn532UART(let baud):
            // InDataExchange: 10 frame bytes around the data (00 00 FF LEN LCS D4 40 Tg … DCS 00), the 6-byte ACK,
            // and the answer with 10 frame bytes around it (00 00 FF LEN LCS D5 41 status … DCS 00).
            let bytes = UInt64(commandBytes + 10 + 6 + answerBytes + 10)
            return NFCDuration(nanoseconds: (bytes * 10 * 1_000_000_000 + UInt64(baud) / 2) / UInt64(baud))
        }
    }

    /// An iPhone running Core NFC.
    package static let iPhone = ReaderProfile(
        name: "iphone", summary: "iPhone (Core NFC)",
        source:
            "estimate: Apple publishes no per-command latency; chosen so a whole NTAG215 NDEF read lands near the "
            + "100-300 ms that apps observe; detection is half of a ~100 ms polling cycle",
        perExchange: .milliseconds(4), activation: .milliseconds(10), detection: .milliseconds(50),
        hostLink: .perExchange(.zero))

    /// ACS ACR122U (PN532 behind a USB CCID interface) through pcscd.
    package static let acr122u = ReaderProfile(
        name: "acr122u", summary: "ACS ACR122U over USB (PC/SC)",
        source:
            "estimate: USB full-speed CCID round trip (1 ms frames) plus PN532 firmware, ~3 ms per APDU; pcscd "
            + "0.1 ms per APDU measured here (README.md, Figures)",
        perExchange: .milliseconds(3), activation: .milliseconds(5), detection: .milliseconds(100),
        hostLink: .perExchange(.microseconds(100)))

    /// ACS ACR1252U through pcscd.
    package static let acr1252u = ReaderProfile(
        name: "acr1252u", summary: "ACS ACR1252U over USB (PC/SC)",
        source:
            "estimate: USB CCID round trip with the reader's own firmware, ~2 ms per APDU; pcscd 0.1 ms measured here",
        perExchange: .milliseconds(2), activation: .milliseconds(4), detection: .milliseconds(100),
        hostLink: .perExchange(.microseconds(100)))

    /// A PN532 on a UART at 115 200 baud (HSU), driven directly (`pn532:` devices, libnfc).
    package static let pn532UART = ReaderProfile(
        name: "pn532-uart", summary: "PN532 over UART at 115200 baud",
        source:
            "host link computed from the frame lengths (PN532 User Manual §6.2); firmware time an estimate of 1 ms "
            + "per InDataExchange",
        perExchange: .milliseconds(1), activation: .milliseconds(2), detection: .milliseconds(50),
        hostLink: .pn532UART(baud: 115_200))

    /// Any other PC/SC reader.
    package static let genericPCSC = ReaderProfile(
        name: "pcsc", summary: "a generic PC/SC reader",
        source: "estimate: 5 ms per APDU for a USB CCID reader; pcscd 0.1 ms measured here",
        perExchange: .milliseconds(5), activation: .milliseconds(5), detection: .milliseconds(100),
        hostLink: .perExchange(.microseconds(100)))

    /// Every profile, for `--profile` and docs/TIMING.md.
    package static let all: [ReaderProfile] = [.iPhone, .acr122u, .acr1252u, .pn532UART, .genericPCSC]

    /// The profile named `name` (case-insensitive), nil when there is none.
    package static func named(_ name: String) -> ReaderProfile? {
        all.first { $0.name == name.lowercased() }
    }
}

/// Follows the events of an ``InstrumentedFrontend`` and names the frames each one put on the air by the model:
/// what `--trace` prints and `--timing` adds up. An exchange's frames include the S(WTX) requests and responses the
/// frontend reported before the answer (``RFTraceEvent/waitingTimeExtensions(_:)``).
package struct AirTracker: Sendable, Hashable {
    package var model: AirTimeModel
    private var target: RFTarget?
    private var pending: [UInt8]?
    private var wtxm: [UInt8] = []

    package init(model: AirTimeModel = .standard) { self.model = model }

    /// The frames `event` put on the air (empty for events that put none: polls, authentications by the reader,
    /// failed activations).
    package mutating func frames(for event: RFTraceEvent) -> [AirFrame] {
        switch event {
        case .activated(let t):
            target = t
            return model.activation(t, isoDEP: t.isISODEP)
        case .sent(let c):
            pending = c
            wtxm = []
            return []
        case .waitingTimeExtensions(let m):
            // Placed with the answer they delayed (ISO/IEC 14443-4 §7.3: between the command and the answer).
            wtxm += m
            return []
        case .received(let r):
            defer {
                pending = nil
                wtxm = []
            }
            guard let t = target, let c = pending else { return [] }
            return model.exchange(c, answer: r, target: t, wtxm: wtxm)
        case .failed:
            defer {
                pending = nil
                wtxm = []
            }
            guard let t = target, let c = pending else { return [] }
            return model.exchange(c, answer: nil, target: t)
        case .deactivated:
            defer { target = nil }
            return target.map { model.release($0) } ?? []
        case .authenticated:
            return []
        }
    }
}

/// Time spent by a run of exchanges, split into air, reader and host: what `--timing` reports.
package struct TimingAccount: Sendable, Hashable {
    package var profile: ReaderProfile
    private var tracker: AirTracker
    /// Air time of every frame (gaps included).
    package private(set) var air: AirTime = .zero
    package private(set) var reader: NFCDuration = .zero
    package private(set) var host: NFCDuration = .zero
    package private(set) var exchanges = 0
    package private(set) var activations = 0
    private var command: [UInt8] = []

    package init(profile: ReaderProfile, model: AirTimeModel = .standard) {
        self.profile = profile
        tracker = AirTracker(model: model)
    }

    /// All three together.
    package var total: NFCDuration { air.duration + reader + host }

    /// Counts one event of an ``InstrumentedFrontend``.
    package mutating func note(_ event: RFTraceEvent) {
        air = air + tracker.frames(for: event).total()
        switch event {
        case .activated:
            activations += 1
            reader = reader + profile.detection + profile.activation
        case .sent(let c):
            command = c
        case .received(let r):
            exchanges += 1
            reader = reader + profile.perExchange
            let n: Int
            switch r {
            case .frame(let b): n = b.count
            case .ack, .nak: n = 1
            }
            host = host + profile.hostTime(commandBytes: command.count, answerBytes: n)
        case .failed, .deactivated, .authenticated, .waitingTimeExtensions:
            break
        }
    }
}
