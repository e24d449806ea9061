internal import OpenNFCBytes
package import OpenNFCRF

/// Native frames to level-3 tags through an ACS ACR1252U / ACR1255U (NXP PN512 behind an ACS MCU; ACR1252U API
/// "Direct Transmit"): the frame goes in `FF 00 00 00 Lc` with no PN53x framing.
///
/// | Step | Bytes |
/// |---|---|
/// | Command | `FF 00 00 00 Lc <frame>` |
/// | Answer with data | `<tag answer> 90 00` |
/// | 4-bit ACK/NAK | one byte + `90 00`, or `90 00` alone for an ACK on some firmware |
/// | Failure | `63 00` → `RFError.timeout` (also what some firmware reports for a write that an ACK confirmed [?]) |
///
/// Not verified on hardware (none available to CI); the byte forms come from ACS's manuals and public traces.
package struct ACR1252UPassThroughProfile: PCSCProfile {
    package var name: String { "ACR1252U pass-through (direct transmit)" }

    package init() {}

    package var capabilities: RFCapabilities {
        RFCapabilities(maxCommandSize: 250, maxResponseSize: 250, rawFrames: true, technologies: [.nfcA])
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        guard !command.isEmpty, command.count <= 250 else {
            throw RFError(.frameTooLong, "\(command.count)-byte frame; the ACR1252U carries 1 to 250")
        }
        let r = try card.transmitForRF([0xFF, 0x00, 0x00, 0x00, UInt8(command.count)] + command)
        if r.sw == 0x6300 { throw RFError(.timeout, "the tag did not answer (63 00 from '\(card.reader)')") }
        guard r.isSuccess else {
            throw RFError(
                .protocolViolation, "direct transmit refused on '\(card.reader)': SW \(Hex.encode([r.sw1, r.sw2]))")
        }
        if r.data.isEmpty { return .ack }
        return fourBitAnswer(r.data)
    }
}
