internal import OpenNFCBytes

/// Text helpers for `opennfc tag show` on ISO-DEP cards: access bytes, the ATS decoded (the bytes themselves are in
/// the one ``MemoryMap``).
enum ISODEPReportFormatting {
    /// T4T access byte (T4T 1.0 §5.1.2.1) in words.
    static func t4tAccess(_ b: UInt8) -> String {
        switch b {
        case 0x00: return "\(Hex.encode([b]))h (granted)"
        case 0xFF: return "\(Hex.encode([b]))h (none)"
        case 0x80...0xFE: return "\(Hex.encode([b]))h (proprietary: denied here)"
        default: return "\(Hex.encode([b]))h (RFU)"
        }
    }

    /// The ATS decoded (ISO/IEC 14443-4 §5.2).
    static func ats(_ ats: [UInt8]) -> String {
        guard ats.count >= 2 else { return "ATS too short" }
        let fsizes = [16, 24, 32, 40, 48, 64, 96, 128, 256, 512, 1024, 2048, 4096]
        let t0 = ats[1]
        let fsci = Int(t0 & 0x0F)
        var parts = ["FSC \(fsci < fsizes.count ? String(fsizes[fsci]) : "RFU")"]
        var i = 2
        if t0 & 0x10 != 0, i < ats.count {
            parts.append("TA \(Hex.encode([ats[i]]))")
            i += 1
        }
        if t0 & 0x20 != 0, i < ats.count {
            let fwi = Int(ats[i] >> 4)
            let fwtMicroseconds = 302 * (1 << fwi)
            parts.append(
                "FWI \(fwi) (~\(fwtMicroseconds / 1000).\(fwtMicroseconds % 1000 / 100) ms), SFGI \(ats[i] & 0x0F)")
            i += 1
        }
        if t0 & 0x40 != 0, i < ats.count {
            parts.append(ats[i] & 0x02 != 0 ? "CID supported" : "no CID")
            if ats[i] & 0x01 != 0 { parts.append("NAD supported") }
            i += 1
        }
        let historical = i < ats.count ? Hex.encode(ats[i...], separator: " ") : "none"
        parts.append("historical bytes \(historical)")
        return parts.joined(separator: ", ")
    }
}
