package import OpenNFCRF

/// How long things take on one simulated air interface. With a ``model`` (the standard timings have one) every
/// frame, frame delay and activation is timed by the air-time model of docs/TIMING.md, frame by frame; the older
/// per-byte figures below remain for fields built with explicit values. The field advances its ``VirtualClock`` by these amounts,
/// so a simulated session has realistic durations while a test still runs in microseconds. Each technology has its
/// own (``VirtualField/timing(for:)``), so an NTAG and a FeliCa card in one field are each timed right.
///
/// The NFC-A defaults follow ISO/IEC 14443-2/-3 at 106 kbit/s: a byte costs 9 bit times (8 data bits and odd
/// parity) of 128/fc ≈ 9.44 µs, a frame adds SOF/EOF and its CRC_A, and the frame delay time between command and
/// answer is about 1172/fc ≈ 86 µs (ISO/IEC 14443-3 §6.2.1.1). The silence timeout is what a reader waits before it
/// calls a mute tag gone; readers differ (a PN532 waits about 5 ms for level-3 frames), so it is configurable.
package struct VirtualTiming: Sendable, Hashable {
    /// Time per transmitted bit.
    package var bitTime: NFCDuration
    /// Frame delay time: from the end of a command to the start of the answer.
    package var frameDelay: NFCDuration
    /// How long a reader waits for an answer that never comes before reporting a timeout.
    package var silenceTimeout: NFCDuration
    /// Technology detection, anticollision and selection of one target (NFC-A: all cascade levels; NFC-B:
    /// REQB/ATQB; NFC-F: the Polling command and its answer slot; NFC-V: one inventory round).
    package var activation: NFCDuration
    /// The ISO-DEP activation step added after ``activation``: RATS and its ATS (NFC-A), ATTRIB (NFC-B).
    package var rats: NFCDuration
    /// Bits on the air per payload byte (9 for NFC-A with parity, 10 for NFC-B with start and stop bits, 8 for
    /// Manchester-coded NFC-F and for NFC-V).
    package var bitsPerByte: Int
    /// Bits on the air per frame beyond its payload: start/end of frame, CRC, and NFC-F's preamble, sync and LEN.
    package var frameOverheadBits: Int
    /// The air-time model (docs/TIMING.md) that times frames, frame delays and activations per technology; when
    /// set it replaces ``bitTime``, ``frameDelay``, ``activation`` and ``rats`` (the standard timings set it).
    package var model: AirTimeModel?

    package init(
        bitTime: NFCDuration, frameDelay: NFCDuration, silenceTimeout: NFCDuration, activation: NFCDuration,
        rats: NFCDuration, bitsPerByte: Int = 9, frameOverheadBits: Int = 20, model: AirTimeModel? = nil
    ) {
        self.model = model
        self.bitTime = bitTime
        self.frameDelay = frameDelay
        self.silenceTimeout = silenceTimeout
        self.activation = activation
        self.rats = rats
        self.bitsPerByte = bitsPerByte
        self.frameOverheadBits = frameOverheadBits
    }

    /// ISO/IEC 14443 type A at 106 kbit/s (see the type's discussion for the figures): a 2-byte CRC_A of 9-bit
    /// bytes plus start and end of frame is 20 bits of overhead.
    package static let iso14443A106 = VirtualTiming(
        bitTime: NFCDuration(nanoseconds: 9_440), frameDelay: NFCDuration(nanoseconds: 86_430),
        silenceTimeout: .milliseconds(5), activation: .microseconds(2_500), rats: .microseconds(1_000),
        model: .standard)

    /// ISO/IEC 14443 type B at 106 kbit/s (§7.1): 10-bit characters (start, 8 data, stop), SOF and EOF of 10 etu
    /// each and CRC_B (40 bits of overhead); TR0 + TR1 ≈ 144/fs ≈ 170 µs before the answer; REQB/ATQB and ATTRIB.
    package static let iso14443B106 = VirtualTiming(
        bitTime: NFCDuration(nanoseconds: 9_440), frameDelay: NFCDuration(nanoseconds: 169_900),
        silenceTimeout: .milliseconds(5), activation: .microseconds(2_000), rats: .microseconds(1_000),
        bitsPerByte: 10, frameOverheadBits: 40, model: .standard)

    /// FeliCa at 212 kbit/s (JIS X 6319-4 §7): Manchester bits of 64/fc ≈ 4.72 µs, a 48-bit preamble, 16-bit sync,
    /// the LEN byte and a 16-bit CRC (88 bits of overhead); Polling's first time slot starts 512 × 64/fc ≈ 2.42 ms
    /// after the command (§8.5.2). The answer delay of other commands depends on the card's PMm; 0.3 ms is typical
    /// of a Read Without Encryption of one block.
    package static let felica212 = VirtualTiming(
        bitTime: NFCDuration(nanoseconds: 4_720), frameDelay: .microseconds(302), silenceTimeout: .milliseconds(10),
        activation: NFCDuration(nanoseconds: 2_417_000), rats: .zero, bitsPerByte: 8, frameOverheadBits: 88,
        model: .standard)

    /// FeliCa at 424 kbit/s: half the bit time of ``felica212``, the same protocol delays.
    package static let felica424 = VirtualTiming(
        bitTime: NFCDuration(nanoseconds: 2_360), frameDelay: .microseconds(302), silenceTimeout: .milliseconds(10),
        activation: NFCDuration(nanoseconds: 2_417_000), rats: .zero, bitsPerByte: 8, frameOverheadBits: 88,
        model: AirTimeModel(felicaRate: .kbps424))

    /// ISO/IEC 15693 at the high data rate (§8 of part 2): the card answers at fc/512 ≈ 26.48 kbit/s (37.76 µs a
    /// bit), SOF and EOF of about 24 bits and CRC_15693 (40 bits of overhead); t1 = 4320/fc ≈ 319 µs before the
    /// answer (ISO/IEC 15693-3 §9.1). One inventory round of one slot takes about 5 ms.
    package static let iso15693High = VirtualTiming(
        bitTime: NFCDuration(nanoseconds: 37_760), frameDelay: NFCDuration(nanoseconds: 318_600),
        silenceTimeout: .milliseconds(20), activation: .microseconds(5_000), rats: .zero, bitsPerByte: 8,
        frameOverheadBits: 40, model: .standard)

    /// Nothing takes time: the clock moves only through explicit latency faults and the tags' processing times.
    package static let instant = VirtualTiming(
        bitTime: .zero, frameDelay: .zero, silenceTimeout: .zero, activation: .zero, rats: .zero)

    /// The default timing of a technology.
    package static func standard(for technology: RFTechnology) -> VirtualTiming {
        switch technology {
        case .nfcA: return .iso14443A106
        case .nfcB: return .iso14443B106
        case .nfcF: return .felica212
        case .nfcV: return .iso15693High
        }
    }

    /// Air time of a frame of `bytes` payload bytes with its framing overhead.
    package func frameTime(_ bytes: Int) -> NFCDuration {
        NFCDuration(nanoseconds: bitTime.nanoseconds * UInt64(bytes * bitsPerByte + frameOverheadBits))
    }

    /// Air time of a 4-bit ACK/NAK (4 bits plus start and end of frame).
    package var nibbleTime: NFCDuration { NFCDuration(nanoseconds: bitTime.nanoseconds * 6) }
}
