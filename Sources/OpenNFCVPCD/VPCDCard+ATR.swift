/// The ATR a contactless PC/SC reader synthesises for the tag (PC/SC Part 3 §3.1.3.2.3).
extension VPCDCard {
    /// Storage cards: `3B 8F 80 01 | 80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00 | TCK`; ISO-DEP cards:
    /// `3B 8N 80 01 | <historical bytes of the ATS, at most 15> | TCK`. TCK = XOR of T0 … last historical byte.
    package var atr: [UInt8] {
        if isISODEP { return Self.isoDEPATR(historicalBytes: Self.historicalBytes(ofATS: tag.activation.ats ?? [])) }
        let (standard, name) = storageCardIdentity
        return Self.storageATR(standard: standard, cardName: name)
    }

    /// The standard byte and card name a PC/SC reader reports for this tag. NTAG21x and Ultralight EV1 report the
    /// Ultralight name `00 03`: the reader cannot tell them apart without GET_VERSION.
    var storageCardIdentity: (standard: UInt8, cardName: UInt16) {
        let a = tag.activation
        switch a.technology {
        case .nfcF: return (0x11, 0x003B)
        case .nfcV:
            // PC/SC Part 3 supplement card names: 00 14 ICODE SLI (NXP), 00 12 Tag-it (TI); none for the ST25DV (00 00).
            switch a.uid.count == 8 ? a.uid[1] : 0 {
            case 0x04: return (0x0B, 0x0014)
            case 0x07: return (0x0B, 0x0012)
            default: return (0x0B, 0x0000)
            }
        case .nfcB: return (0x07, 0x0000)
        case .nfcA: break
        }
        if a.nfcA?.type1 != nil { return (0x03, 0x0030) }  // Topaz (PC/SC Part 3 card name 00 30)
        let chip = tag.chip.lowercased()
        if chip.hasPrefix("ultralight-c") || chip == "ulc" { return (0x03, 0x003A) }
        switch a.selRes {
        case 0x00: return (0x03, 0x0003)
        case 0x08: return (0x03, 0x0001)
        case 0x18: return (0x03, 0x0002)
        case 0x09: return (0x03, 0x0026)
        default: return (0x03, 0xFF00 | UInt16(a.selRes ?? 0))
        }
    }

    static func storageATR(standard: UInt8, cardName: UInt16) -> [UInt8] {
        withTCK(
            [
                0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, standard,
                UInt8(cardName >> 8), UInt8(cardName & 0xFF), 0x00, 0x00, 0x00, 0x00,
            ])
    }

    static func isoDEPATR(historicalBytes: [UInt8]) -> [UInt8] {
        let h = Array(historicalBytes.prefix(15))
        return withTCK([0x3B, 0x80 | UInt8(h.count), 0x80, 0x01] + h)
    }

    /// ATS = TL T0 [TA(1)] [TB(1)] [TC(1)] historical bytes (ISO 14443-4 §5.2); T0 bits 4–6 say which of TA/TB/TC follow.
    static func historicalBytes(ofATS ats: [UInt8]) -> [UInt8] {
        guard ats.count >= 2 else { return [] }
        let t0 = ats[1]
        let skip = 2 + (t0 & 0x10 != 0 ? 1 : 0) + (t0 & 0x20 != 0 ? 1 : 0) + (t0 & 0x40 != 0 ? 1 : 0)
        let end = min(ats.count, Int(ats[0]))
        return skip < end ? Array(ats[skip..<end]) : []
    }

    static func withTCK(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [bytes.dropFirst().reduce(0, ^)]
    }
}
