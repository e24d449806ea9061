internal import OpenNFCBytes
package import OpenNFCRF

/// FeliCa frames through an ACS ACR1252U / ACR1255U / ACR1251U (NXP PN512 behind an ACS MCU; ACR1252U API "Direct
/// Transmit"): `FF 00 00 00 Lc` followed by the whole FeliCa frame with its LEN byte, no PN53x framing.
///
/// | Frame | Sent as | Answer |
/// |---|---|---|
/// | `code …` (Polling included) | `FF 00 00 00 Lc LEN code …` | `LEN code+1 … 90 00` → the answer without LEN |
/// | no answer | — | `63 00` → `RFError.timeout` |
///
/// Frames are at most 254 bytes (LEN is one byte counting itself). Not verified on hardware (none available to CI):
/// the byte forms come from ACS's manuals and a public trace (IDm `01 01 0A 10 8E 1B AD 39`); `opennfc emulate`
/// answers the same form, so the profile runs end to end through pcscd.
package struct ACR1252UFeliCaProfile: PCSCProfile {
    package init() {}

    package var name: String { "ACR1252U FeliCa (direct transmit with LEN)" }

    package var capabilities: RFCapabilities {
        RFCapabilities(
            maxCommandSize: 254, maxResponseSize: 254, rawFrames: true, technologies: [.nfcF], frameModes: [.felica])
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        guard !command.isEmpty, command.count <= 254 else {
            throw RFError(.frameTooLong, "\(command.count)-byte FeliCa frame; the ACR1252U carries 1 to 254")
        }
        let framed = [UInt8(command.count + 1)] + command
        let r = try card.transmitForRF([0xFF, 0x00, 0x00, 0x00, UInt8(framed.count)] + framed)
        if r.sw == 0x6300 { throw RFError(.timeout, "the card did not answer (63 00 from '\(card.reader)')") }
        guard r.isSuccess else {
            throw RFError(
                .protocolViolation, "direct transmit refused on '\(card.reader)': SW \(Hex.encode([r.sw1, r.sw2]))")
        }
        guard !r.data.isEmpty else { throw RFError(.timeout, "the card did not answer (empty answer)") }
        return .frame(try unframe(r.data, reader: card.reader))
    }
}
