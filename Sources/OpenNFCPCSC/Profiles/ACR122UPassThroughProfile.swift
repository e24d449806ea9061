internal import OpenNFCBytes
package import OpenNFCRF

/// Native frames to level-3 tags through an ACS ACR122U (NXP PN532 behind an ACS MCU; ACR122U API §6.1 "Direct
/// Transmit", PN532 user manual §7.3.9 InCommunicateThru).
///
/// | Step | Bytes |
/// |---|---|
/// | Command | `FF 00 00 00 Lc D4 42 <frame>` (the PN532 adds CRC_A) |
/// | Answer | `D5 43 <status> <tag answer> 90 00` |
/// | Status `00` | the tag's answer: 16 bytes for READ, 8 for GET_VERSION, 2 (PACK) for PWD_AUTH, 32 for READ_SIG, a 4-bit ACK/NAK as one byte |
/// | Status `01` (timeout) | `RFError.timeout` (a mute tag; re-activate it) |
/// | Status `02`, `03` (CRC, parity) | `RFError.transmission` |
/// | Status `29`, `2B` (released, card gone) | `RFError.linkLost` |
/// | SW `63 00` | the reader failed the command: `RFError.timeout` |
///
/// So GET_VERSION, FAST_READ, PWD_AUTH, READ_SIG and every other NTAG command reach the tag. Frames are limited
/// to 252 bytes (the PN532 host frame holds 254 with `D4 42`). The `opennfc emulate` card server answers the same
/// pass-through, so this profile is tested end to end through pcscd; a physical ACR122U is not available to CI.
package struct ACR122UPassThroughProfile: PCSCProfile {
    package var name: String { "ACR122U pass-through (PN532 InCommunicateThru)" }

    package init() {}

    package var capabilities: RFCapabilities {
        RFCapabilities(
            maxCommandSize: 252, maxResponseSize: 252, rawFrames: true, technologies: [.nfcA], frameModes: [.nfcA])
    }

    /// The wrapped form of `frame`.
    package static func wrap(_ frame: [UInt8]) -> [UInt8] {
        [0xFF, 0x00, 0x00, 0x00, UInt8(frame.count + 2), 0xD4, 0x42] + frame
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        guard command.count <= 252 else {
            throw RFError(.frameTooLong, "\(command.count)-byte frame; the ACR122U carries at most 252")
        }
        let r = try card.transmitForRF(Self.wrap(command))
        return try Self.decode(r, reader: card.reader)
    }

    static func decode(_ r: APDUResponse, reader: String) throws(RFError) -> RFResponse {
        guard r.isSuccess else {
            if r.sw == 0x6300 { throw RFError(.timeout, "the reader '\(reader)' reported no answer (63 00)") }
            throw RFError(.protocolViolation, "pass-through refused on '\(reader)': SW \(Hex.encode([r.sw1, r.sw2]))")
        }
        guard r.data.count >= 3, r.data[0] == 0xD5, r.data[1] == 0x43 else {
            throw RFError(
                .protocolViolation, "'\(reader)' answered \(r.data.hexString) instead of D5 43 to InCommunicateThru")
        }
        let status = r.data[2] & 0x3F
        switch status {
        case 0x00: return fourBitAnswer(Array(r.data[3...]))
        case 0x01: throw RFError(.timeout, "the tag did not answer (PN532 status 01)")
        case 0x02, 0x03: throw RFError(.transmission, "CRC or parity error (PN532 status \(Hex.encode([status])))")
        case 0x29, 0x2B: throw RFError(.linkLost, "the tag left the field (PN532 status \(Hex.encode([status])))")
        default: throw RFError(.transmission, "PN532 status \(Hex.encode([status]))")
        }
    }
}
