internal import OpenNFCBytes

/// Text helpers for `opennfc tag show` on ISO-DEP cards: hex dumps, access bytes, the ATS decoded.
enum ISODEPReportFormatting {
    /// A hex dump of 16 bytes per line, offsets in hex; a run of all-zero lines is one line.
    static func dump(_ bytes: [UInt8], indent: String = "  ") -> [String] {
        var out: [String] = []
        var offset = 0
        func label(_ v: Int) -> String { Hex.encode([UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        while offset < bytes.count {
            let row = bytes[offset..<min(offset + 16, bytes.count)]
            if row.allSatisfy({ $0 == 0 }) {
                var end = offset + row.count
                while end < bytes.count, bytes[end] == 0 { end += 1 }
                // Stop the zero run on a row boundary unless it reaches the end.
                if end < bytes.count { end -= (end - offset) % 16 }
                if end - offset > 16 {
                    out.append("\(indent)\(label(offset))-\(label(end - 1)): 00 (\(end - offset) bytes)")
                    offset = end
                    continue
                }
            }
            out.append("\(indent)\(label(offset)): \(Hex.encode(row, separator: " "))")
            offset += row.count
        }
        return out
    }

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
