internal import OpenNFCBytes
package import OpenNFCRF

/// FeliCa frames through an ACS ACR122U (NXP PN532 behind an ACS MCU; ACR122U API §6.1 "Direct Transmit", PN532
/// user manual §7.3.5 InListPassiveTarget and §7.3.9 InCommunicateThru). The procedures send `code IDm …` without
/// LEN (``RFFrameMode/felica``); this profile adds LEN for the PN532, which adds preamble, sync and CRC.
///
/// | Frame | Sent as | Answer |
/// |---|---|---|
/// | Polling `00 SC SC RC TSN` | InListPassiveTarget `FF 00 00 00 09 D4 4A 01 BrTy 00 SC SC RC TSN`, BrTy `01` 212 kbit/s, `02` 424 kbit/s (the polling payload is the InitiatorData) | `D5 4B NbTg Tg POL_LEN 01 IDm PMm [RD] 90 00` → `01 IDm PMm [RD]`; NbTg `00` → `RFError.timeout` |
/// | any other `code IDm …` | InCommunicateThru `FF 00 00 00 Lc D4 42 LEN code IDm …` | `D5 43 00 LEN code+1 IDm … 90 00` → the answer without LEN; status `01` → timeout; a LEN that does not count the answer → `protocolViolation` |
/// | SW `63 00` | — | `RFError.timeout` |
///
/// Frames are at most 251 bytes (the PN532 host frame holds 254 with `D4 42 LEN`). Tested end to end through pcscd
/// with `opennfc emulate`, whose card server answers the same commands; a physical ACR122U is not available to CI.
package struct ACR122UFeliCaProfile: PCSCProfile {
    /// 212 or 424 kbit/s (ATR card name `F0 11` / `F0 12`).
    package var bitRate: Int

    package init(bitRate: Int = 212) { self.bitRate = bitRate }

    package var name: String { "ACR122U FeliCa (PN532 InListPassiveTarget + InCommunicateThru, \(bitRate) kbit/s)" }

    package var capabilities: RFCapabilities {
        RFCapabilities(
            maxCommandSize: 251, maxResponseSize: 251, rawFrames: true, technologies: [.nfcF], frameModes: [.felica])
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        guard !command.isEmpty, command.count <= 251 else {
            throw RFError(.frameTooLong, "\(command.count)-byte FeliCa frame; the ACR122U carries 1 to 251")
        }
        if command[0] == 0x00 && command.count == 5 {
            let brty: UInt8 = bitRate == 424 ? 0x02 : 0x01
            let r = try card.transmitForRF([0xFF, 0x00, 0x00, 0x00, 0x09, 0xD4, 0x4A, 0x01, brty] + command)
            return try Self.decodeList(r, reader: card.reader)
        }
        let wrapped: [UInt8] = [0xD4, 0x42, UInt8(command.count + 1)] + command
        let r = try card.transmitForRF([0xFF, 0x00, 0x00, 0x00, UInt8(wrapped.count)] + wrapped)
        let answer = try ACR122UPassThroughProfile.decode(r, reader: card.reader)
        guard case .frame(let framed) = answer else {
            throw RFError(.protocolViolation, "a one-byte FeliCa answer from '\(card.reader)'")
        }
        return .frame(try unframe(framed, reader: card.reader))
    }

    /// InListPassiveTarget's answer for one FeliCa target: `D5 4B NbTg Tg POL_LEN POL_RES`.
    static func decodeList(_ r: APDUResponse, reader: String) throws(RFError) -> RFResponse {
        guard r.isSuccess else {
            if r.sw == 0x6300 { throw RFError(.timeout, "the reader '\(reader)' reported no answer (63 00)") }
            throw RFError(
                .protocolViolation, "InListPassiveTarget refused on '\(reader)': SW \(Hex.encode([r.sw1, r.sw2]))")
        }
        guard r.data.count >= 2, r.data[0] == 0xD5, r.data[1] == 0x4B else {
            throw RFError(.protocolViolation, "'\(reader)' answered \(r.data.hexString) instead of D5 4B")
        }
        guard r.data.count >= 3, r.data[2] > 0 else { throw RFError(.timeout, "no FeliCa card answered Polling") }
        guard r.data.count >= 5 else { throw RFError(.protocolViolation, "short InListPassiveTarget answer") }
        return .frame(try unframe(Array(r.data[4...]), reader: reader))
    }
}

/// Strips and checks the LEN byte of a FeliCa answer (JIS X 6319-4 §8.4.2: LEN counts itself).
func unframe(_ framed: [UInt8], reader: String) throws(RFError) -> [UInt8] {
    guard let len = framed.first, Int(len) == framed.count, framed.count >= 2 else {
        throw RFError(
            .protocolViolation, "FeliCa answer \(framed.hexString) from '\(reader)' does not start with its length")
    }
    return Array(framed.dropFirst())
}
