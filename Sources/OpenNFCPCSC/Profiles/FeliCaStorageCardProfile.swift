package import OpenNFCRF

/// A FeliCa card on a reader that offers only PC/SC Part 3 (PC/SC Part 3 §3.2.2.1): `FF CA 00 00 00` gives the IDm
/// (done by ``PCSCFrontend`` at poll time), and no FeliCa command reaches the card.
///
/// | What | Result |
/// |---|---|
/// | IDm | `FF CA 00 00 00` at poll time |
/// | PMm, system codes | not visible (the target's PMm is empty) |
/// | any FeliCa frame | `RFError.unsupported`: the reader needs pass-through (ACR122U, ACR1252U family) |
package struct FeliCaStorageCardProfile: PCSCProfile {
    package init() {}

    package var name: String { "PC/SC Part 3 FeliCa (IDm only)" }

    package var capabilities: RFCapabilities {
        RFCapabilities(
            maxCommandSize: 0, maxResponseSize: 0, rawFrames: false, technologies: [.nfcF], frameModes: [])
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        throw RFError(
            .unsupported,
            "'\(card.reader)' offers FeliCa only through PC/SC Part 3 (the IDm); FeliCa commands need an ACR122U or ACR1252U"
        )
    }
}
