internal import OpenNFCBytes
package import OpenNFCRF

/// PC/SC Part 3 storage-card access (PC/SC Part 3 §3.2.2.1): what every contactless PC/SC
/// reader offers for NFC-A level-3 tags, with no raw frames.
///
/// | Tag command | Sent as | Answer |
/// |---|---|---|
/// | READ `30 PP` | READ BINARY `FF B0 00 PP 10` | 16 bytes + `90 00` → the 16 bytes; any other status → NAK 0 |
/// | WRITE `A2 PP d0..d3` | UPDATE BINARY `FF D6 00 PP 04 d0..d3` | `90 00` → ACK; any other status → NAK 0 |
/// | UID | GET DATA `FF CA 00 00 00` | done by ``PCSCFrontend`` at poll time |
/// | GET_VERSION, FAST_READ, PWD_AUTH, READ_SIG, COMPATIBILITY WRITE, … | — | `RFError.unsupported`: they need a reader with raw pass-through (ACR122U, ACR1252U) |
///
/// `capabilities.rawFrames` is false, so the reader procedures use READ and WRITE only. Readers differ in which
/// status they return for a refused write (`63 00` on ACS readers, `65 81`/`69 82` elsewhere): every non-`90 00` is
/// a NAK, the only answer a Type 2 procedure acts on.
package struct StorageCardProfile: PCSCProfile {
    package var name: String { "PC/SC Part 3 storage card" }

    package init() {}

    package var capabilities: RFCapabilities {
        RFCapabilities(maxCommandSize: 6, maxResponseSize: 16, rawFrames: false, technologies: [.nfcA])
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        switch (command.first, command.count) {
        case (0x30, 2):
            let r = try card.transmitForRF([0xFF, 0xB0, 0x00, command[1], 0x10])
            guard r.isSuccess else { return .nak(0) }
            guard r.data.count == 16 else {
                throw RFError(
                    .protocolViolation,
                    "READ BINARY of page \(command[1]) answered \(r.data.count) bytes instead of 16 on '\(card.reader)'"
                )
            }
            return .frame(r.data)
        case (0xA2, 6):
            let r = try card.transmitForRF([0xFF, 0xD6, 0x00, command[1], 0x04] + command[2..<6])
            return r.isSuccess ? .ack : .nak(0)
        default:
            let what = command.first.map { "command \(Hex.encode([$0]))" } ?? "an empty command"
            throw RFError(
                .unsupported,
                "reader '\(card.reader)' offers only PC/SC Part 3 READ/WRITE (FF B0/FF D6) for this tag; \(what) "
                    + "needs a reader with raw pass-through (ACR122U, ACR1252U)")
        }
    }
}
