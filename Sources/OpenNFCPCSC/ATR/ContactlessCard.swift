internal import OpenNFCBytes
package import OpenNFCRF

/// What a contactless reader's ATR says about the card (PC/SC Part 3 §3.1.3.2.3).
///
/// * Storage cards (NFC-A level 3, FeliCa, ISO 15693): historical bytes `80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00`
///   — category indicator `80`, then the PC/SC registered application identifier: RID `A0 00 00 03 06`, standard
///   byte SS, card name NN NN, four RFU bytes.
/// * ISO 14443-4 cards: `3B 8N 80 01 <N historical bytes> TCK`, the historical bytes being those of the ATS (type A)
///   or ATQB application data and protocol information (type B).
package enum ContactlessCard: Sendable, Hashable {
    case storage(standard: UInt8, cardName: UInt16)
    case isoDEP(historicalBytes: [UInt8])
    case other

    /// The PC/SC Workgroup RID in storage-card ATRs.
    package static let pcscRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    package init(atr: ATR) {
        let h = atr.historicalBytes
        if h.count == 15, h[0] == 0x80, h[1] == 0x4F, h[2] == 0x0C, Array(h[3..<8]) == Self.pcscRID {
            self = .storage(standard: h[8], cardName: UInt16(h[9]) << 8 | UInt16(h[10]))
            return
        }
        // ISO 14443-4: TD1 = 80 (T=0, TD2 follows), TD2 = 01 (T=1), no other interface bytes.
        if atr.groups.count == 3, atr.groups[0].td == 0x80, atr.groups[1].td == 0x01,
            atr.groups[0].ta == nil, atr.groups[0].tb == nil, atr.groups[0].tc == nil,
            atr.groups[1].ta == nil, atr.groups[1].tb == nil, atr.groups[1].tc == nil
        {
            self = .isoDEP(historicalBytes: h)
            return
        }
        self = .other
    }

    /// Standard bytes that mean ISO/IEC 15693: `0B` (part 3, PC/SC Part 3 supplement) and `0C` (part 4, what Windows
    /// contactless drivers report for the same tags).
    package static let iso15693Standards: Set<UInt8> = [0x0B, 0x0C]

    /// Decodes raw ATR bytes; malformed ATRs are `.other`.
    package init(atrBytes: [UInt8]) {
        if let atr = try? ATR(decoding: atrBytes) { self.init(atr: atr) } else { self = .other }
    }

    /// The standard byte's meaning (PC/SC Part 3 supplement).
    package static func standardName(_ ss: UInt8) -> String {
        switch ss {
        case 0x03: return "ISO 14443 A part 3"
        case 0x07: return "ISO 14443 B part 3"
        case 0x0B: return "ISO 15693 part 3"
        case 0x0C: return "ISO 15693 part 4"
        case 0x11: return "FeliCa"
        default: return "standard \(Hex.encode([ss]))"
        }
    }

    /// Card names of PC/SC Part 3 (and the vendor codes ACS readers use).
    package static func cardName(_ nn: UInt16) -> String {
        switch nn {
        case 0x0001: return "MIFARE Classic 1K"
        case 0x0002: return "MIFARE Classic 4K"
        case 0x0003: return "MIFARE Ultralight"
        case 0x0026: return "MIFARE Mini"
        case 0x002F: return "Jewel"
        case 0x0030: return "Topaz"
        case 0x0036: return "MIFARE Plus SL1 2K"
        case 0x0037: return "MIFARE Plus SL1 4K"
        case 0x0038: return "MIFARE Plus SL2 2K"
        case 0x0039: return "MIFARE Plus SL2 4K"
        case 0x003A: return "MIFARE Ultralight C"
        case 0x003B: return "FeliCa"
        case 0x003D: return "MIFARE Ultralight EV1"
        case 0x0012: return "Tag-it HF-I"
        case 0x0013: return "ST LRI512"
        case 0x0014: return "ICODE SLI"
        case 0x0021: return "ST LRI64"
        case 0xF004: return "Topaz/Jewel (ACS)"
        case 0xF011: return "FeliCa 212 kbit/s (ACS)"
        case 0xF012: return "FeliCa 424 kbit/s (ACS)"
        default:
            if nn >> 8 == 0xFF { return "unknown card with SAK \(Hex.encode([UInt8(nn & 0xFF)])) (ACS)" }
            return "card name \(Hex.encode([UInt8(nn >> 8), UInt8(nn & 0xFF)]))"
        }
    }

    /// The radio technology the ATR implies (ISO-DEP cards are reported as NFC-A: a PC/SC ATR does not tell A from B).
    package var technology: RFTechnology? {
        switch self {
        case .storage(let ss, _):
            switch ss {
            case 0x03: return .nfcA
            case 0x07: return .nfcB
            case 0x0B, 0x0C: return .nfcV
            case 0x11: return .nfcF
            default: return nil
            }
        case .isoDEP: return .nfcA
        case .other: return nil
        }
    }

    /// A one-line description: "MIFARE Ultralight (ISO 14443 A part 3)", "ISO 14443-4 card, historical bytes 80".
    package var summary: String {
        switch self {
        case .storage(let ss, let nn): return "\(Self.cardName(nn)) (\(Self.standardName(ss)))"
        case .isoDEP(let h):
            return h.isEmpty ? "ISO 14443-4 card" : "ISO 14443-4 card, historical bytes \(h.hexString)"
        case .other: return "not a contactless card ATR"
        }
    }

    /// The chips the ATR alone allows; the Ultralight name also covers NTAG21x, which only GET_VERSION tells apart.
    package var chipGuess: String {
        switch self {
        case .storage(_, 0x0003): return "MIFARE Ultralight or NTAG21x (GET_VERSION tells them apart)"
        case .storage(_, let nn): return Self.cardName(nn)
        case .isoDEP(let h):
            if h == [0x80] { return "ISO-DEP card (MIFARE DESFire or similar)" }
            return "ISO-DEP card (Type 4 tag, DESFire, payment or ID card)"
        case .other: return "unknown"
        }
    }
}
