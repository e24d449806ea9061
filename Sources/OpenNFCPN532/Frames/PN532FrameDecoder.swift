/// Reads PN532 frames out of a byte stream (UM0701-02 §6.2.1), as they arrive in pieces from a serial line, an I2C
/// read or an SPI data-read window.
///
/// | Input | Result |
/// |---|---|
/// | bytes before the start code `00 FF` (the preamble, HSU wake-up `55`s, line noise) | skipped |
/// | `00 FF 00 FF` + postamble | ``PN532Frame/ack`` |
/// | `00 FF FF 00` + postamble | ``PN532Frame/nack`` |
/// | `00 FF 01 FF 7F 81 00` | ``PN532Frame/syntaxError`` |
/// | a normal or extended information frame | ``PN532Frame/information(tfi:data:)`` |
/// | a wrong LCS, DCS, postamble, length or TFI | ``PN532FrameError`` naming the byte offset; the decoder then resumes after the bad start code |
/// | an incomplete frame | nil until the rest arrives |
///
/// The ACK and NACK postambles are read when present and not required (several hosts send the next frame at once).
package struct PN532FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    /// Stream offset of `buffer[0]`.
    private var base = 0

    package init() {}

    /// Bytes received so far and not yet part of a returned frame.
    package var pending: Int { buffer.count }

    /// Adds received bytes.
    package mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 { buffer += bytes }

    /// Forgets everything buffered (a flush of the input, as after a host ACK aborts a command).
    package mutating func reset() {
        base += buffer.count
        buffer.removeAll()
    }

    /// The next whole frame, nil when more bytes are needed. A malformed frame throws once, and decoding goes on
    /// after its start code.
    package mutating func next() throws(PN532FrameError) -> PN532Frame? {
        while true {
            guard let s = startCode() else {
                // Keep a trailing 00 that may begin the next start code.
                let keep = buffer.last == 0x00 ? 1 : 0
                drop(buffer.count - keep)
                return nil
            }
            drop(s)
            do {
                guard let (frame, used) = try parse() else { return nil }
                drop(used)
                return frame
            } catch {
                drop(2)
                throw error
            }
        }
    }

    private func startCode() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for i in 0..<(buffer.count - 1) where buffer[i] == 0x00 && buffer[i + 1] == 0xFF { return i }
        return nil
    }

    private mutating func drop(_ n: Int) {
        buffer.removeFirst(n)
        base += n
    }

    /// Parses the frame whose start code is at `buffer[0]`; nil when it is incomplete.
    private func parse() throws(PN532FrameError) -> (PN532Frame, Int)? {
        let b = buffer
        guard b.count >= 4 else { return nil }
        // ACK and NACK: the postamble is optional here.
        if b[2] == 0x00 && b[3] == 0xFF { return (.ack, b.count >= 5 && b[4] == 0x00 ? 5 : 4) }
        if b[2] == 0xFF && b[3] == 0x00 { return (.nack, b.count >= 5 && b[4] == 0x00 ? 5 : 4) }
        var length: Int
        var header: Int
        if b[2] == 0xFF && b[3] == 0xFF {
            guard b.count >= 7 else { return nil }
            length = Int(b[4]) << 8 | Int(b[5])
            guard b[4] &+ b[5] &+ b[6] == 0 else {
                throw PN532FrameError(
                    .lengthChecksum, at: base + 6,
                    "extended length \(PN532Frame.hex([b[4], b[5]])) with LCS \(PN532Frame.hex([b[6]])) do not sum to 00"
                )
            }
            header = 7
        } else {
            length = Int(b[2])
            guard b[2] &+ b[3] == 0 else {
                throw PN532FrameError(
                    .lengthChecksum, at: base + 3,
                    "LEN \(PN532Frame.hex([b[2]])) with LCS \(PN532Frame.hex([b[3]])) do not sum to 00")
            }
            header = 4
        }
        guard length >= 1 else {
            throw PN532FrameError(.length, at: base + header - 2, "an information frame of length 0")
        }
        guard b.count >= header + length + 2 else { return nil }
        let body = Array(b[header..<(header + length)])
        let dcs = b[header + length]
        guard body.reduce(dcs, &+) == 0 else {
            throw PN532FrameError(
                .dataChecksum, at: base + header + length,
                "DCS \(PN532Frame.hex([dcs])) does not complete the \(length) bytes of TFI and data to 00")
        }
        guard b[header + length + 1] == 0x00 else {
            throw PN532FrameError(
                .postamble, at: base + header + length + 1,
                "postamble \(PN532Frame.hex([b[header + length + 1]])) instead of 00")
        }
        let used = header + length + 2
        if length == 1 && body[0] == 0x7F { return (.syntaxError, used) }
        guard body[0] == PN532Frame.hostToPN532 || body[0] == PN532Frame.pn532ToHost else {
            throw PN532FrameError(
                .frameIdentifier, at: base + header, "TFI \(PN532Frame.hex([body[0]])) is neither D4 nor D5")
        }
        return (.information(tfi: body[0], data: Array(body.dropFirst())), used)
    }
}

extension PN532Frame {
    /// Decodes exactly one frame: optional preamble zeros, the frame, an optional postamble, nothing else.
    package init(decoding bytes: [UInt8]) throws(PN532FrameError) {
        var i = 0
        while i < bytes.count && bytes[i] == 0x00 && !(i + 1 < bytes.count && bytes[i + 1] == 0xFF) { i += 1 }
        guard i + 1 < bytes.count, bytes[i] == 0x00, bytes[i + 1] == 0xFF else {
            throw PN532FrameError(.startCode, at: min(i, bytes.count), "no start code 00 FF")
        }
        if i > 0, bytes[..<i].contains(where: { $0 != 0 }) {
            throw PN532FrameError(.startCode, at: 0, "bytes before the start code")
        }
        var decoder = PN532FrameDecoder()
        decoder.append(bytes)
        guard let frame = try decoder.next() else {
            throw PN532FrameError(.truncated, at: bytes.count, "the frame ends early")
        }
        guard decoder.pending == 0 else {
            throw PN532FrameError(.trailingBytes, at: bytes.count - decoder.pending, "bytes after the frame")
        }
        self = frame
    }
}
