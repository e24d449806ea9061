/// An authentication the frontend performs itself, below the tag procedures, because it changes how every later
/// frame is carried (ISO-DEP block framing is the same kind of thing).
///
/// MIFARE Classic's three-pass authentication (NXP MF1S50yy datasheet §10.1) switches the link to Crypto1, which
/// enciphers data and parity bits alike: once authenticated, the frontend enciphers each command and deciphers each
/// answer, and the procedures keep exchanging plain frames. A nested authentication is another `authenticate` while
/// the link is enciphered.
package enum RFAuthentication: Sendable, Hashable {
    /// Which MIFARE Classic key of the sector trailer to use.
    package enum MiFareKeyType: UInt8, Sendable, Hashable {
        /// Key A, command `60`.
        case a = 0x60
        /// Key B, command `61`.
        case b = 0x61
    }

    /// MIFARE Classic: authenticate the sector holding `block` with a 6-byte key.
    case mifareClassic(block: UInt8, keyType: MiFareKeyType, key: [UInt8])
}
