public import OpenNFCRF

/// How long things take on the simulated air interface. The field advances its ``VirtualClock`` by these amounts,
/// so a simulated session has realistic durations while a test still runs in microseconds.
///
/// The defaults follow ISO 14443-2/-3 at 106 kbit/s: a byte costs 9 bit times (8 data bits and odd parity) of
/// 128/fc ≈ 9.44 µs, a frame adds SOF/EOF and its CRC_A, and the frame delay time between command and answer is
/// about 1172/fc ≈ 86 µs (ISO 14443-3 §6.2.1.1). The silence timeout is what a reader waits before it calls a mute
/// tag gone; readers differ (a PN532 waits about 5 ms for level-3 frames), so it is configurable.
public struct VirtualTiming: Sendable, Hashable {
    /// Time per transmitted bit.
    public var bitTime: NFCDuration
    /// Frame delay time: from the end of a command to the start of the answer.
    public var frameDelay: NFCDuration
    /// How long a reader waits for an answer that never comes before reporting a timeout.
    public var silenceTimeout: NFCDuration
    /// Anticollision and SELECT (all cascade levels) of one NFC-A tag.
    public var activation: NFCDuration
    /// RATS and its ATS, added for an ISO-DEP activation.
    public var rats: NFCDuration

    public init(
        bitTime: NFCDuration, frameDelay: NFCDuration, silenceTimeout: NFCDuration, activation: NFCDuration,
        rats: NFCDuration
    ) {
        self.bitTime = bitTime
        self.frameDelay = frameDelay
        self.silenceTimeout = silenceTimeout
        self.activation = activation
        self.rats = rats
    }

    /// ISO 14443 type A at 106 kbit/s (see the type's discussion for the figures).
    public static let iso14443A106 = VirtualTiming(
        bitTime: NFCDuration(nanoseconds: 9_440), frameDelay: NFCDuration(nanoseconds: 86_430),
        silenceTimeout: .milliseconds(5), activation: .microseconds(2_500), rats: .microseconds(1_000))

    /// Nothing takes time: the clock moves only through explicit latency faults and the tags' processing times.
    public static let instant = VirtualTiming(
        bitTime: .zero, frameDelay: .zero, silenceTimeout: .zero, activation: .zero, rats: .zero)

    /// Air time of a frame of `bytes` payload bytes plus its 2-byte CRC_A (start and end of frame count as 2 bits).
    func frameTime(_ bytes: Int) -> NFCDuration {
        NFCDuration(nanoseconds: bitTime.nanoseconds * UInt64((bytes + 2) * 9 + 2))
    }

    /// Air time of a 4-bit ACK/NAK (4 bits plus start and end of frame).
    var nibbleTime: NFCDuration { NFCDuration(nanoseconds: bitTime.nanoseconds * 6) }
}
