/// Factory-fresh Type 5 tags, NDEF formatted as NFC tools format them (NFC Forum T5T 1.0 §4.3 capability container,
/// §4.4 TLVs): a 4-byte CC `E1 40 MLEN 01` (MLEN = memory ÷ 8, Read Multiple Blocks supported), or the 8-byte
/// `E2 40 00 01 00 00 MLEN MLEN` for memories past 2040 bytes; then an NDEF TLV and the terminator. Chips that need
/// the Option flag for writes set the CC's "special frame" bit (`10`).
///
/// Real chips leave the factory blank or formatted depending on the batch; the simulation ships them formatted so
/// `opennfc tag new` followed by `opennfc write` works, and `opennfc format` writes the same layout.
extension ISO15693Tag {
    /// The capability container the factory writes for a chip of this profile.
    package static func factoryCC(_ profile: ISO15693ChipProfile) -> [UInt8] {
        let bytes = profile.userBytes
        let feature: UInt8 = 0x01 | (profile.writesNeedOption ? 0x10 : 0x00)
        if bytes / 8 <= 0xFF && !profile.hasExtendedCommandsOnly {
            return [0xE1, 0x40, UInt8(bytes / 8), feature]
        }
        let mlen = bytes / 8
        return [0xE2, 0x40, 0x00, feature, 0x00, 0x00, UInt8(mlen >> 8), UInt8(mlen & 0xFF)]
    }

    /// A formatted tag holding `message` (empty: an empty NDEF TLV).
    public static func factory(_ profile: ISO15693ChipProfile, uid: [UInt8], holding message: [UInt8] = [])
        throws(ISO15693TagError) -> ISO15693Tag
    {
        let tag = try ISO15693Tag(profile: profile, uid: uid)
        let cc = factoryCC(profile)
        var area = cc
        if message.count < 0xFF {
            area += [0x03, UInt8(message.count)]
        } else {
            area += [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        }
        area += message + [0xFE]
        guard area.count <= profile.userBytes else {
            throw ISO15693TagError(
                "a \(message.count)-byte message does not fit the \(profile.userBytes - cc.count - 5) bytes of "
                    + "\(profile.displayName)")
        }
        tag.memory.replaceSubrange(0..<area.count, with: area)
        return tag
    }

    /// The NDEF message in the first NDEF TLV after the CC, or nil when the tag is not formatted or the TLV is cut.
    public var ndefMessage: [UInt8]? {
        guard let first = memory.first, first == 0xE1 || first == 0xE2 else { return nil }
        return CardTLV.firstNDEF(memory, in: (first == 0xE2 || memory[2] == 0 ? 8 : 4)..<memory.count)
    }
}

extension ISO15693ChipProfile {
    /// Chips whose memory needs 2-byte block numbers throughout (more than 256 blocks).
    var hasExtendedCommandsOnly: Bool { blockCount > 256 }
}
