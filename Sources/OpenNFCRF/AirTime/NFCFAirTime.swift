/// Air time of FeliCa (NFC-F, JIS X 6319-4) frames and the delays between them.
///
/// | Quantity | Value | Source |
/// |---|---|---|
/// | Bit | Manchester, 64/fc at 212 kbit/s, 32/fc at 424 kbit/s, MSB first | JIS X 6319-4 §7.1, §7.2 |
/// | Frame | preamble (6 bytes of 00, 48 bits) + sync `B2 4D` + LEN + payload + CRC (2 bytes) | JIS X 6319-4 §7.3 |
/// | Polling answer | time slot 0 starts 512 × 64/fc after the request; each slot is 256 × 64/fc | JIS X 6319-4 §8.5.2 (Polling) |
/// | Other answers | within the PMm's maximum response time T = (256·16/fc)·((B+1)·n + (A+1))·4^E | JIS X 6319-4 §8.5.1 (PMm) |
///
/// JIS X 6319-4 sets no least delay before other answers that the model could use; it puts none (docs/TIMING.md,
/// "NFC-F"): the card's own processing time carries the delay.
package enum NFCFAir {
    /// The FeliCa bit rates.
    package enum BitRate: Int, Sendable, Hashable, CaseIterable {
        case kbps212 = 212, kbps424 = 424
        /// One bit in carrier cycles.
        package var bit: AirTime { AirTime(cycles: self == .kbps212 ? 64 : 32) }
    }

    /// Preamble, sync and LEN: 9 bytes before the payload; CRC: 2 after.
    package static let overheadBytes = 6 + 2 + 1 + 2

    /// A frame whose payload (command code, IDm, parameters: what LEN counts, less LEN itself) is `payload` bytes.
    package static func frame(payload: Int, rate: BitRate = .kbps212) -> AirTime {
        rate.bit * (8 * (overheadBytes + payload))
    }

    /// When time slot `slot` of a Polling answer starts after the end of the request: (512 + 256·slot) × 64/fc.
    package static func pollingSlotStart(_ slot: Int) -> AirTime { AirTime(cycles: UInt64(512 + 256 * slot) * 64) }

    /// The maximum response time encoded in one PMm byte for a command on `n` services or blocks:
    /// (256·16/fc)·((B+1)·n + (A+1))·4^E, with E = bits 7–6, B = bits 5–3, A = bits 2–0.
    package static func maximumResponseTime(pmmByte: UInt8, n: Int) -> AirTime {
        let a = UInt64(pmmByte & 0x07)
        let b = UInt64(pmmByte >> 3 & 0x07)
        let e = UInt64(pmmByte >> 6)
        return AirTime(cycles: 4096 * ((b + 1) * UInt64(n) + (a + 1)) << (2 * e))
    }

    /// A command (payload without LEN) and its answer; a Polling command (code 00) is answered in slot 0.
    package static func exchange(
        command: [UInt8], answerPayload: Int?, rate: BitRate = .kbps212, label: String = ""
    ) -> [AirFrame] {
        var frames = [AirFrame(.reader, gap: .zero, air: frame(payload: command.count, rate: rate), label: label)]
        if let answerPayload {
            let gap = command.first == 0x00 ? pollingSlotStart(0) : .zero
            frames.append(
                AirFrame(.tag, gap: gap, air: frame(payload: answerPayload, rate: rate), label: "answer"))
        }
        return frames
    }

    /// Detection: Polling (`00` + system code + request code + time slots: 5 bytes) and the answer in slot 0
    /// (`01` IDm PMm, 17 bytes, or 19 with request data).
    package static func activation(requestData: Bool, rate: BitRate = .kbps212) -> [AirFrame] {
        exchange(
            command: [0x00, 0xFF, 0xFF, 0x00, 0x00], answerPayload: requestData ? 19 : 17, rate: rate, label: "Polling")
    }
}
