internal import OpenNFCBytes
package import OpenNFCRF

/// NFC Forum Type 1 (Topaz/Jewel) frames through an ACS ACR122U: the PN532 carries Type 1 commands only through
/// InDataExchange (PN532 user manual §7.3.8; its InCommunicateThru has no Type 1 framing), adding the UID echo itself
/// and dropping the address echo from the answer (ACS ACR122U/ACR122L manuals, Topaz examples). This profile turns
/// the procedures' T1T frames (`CMD ADD DATA UID0–3`, NFC Forum T1T 1.2) into that form and back.
///
/// | T1T command | Sent as (`FF 00 00 00 Lc D4 40 01 …`) | Answer (`D5 41 00 …`) → handed to the procedure |
/// |---|---|---|
/// | RID | — | `RFError.unsupported`: the PN532 firmware cannot send RID; HR0/HR1 come from RALL instead |
/// | RALL `00 00 00 UID` | `00` | `HR0 HR1` + 120 bytes, as is |
/// | READ `01 ADD 00 UID` | `01 ADD` | `DATA` → `ADD DATA` |
/// | WRITE-E / WRITE-NE `53`/`1A ADD DATA UID` | `53`/`1A ADD DATA` | `DATA` → `ADD DATA` |
/// | RSEG, READ8 `10`/`02 ADD 00×8 UID` | `10`/`02 ADD` | 128 / 8 bytes → `ADD` + bytes [?] |
/// | WRITE-E8 / WRITE-NE8 `54`/`1B ADD8 D0–D7 UID` | `54`/`1B ADD8 D0–D7` | 8 bytes → `ADD8` + bytes [?] |
///
/// PN532 status `01` is a timeout, `02`/`03` a transmission error, `29`/`2B` a lost tag; SW `63 00` a timeout. The
/// Topaz 512 commands ([?]) follow the same rule as the static ones; they are exercised against `opennfc emulate`,
/// which answers InDataExchange this way, not against a physical reader. Where a reader cannot carry Type 1 at all
/// (ACR1252U-family pass-through sends raw frames without Type 1 framing; Part 3 storage-card APDUs address pages,
/// not Type 1 bytes), ``PCSCProfileSelection`` gives this profile only to readers that answer InDataExchange.
package struct ACR122UType1Profile: PCSCProfile {
    package var name: String { "ACR122U Type 1 (PN532 InDataExchange)" }

    package init() {}

    package var capabilities: RFCapabilities {
        RFCapabilities(
            maxCommandSize: 14, maxResponseSize: 252, rawFrames: true, technologies: [.nfcA], frameModes: [.type1])
    }

    /// The InDataExchange APDU for a T1T frame (UID echo removed), or nil for RID.
    package static func wrap(_ frame: [UInt8]) -> [UInt8]? {
        guard let cmd = frame.first, cmd != 0x78, frame.count == 7 || frame.count == 14 else { return nil }
        let body: [UInt8]
        switch (cmd, frame.count) {
        case (0x00, 7): body = [0x00]
        case (0x01, 7), (0x10, 14), (0x02, 14): body = [cmd, frame[1]]
        case (0x53, 7), (0x1A, 7): body = Array(frame[0..<3])
        case (0x54, 14), (0x1B, 14): body = Array(frame[0..<10])
        default: body = Array(frame.dropLast(4))
        }
        return [0xFF, 0x00, 0x00, 0x00, UInt8(body.count + 3), 0xD4, 0x40, 0x01] + body
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        guard command.first != 0x78 else {
            throw RFError(.unsupported, "the ACR122U's PN532 firmware cannot send RID (HR0/HR1 come with RALL)")
        }
        guard let apdu = Self.wrap(command) else {
            throw RFError(.unsupported, "\(command.count)-byte frame is no Type 1 command the PN532 carries")
        }
        let r = try card.transmitForRF(apdu)
        guard r.isSuccess else {
            if r.sw == 0x6300 { throw RFError(.timeout, "the reader '\(card.reader)' reported no answer (63 00)") }
            throw RFError(
                .protocolViolation, "InDataExchange refused on '\(card.reader)': SW \(Hex.encode([r.sw1, r.sw2]))")
        }
        guard r.data.count >= 3, r.data[0] == 0xD5, r.data[1] == 0x41 else {
            throw RFError(.protocolViolation, "'\(card.reader)' answered \(r.data.hexString) instead of D5 41")
        }
        let status = r.data[2] & 0x3F
        switch status {
        case 0x00: break
        case 0x01: throw RFError(.timeout, "the tag did not answer (PN532 status 01)")
        case 0x02, 0x03: throw RFError(.transmission, "CRC or parity error (PN532 status \(Hex.encode([status])))")
        case 0x29, 0x2B: throw RFError(.linkLost, "the tag left the field (PN532 status \(Hex.encode([status])))")
        default: throw RFError(.transmission, "PN532 status \(Hex.encode([status]))")
        }
        let data = Array(r.data[3...])
        return .frame(command[0] == 0x00 ? data : [command[1]] + data)
    }
}
