/// A frame from the PN532 that breaks UM0701-02 §6.2.1: what is wrong and at which byte of the stream (counted from
/// the first byte the decoder was given, 0-based), so a garbled link reads as "bad DCS at byte 11", not a hang.
package struct PN532FrameError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Code: String, Sendable, Hashable {
        /// `LEN + LCS` (or `LENM + LENL + LCS`) is not 0 modulo 256.
        case lengthChecksum
        /// `TFI + ΣPD + DCS` is not 0 modulo 256.
        case dataChecksum
        /// The byte after DCS is not the postamble `00`.
        case postamble
        /// An information frame of length 0, or an extended frame whose length would fit a normal one is legal; a
        /// length of 0 outside ACK is not.
        case length
        /// The TFI is neither `D4` nor `D5` (and the frame is not the error frame).
        case frameIdentifier
        /// Bytes that are no frame where a frame must start (one-shot decoding only).
        case startCode
        /// The frame ended before its length said it would (one-shot decoding only).
        case truncated
        /// Bytes after the frame (one-shot decoding only).
        case trailingBytes
    }

    package var code: Code
    /// Offset of the offending byte in the stream.
    package var offset: Int
    package var detail: String

    package init(_ code: Code, at offset: Int, _ detail: String) {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    package var description: String { "PN532 frame: \(detail) at byte \(offset)" }
}
