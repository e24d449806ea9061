/// The ISO/IEC 7816-4 status words (§5.6, table 6) that the system itself answers with when it stands between a
/// terminal and an app's `CardSession` (docs/CARD-EMULATION.md), named once on the reader side's ISO 7816 folder so no
/// other layer spells them as bytes.
package enum ISO7816StatusWord {
    /// `6A 82`: file or application not found (a SELECT of an AID no app has registered).
    package static let fileOrApplicationNotFound: [UInt8] = [0x6A, 0x82]
    /// `6D 00`: instruction code not supported or invalid (a command with no application selected).
    package static let instructionNotSupported: [UInt8] = [0x6D, 0x00]
}
