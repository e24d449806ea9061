internal import OpenNFCBytes
internal import OpenNFCRF

/// The Proxmark3 client's binary `.trace` file (`trace save` / `trace load`): the device's trace buffer as it is,
/// with no file header, magic or version — so nothing in it says which protocol it holds; the client's
/// `trace list -t 14a|14b|15|felica` decides, and so does our `--protocol` (docs/TRACES.md).
///
/// Each record, little-endian and packed (the RRG/Iceman repository's `include/pm3_cmd.h`, `tracelog_hdr_t`):
///
/// | Offset | Size | Field |
/// |---|---|---|
/// | 0 | 4 | start of the frame in carrier cycles (1/13.56 MHz); wraps after 2^32 cycles (316.7 s) |
/// | 4 | 2 | duration in carrier cycles, at most `FFFF` (ISO 15693: ÷ 32) |
/// | 6 | 2 | bits 0–14 the data length, bit 15 set when the card sent it |
/// | 8 | n | the frame, CRC included |
/// | 8 + n | ⌈n / 8⌉ | parity bits, MSB first: frame byte j's bit is bit 7 − (j mod 8) of parity byte j / 8 |
///
/// Written here: 14a frames carry their parity bits (odd parity, or MIFARE Classic's enciphered ones as recorded);
/// other protocols zeros. The duration is the frame's air time (``AirFrame/air``: the recorded one, or
/// ``AirTimeModel``'s for its bytes) as the Proxmark3 counts it, from the start of the first bit to the end of the
/// last modulation: for 14a that leaves out the end of frame, one bit period without modulation (ISO/IEC 14443-2
/// §8.1.3, §8.2.5), so a byte is 9 bit periods after the start bit — which is how the client tells a 7-bit REQA
/// (1024 cycles) from a byte. 14b, 15 and FeliCa end on a modulated EOF: their whole air time. Field events have no
/// record and are left out.
package enum ProxmarkTrace {
    /// Carrier cycles per second.
    static let carrier: UInt64 = 13_560_000
    static let headerSize = 8
    /// A 14a frame's end of frame, one bit period at 106 kbit/s: in the model's air time, not in the record's.
    static let endOfFrame = NFCAAir.BitRate.kbps106.etu

    /// Nanoseconds to carrier cycles and back, both rounded to the nearest: a cycle (73.7 ns) is longer than a
    /// nanosecond, so cycles → ns → cycles gives the cycles back.
    static func cycles(ns: UInt64) -> UInt64 {
        ns / 1_000_000_000 * carrier + (ns % 1_000_000_000 * carrier + 500_000_000) / 1_000_000_000
    }
    static func ns(cycles: UInt64) -> UInt64 {
        cycles / carrier * 1_000_000_000 + (cycles % carrier * 1_000_000_000 + carrier / 2) / carrier
    }

    package static func encode(_ trace: AirTrace, protocol p: AirProtocol) -> [UInt8] {
        var out: [UInt8] = []
        var trace = trace
        trace.fillAirTime()
        for f in trace.frames where f.isFrame && !f.bytes.isEmpty {
            let n = min(f.bytes.count, 0x7FFF)
            let start = UInt32(truncatingIfNeeded: cycles(ns: f.time))
            var duration = f.air.cycles
            if p == .iso14443a { duration -= min(duration, endOfFrame.cycles) }
            if p == .iso15693 { duration /= 32 }
            let header = f.event == .tag ? UInt16(n) | 0x8000 : UInt16(n)
            out += [
                UInt8(start & 0xFF), UInt8(start >> 8 & 0xFF), UInt8(start >> 16 & 0xFF), UInt8(start >> 24),
                UInt8(min(duration, 0xFFFF) & 0xFF), UInt8(min(duration, 0xFFFF) >> 8),
                UInt8(header & 0xFF), UInt8(header >> 8),
            ]
            out += f.bytes.prefix(n)
            var parity = [UInt8](repeating: 0, count: (n - 1) / 8 + 1)
            if p == .iso14443a {
                for (j, bit) in f.parityBits.prefix(n).enumerated() where bit & 1 == 1 {
                    parity[j / 8] |= 0x80 >> UInt8(j % 8)
                }
            }
            out += parity
        }
        return out
    }

    /// Reads every record. Strict: a header or a record that runs past the end of the file, or a data length of 0
    /// (the device never logs one), is an error naming the record (1-based) and its byte offset. Timestamps that go
    /// backwards are taken as the 32-bit counter wrapping.
    package static func decode(_ bytes: [UInt8], protocol p: AirProtocol, file: String) throws(AirTrace.Problem)
        -> AirTrace
    {
        var frames: [AirFrame] = []
        var offset = 0
        var number = 0
        var epoch: UInt64 = 0
        var previous: UInt32?
        while offset < bytes.count {
            number += 1
            let at = offset
            func fail(_ o: Int, _ what: String) -> AirTrace.Problem {
                AirTrace.Problem("\(file): record \(number) at byte \(at): \(what) (byte \(o))")
            }
            guard bytes.count - offset >= headerSize else {
                throw fail(
                    offset, "truncated: \(bytes.count - offset) bytes left, a record header has \(headerSize)")
            }
            let start = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
            var duration = UInt64(bytes[offset + 4]) | UInt64(bytes[offset + 5]) << 8
            let header = UInt16(bytes[offset + 6]) | UInt16(bytes[offset + 7]) << 8
            let n = Int(header & 0x7FFF)
            guard n > 0 else { throw fail(offset + 6, "data length 0: no Proxmark3 records an empty frame") }
            let parityCount = (n - 1) / 8 + 1
            guard bytes.count - offset - headerSize >= n + parityCount else {
                throw fail(
                    offset + 6,
                    "the record's \(n) data bytes and \(parityCount) parity bytes run past the end of the file "
                        + "(\(bytes.count - offset - headerSize) bytes left)")
            }
            let data = Array(bytes[(offset + headerSize)..<(offset + headerSize + n)])
            let parityBytes = bytes[(offset + headerSize + n)..<(offset + headerSize + n + parityCount)]
            if let previous, start < previous { epoch += 1 << 32 }
            previous = start
            if p == .iso15693 { duration *= 32 }
            var f = AirFrame(
                header & 0x8000 != 0 ? .tag : .reader, time: ns(cycles: epoch + UInt64(start)), bytes: data,
                air: AirTime(cycles: duration > 0 && p == .iso14443a ? duration + endOfFrame.cycles : duration))
            if p == .iso14443a {
                let bits = (0..<n).map { j in parityBytes[parityBytes.startIndex + j / 8] >> UInt8(7 - j % 8) & 1 }
                if bits != AirFrame.oddParity(data) { f.parity = bits }
                // The client's rule for a 1-byte frame: under 1088 cycles it is short, one bit less per 128 cycles.
                if n == 1, duration > 0, duration < 1088 {
                    f.lastBits = max(1, 7 - Int((1087 - duration) / 128))
                }
            }
            frames.append(f)
            offset += headerSize + n + parityCount
        }
        var trace = AirTrace(frames: frames, protocols: [p])
        trace.fillAirTime()
        return trace
    }
}
