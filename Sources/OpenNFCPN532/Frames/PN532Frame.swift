/// One frame of the PN532 host protocol (NXP UM0701-02 §6.2.1, "Host controller communication protocol"), the same
/// on the HSU, I2C and SPI links.
///
/// | Frame | Bytes |
/// |---|---|
/// | normal information | `00 00 FF LEN LCS TFI PD0…PDn DCS 00`; LEN counts TFI and PD (1…255), `LEN + LCS ≡ 0`, `TFI + ΣPD + DCS ≡ 0` (mod 256) |
/// | extended information | `00 00 FF FF FF LENM LENL LCS TFI PD0…PDn DCS 00`; `LENM + LENL + LCS ≡ 0` |
/// | ACK | `00 00 FF 00 FF 00` |
/// | NACK | `00 00 FF FF 00 00` |
/// | syntax error (application level) | `00 00 FF 01 FF 7F 81 00`: a normal frame whose one byte is `7F` |
///
/// TFI is `D4` from the host and `D5` from the PN532; PD0 is the command code (the answer's is the command's + 1).
package enum PN532Frame: Sendable, Hashable, CustomStringConvertible {
    /// An information frame: its frame identifier (`D4` host → PN532, `D5` PN532 → host) and its data PD0…PDn.
    case information(tfi: UInt8, data: [UInt8])
    /// The acknowledgement: the PN532 took a well-formed command; from the host, it aborts the running command.
    case ack
    /// Negative acknowledgement from the host: send the last answer again.
    case nack
    /// The PN532's application-level error frame (a command it could not parse).
    case syntaxError

    /// The frame identifier of host commands.
    package static let hostToPN532: UInt8 = 0xD4
    /// The frame identifier of the PN532's answers.
    package static let pn532ToHost: UInt8 = 0xD5
    /// The most bytes TFI and data may hold (an extended frame's 16-bit length).
    package static let maxInformationLength = 0xFFFF

    /// A host command frame: `D4`, the command code and its parameters.
    package static func command(_ code: UInt8, _ parameters: [UInt8] = []) -> PN532Frame {
        .information(tfi: hostToPN532, data: [code] + parameters)
    }

    /// The bytes on the link: preamble, start code, length, checksums and postamble. An information frame whose TFI
    /// and data exceed 255 bytes is written as an extended frame; `LEN` 255 itself is written extended too (the
    /// normal frame's `FF` length would read as the extended marker).
    package var encoded: [UInt8] {
        switch self {
        case .ack: return [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
        case .nack: return [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
        case .syntaxError: return [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]
        case .information(let tfi, let data):
            let length = data.count + 1
            precondition(length <= Self.maxInformationLength, "a PN532 frame holds at most 65535 bytes")
            var out: [UInt8] = [0x00, 0x00, 0xFF]
            if length < 0xFF {
                out += [UInt8(length), UInt8(truncatingIfNeeded: 0x100 - length)]
            } else {
                let m = UInt8(length >> 8)
                let l = UInt8(length & 0xFF)
                out += [0xFF, 0xFF, m, l, 0 &- (m &+ l)]
            }
            out.append(tfi)
            out += data
            out.append(0 &- data.reduce(tfi, &+))
            out.append(0x00)
            return out
        }
    }

    package var description: String {
        switch self {
        case .ack: return "ACK"
        case .nack: return "NACK"
        case .syntaxError: return "syntax error frame"
        case .information(let tfi, let data):
            return "\(Self.hex([tfi])) \(Self.hex(data))"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789ABCDEF")
        var s = ""
        for (i, b) in bytes.enumerated() {
            if i > 0 { s.append(" ") }
            s.append(digits[Int(b >> 4)])
            s.append(digits[Int(b & 0x0F)])
        }
        return s
    }
}
