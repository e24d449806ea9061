internal import OpenNFCBytes
package import OpenNFCRF

/// Type 1 (Topaz) commands and answers for `--trace` and `opennfc send` (NFC Forum T1T 1.2 command set): 7-byte
/// frames `CMD ADD DATA UID0–3`, 14-byte frames `CMD ADD8 D0–D7 UID0–3`; RID carries zeros for the UID.
package enum Type1Trace: FrameDescriber {
    /// Type 1 frames in their own mode, and among the NFC-A ones (a Type 1 tag's frames are named with them).
    package static let frameModes: [RFFrameMode] = [.nfcA, .type1]

    package static func describe(command c: [UInt8]) -> String? {
        guard c.count == 7 || c.count == 14, let first = c.first else { return nil }
        let add = c[1]
        let byteAddress = "byte \(add & 0x7F) (block \(Hex.encode([add >> 3 & 0x0F])), byte \(add & 0x07))"
        switch (first, c.count) {
        case (0x78, 7): return "RID"
        case (0x00, 7): return "RALL (UID \(c[3...].hexString))"
        case (0x01, 7): return "READ \(byteAddress)"
        case (0x53, 7): return "WRITE-E \(byteAddress): \(Hex.encode([c[2]]))"
        case (0x1A, 7): return "WRITE-NE \(byteAddress): OR \(Hex.encode([c[2]]))"
        case (0x10, 14): return "RSEG segment \(add >> 4)"
        case (0x02, 14): return "READ8 block \(Hex.encode([add]))"
        case (0x54, 14): return "WRITE-E8 block \(Hex.encode([add])): \(c[2..<10].hexString)"
        case (0x1B, 14): return "WRITE-NE8 block \(Hex.encode([add])): OR \(c[2..<10].hexString)"
        default: return nil
        }
    }

    package static func describe(response r: RFResponse, to c: [UInt8]) -> String? {
        guard case .frame(let b) = r, describe(command: c) != nil else { return nil }
        switch c[0] {
        case 0x78 where b.count == 6:
            return "HR0 \(Hex.encode([b[0]])) HR1 \(Hex.encode([b[1]])), UID0-3 \(b[2...].hexString)"
        case 0x00 where b.count == 122: return "HR0 \(Hex.encode([b[0]])) HR1 \(Hex.encode([b[1]])), blocks 0-E"
        case 0x53, 0x1A, 0x54, 0x1B:
            let sent = c.count == 7 ? [c[2]] : Array(c[2..<10])
            let stored = Array(b.dropFirst())
            let erase = c[0] == 0x53 || c[0] == 0x54
            let ok = erase ? stored == sent : zip(sent, stored).allSatisfy { $0 & $1 == $0 }
            return ok ? "stored" : "refused (locked): stored \(stored.hexString)"
        default: return nil
        }
    }
}
