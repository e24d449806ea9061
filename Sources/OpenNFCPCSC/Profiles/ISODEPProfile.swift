internal import OpenNFCBytes
package import OpenNFCRF

/// ISO 14443-4 cards through any PC/SC reader (PC/SC Part 3 §3.1.3.2.3.2): the reader runs
/// ISO-DEP (RATS, block framing, chaining, waiting-time extensions) and passes APDUs through `SCardTransmit`.
///
/// | Payload | Sent as | Answer |
/// |---|---|---|
/// | APDU (4 bytes or more) | itself | the whole R-APDU, data and SW1 SW2 |
/// | DESFire native command of 1–3 bytes (`60`, `AF`, `6A`, …) | ISO-wrapped `90 CMD 00 00 [Lc data] 00` | `data… 91 ST` unwrapped to `ST data…` |
///
/// Native commands of four bytes or more go through unchanged (a reader puts them in an I-block as they are).
/// Short ones are wrapped because a 1-byte `SCardTransmit` is not an APDU: several readers refuse it, and the
/// vpcd wire protocol reads a 1-byte message as a control code (NXP AN12752 for the ISO/IEC 7816-4 wrapping).
/// The ATS is not available through PC/SC, only its historical bytes (from the ATR); ``PCSCFrontend`` reports a
/// reconstructed ATS `TL 08 <historical bytes>` (no TA/TB/TC, FSCI 8).
package struct ISODEPProfile: PCSCProfile {
    package var name: String { "ISO 14443-4 (APDUs passed through)" }

    package init() {}

    package var capabilities: RFCapabilities {
        RFCapabilities(maxCommandSize: 261, maxResponseSize: 258, rawFrames: false, technologies: [.nfcA, .nfcB])
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        guard !command.isEmpty else { throw RFError(.protocolViolation, "empty ISO-DEP payload") }
        if command.count < 4 {
            var wrapped: [UInt8] = [0x90, command[0], 0x00, 0x00]
            if command.count > 1 { wrapped += [UInt8(command.count - 1)] + command[1...] }
            wrapped.append(0x00)
            let r = try card.transmitForRF(wrapped)
            guard r.sw1 == 0x91 else {
                throw RFError(
                    .protocolViolation,
                    "ISO-wrapped native command \(Hex.encode([command[0]])) answered SW \(Hex.encode([r.sw1, r.sw2]))")
            }
            return .frame([r.sw2] + r.data)
        }
        do {
            return .frame(try card.transmitRaw(command))
        } catch {
            throw error.rfError
        }
    }
}
