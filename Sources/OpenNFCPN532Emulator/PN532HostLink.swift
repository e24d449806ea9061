/// The chip's end of the host link (NXP UM0701-02 §6.2.1): what the PN532 makes of the bytes the host sends, and
/// how it frames its own answers. Written from the chip's side, apart from the driver's codec (`OpenNFCPN532`), so
/// that the two readings of §6.2.1 meet only in tests.
///
/// | Host bytes | Event |
/// |---|---|
/// | anything before `00 FF` (preamble, the HSU wake-up `55 55 00…`, noise) | skipped |
/// | `00 FF 00 FF` | ``Event/ack`` (aborts the command in progress) |
/// | `00 FF FF 00` | ``Event/nack`` (send the last answer again) |
/// | a normal or extended information frame with TFI `D4` | ``Event/command(_:)`` (command code and parameters) |
/// | a wrong LCS, DCS or TFI | ``Event/malformed(_:)`` with the stream offset of the bad byte |
struct PN532HostLink {
    enum Event: Equatable {
        case command([UInt8])
        case ack
        case nack
        case malformed(String)
    }

    private var buffer: [UInt8] = []
    private var consumed = 0

    /// The events in `bytes` (with what was buffered before), in order.
    mutating func receive(_ bytes: [UInt8]) -> [Event] {
        buffer += bytes
        var events: [Event] = []
        while let event = nextEvent() { events.append(event) }
        return events
    }

    private mutating func drop(_ n: Int) {
        buffer.removeFirst(n)
        consumed += n
    }

    private mutating func nextEvent() -> Event? {
        while true {
            var start: Int?
            if buffer.count >= 2 {
                for i in 0..<(buffer.count - 1) where buffer[i] == 0x00 && buffer[i + 1] == 0xFF {
                    start = i
                    break
                }
            }
            guard let s = start else {
                drop(buffer.count - (buffer.last == 0x00 ? 1 : 0))
                return nil
            }
            drop(s)
            guard buffer.count >= 4 else { return nil }
            let (b2, b3) = (buffer[2], buffer[3])
            if b2 == 0x00 && b3 == 0xFF {
                drop(4)
                return .ack
            }
            if b2 == 0xFF && b3 == 0x00 {
                drop(4)
                return .nack
            }
            var length = Int(b2)
            var header = 4
            if b2 == 0xFF && b3 == 0xFF {
                guard buffer.count >= 7 else { return nil }
                length = Int(buffer[4]) << 8 | Int(buffer[5])
                header = 7
                if buffer[4] &+ buffer[5] &+ buffer[6] != 0 {
                    let at = consumed + 6
                    drop(2)
                    return .malformed("extended length checksum wrong at byte \(at)")
                }
            } else if b2 &+ b3 != 0 {
                let at = consumed + 3
                drop(2)
                return .malformed("length checksum wrong at byte \(at)")
            }
            if length == 0 {
                let at = consumed + 2
                drop(2)
                return .malformed("zero length at byte \(at)")
            }
            guard buffer.count >= header + length + 1 else { return nil }
            let body = Array(buffer[header..<(header + length)])
            let dcs = buffer[header + length]
            if body.reduce(dcs, &+) != 0 {
                let at = consumed + header + length
                drop(2)
                return .malformed("data checksum wrong at byte \(at)")
            }
            // The postamble is not waited for: the next frame may start right away.
            drop(header + length + 1)
            guard body[0] == 0xD4 else { return .malformed("frame identifier \(body[0]) is not D4") }
            return .command(Array(body.dropFirst()))
        }
    }

    /// The chip's acknowledgement of a well-formed command.
    static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    /// The application-level error frame (UM0701-02 §6.2.1.5).
    static let syntaxError: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]

    /// An answer `D5 code data…` framed as a normal frame, or an extended one above 254 bytes of data.
    static func frame(_ data: [UInt8]) -> [UInt8] {
        let n = data.count + 1
        var out: [UInt8] = [0x00, 0x00, 0xFF]
        if n <= 0xFE {
            out += [UInt8(n), UInt8(truncatingIfNeeded: 0x100 - n)]
        } else {
            let hi = UInt8(n >> 8)
            let lo = UInt8(n & 0xFF)
            out += [0xFF, 0xFF, hi, lo, 0 &- (hi &+ lo)]
        }
        var sum: UInt8 = 0xD5
        for b in data { sum = sum &+ b }
        out.append(0xD5)
        out += data
        out += [0 &- sum, 0x00]
        return out
    }
}
