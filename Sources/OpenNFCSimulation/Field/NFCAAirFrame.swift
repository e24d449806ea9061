/// A frame as it travels on the NFC-A air under MIFARE Crypto1: every byte with its parity bit (ISO/IEC 14443-3
/// §6.2.3.1). Once a MIFARE Classic link is enciphered, the cipher covers data, CRC_A and parity bits alike, so the
/// field cannot add or check CRCs: an enciphered frame carries its CRC_A inside ``bytes`` (docs/ARCHITECTURE.md,
/// "Enciphered NFC-A frames").
package struct NFCAAirFrame: Sendable, Hashable {
    package var bytes: [UInt8]
    /// One bit (0 or 1) per byte.
    package var parity: [UInt8]

    package init(bytes: [UInt8], parity: [UInt8]) {
        self.bytes = bytes
        self.parity = parity
    }
}

/// A tag's reaction to an enciphered frame.
package enum NFCAAirAnswer: Sendable, Hashable {
    /// Bytes with their parity bits (enciphered: CRC_A inside, when the answer has one).
    case frame(NFCAAirFrame)
    /// A 4-bit answer (ISO/IEC 14443-3 §6.2.3.2 short frame), enciphered when the link is.
    case nibble(UInt8)
    /// No answer.
    case silence
}

/// A virtual chip that also takes frames with their parity bits, because its link can be enciphered (MIFARE Classic).
/// The field hands it such frames through ``VirtualField/exchange(air:)``; plain frames still arrive through
/// ``VirtualTag/receive(_:tearAfter:)``.
package protocol VirtualAirFrameTag: VirtualTag {
    /// Answers one frame as it came over the air (bytes and parity bits, CRC_A inside when enciphered).
    func receive(air frame: NFCAAirFrame, tearAfter: Int?) -> NFCAAirAnswer
}
