package import OpenNFCRF

/// How ``PCSCFrontend`` carries the tag protocol through one reader for one kind of card: the frontend's
/// `exchange` delegates to the profile chosen when the target was activated.
///
/// | Profile | Cards | Raw NFC-A frames | Commands that reach the tag |
/// |---|---|---|---|
/// | ``StorageCardProfile`` | PC/SC Part 3 storage cards, any reader | no | READ, WRITE (as `FF B0` / `FF D6`) |
/// | ``ISODEPProfile`` | ISO 14443-4 cards, any reader | n/a | every APDU; DESFire native commands |
/// | ``ACR122UPassThroughProfile`` | level-3 tags on an ACR122U (PN532) | yes | every frame (`D4 42`) |
/// | ``ACR1252UPassThroughProfile`` | level-3 tags on an ACR1252U/1255U | yes | every frame (`FF 00 00 00`) |
/// | ``TransparentSessionProfile`` | ISO 15693 tags on a PC/SC 2.02 reader (ACR1552U, OMNIKEY, Identiv); level-3 NFC-A tags on a PC/SC 2.02 reader without the ACS pass-through | NFC-A: yes | every ISO 15693 request or NFC-A frame (`FF C2`) |
/// | ``MifareClassicProfile`` | MIFARE Classic 1K/4K/Mini, any reader | no | authenticate (`FF 82`/`FF 86`), READ, WRITE, value operations (`FF B0`/`FF D6`/`FF D7`) |
/// | ``ISO15693StorageCardProfile`` | ISO 15693 tags on a Part 3-only reader | n/a | Read/Write Single Block, Read Multiple Blocks (as `FF B0` / `FF D6` by block) |
package protocol PCSCProfile: Sendable {
    /// A short name for logs and `opennfc readers`.
    var name: String { get }
    /// What the frontend advertises while a target is activated with this profile.
    var capabilities: RFCapabilities { get }
    /// Sends one frame (level-3 target) or ISO-DEP payload through `card`.
    func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse
    /// Called once when the target is activated with this profile (a transparent session switches protocol here).
    func begin(on card: PCSCCard) throws(RFError)
    /// Called before the connection is released (a transparent session ends here).
    func end(on card: PCSCCard)
}

extension PCSCProfile {
    package func begin(on card: PCSCCard) throws(RFError) {}
    package func end(on card: PCSCCard) {}
}

extension PCSCError {
    /// The RF-level meaning of a PC/SC failure during an exchange: a tag that left is a lost link; a daemon or reader
    /// that went away is a frontend failure whose detail says what to do.
    package var rfError: RFError {
        switch code {
        case .cardRemoved, .noCard, .cardReset: return RFError(.linkLost, detail)
        case .cardUnresponsive, .timeout: return RFError(.timeout, detail)
        case .invalidData: return RFError(.frameTooLong, detail)
        case .libraryUnavailable, .serviceUnavailable, .noReaders, .unknownReader, .readerUnavailable,
            .readerHeldByKernelDriver, .sharingViolation, .cancelled, .failure:
            return RFError(.frontendFailure, detail)
        }
    }
}

extension PCSCCard {
    /// Transmits an APDU, mapping PC/SC failures to RF errors.
    func transmitForRF(_ command: [UInt8]) throws(RFError) -> APDUResponse {
        do { return try transmit(command) } catch { throw error.rfError }
    }
}

/// Maps a 1-byte answer to the 4-bit ACK/NAK of Type 2 chips (ISO 14443-3 §6.4; NXP "ACK and NAK"): pass-through
/// readers hand a 4-bit answer over as one byte. No Type 2 command answers a 1-byte data frame.
func fourBitAnswer(_ data: [UInt8]) -> RFResponse {
    guard data.count == 1 else { return .frame(data) }
    return data[0] & 0x0F == 0x0A ? .ack : .nak(data[0] & 0x0F)
}
