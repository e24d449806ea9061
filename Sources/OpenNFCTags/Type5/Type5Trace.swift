internal import OpenNFCBytes
package import OpenNFCRF

/// ISO/IEC 15693-3 requests and answers for `--trace` and `opennfc send` on NFC-V tags: the request flags
/// (§7.3.1 Table 3/4: high data rate, Inventory, Select, Address, Option), the command codes of §10.3–§10.4 and the
/// extended ones (`30`–`3C`), the NXP ICODE custom commands (NXP SL2S2002/SL2S2602 datasheets §9, manufacturer `04`)
/// and the answer's error flag with its code (§7.4.2 Table 7).
package enum Type5Trace: FrameDescriber {
    package static let frameModes: [RFFrameMode] = [.nfcV]

    package static func describe(command c: [UInt8]) -> String? {
        guard c.count >= 2 else { return nil }
        let flags = c[0]
        let code = c[1]
        var i = 2
        if code >= 0xA0 && code <= 0xDF { i += 1 }  // IC manufacturer code of custom commands
        let inventory = flags & 0x04 != 0
        let addressed = !inventory && flags & 0x20 != 0
        if addressed { i += 8 }
        guard c.count >= i else { return nil }
        let p = Array(c[i...])
        var mode: String
        if inventory {
            mode = flags & 0x20 != 0 ? "1 slot" : "16 slots"
            if flags & 0x10 != 0 { mode += ", AFI" }
        } else if addressed {
            mode = "addressed to \(c[(i - 8)..<i].reversed().hexString)"
        } else {
            mode = flags & 0x10 != 0 ? "selected" : "non-addressed"
        }
        if !inventory && flags & 0x40 != 0 { mode += ", Option" }
        let extended = (0x30...0x3C).contains(code)
        func block(_ at: Int) -> Int? {
            if extended { return p.count >= at + 2 ? Int(p[at]) | Int(p[at + 1]) << 8 : nil }
            return p.count > at ? Int(p[at]) : nil
        }
        let n = extended ? 2 : 1
        let name: String?
        switch code {
        case 0x01 where inventory: name = "INVENTORY"
        case 0x02: name = "STAY QUIET"
        case 0x20, 0x30: name = block(0).map { "READ SINGLE BLOCK \($0)" }
        case 0x21, 0x31:
            name = block(0).map { "WRITE SINGLE BLOCK \($0): \(p.dropFirst(n).hexString)" }
        case 0x22, 0x32: name = block(0).map { "LOCK BLOCK \($0)" }
        case 0x23, 0x33, 0x24, 0x34, 0x2C, 0x3C:
            guard let first = block(0), let count = block(n).map({ $0 + 1 }) else { return nil }
            let what: String
            switch code {
            case 0x23, 0x33: what = "READ MULTIPLE BLOCKS"
            case 0x24, 0x34: what = "WRITE MULTIPLE BLOCKS"
            default: what = "GET MULTIPLE BLOCK SECURITY STATUS"
            }
            name = "\(what) \(first)–\(first + count - 1)"
        case 0x25: name = "SELECT"
        case 0x26: name = "RESET TO READY"
        case 0x27 where p.count == 1: name = "WRITE AFI \(Hex.encode([p[0]]))"
        case 0x28: name = "LOCK AFI"
        case 0x29 where p.count == 1: name = "WRITE DSFID \(Hex.encode([p[0]]))"
        case 0x2A: name = "LOCK DSFID"
        case 0x2B: name = "GET SYSTEM INFORMATION"
        case 0x3B: name = "EXTENDED GET SYSTEM INFORMATION"
        case 0xA0...0xDF:
            name =
                c[2] == 0x04
                ? nxpCustomName(code, p) : c[2] == 0x02 ? stCustomName(code, p) : "custom command \(Hex.encode([code]))"
        default: name = nil
        }
        guard let name else { return nil }
        return extended ? "\(name) (extended, \(mode))" : "\(name) (\(mode))"
    }

    /// The answer: `flags data`; with the error flag, the error code named (ISO/IEC 15693-3 §7.4.2 Table 7).
    package static func describe(response r: RFResponse, to c: [UInt8]) -> String? {
        guard case .frame(let b) = r, let flags = b.first else { return nil }
        if flags & 0x01 != 0 {
            guard b.count >= 2 else { return "error" }
            return "error \(Hex.encode([b[1]])): \(Type5Link.describe(b[1]))"
        }
        guard c.count >= 2 else { return nil }
        switch c[1] {
        case 0x01 where b.count == 10: return "DSFID \(Hex.encode([b[1]])), UID \(b[2...].reversed().hexString)"
        case 0x2B,
            0x3B where b.count >= 10:
            return "info flags \(Hex.encode([b[1]])), UID \(b[2..<10].reversed().hexString)"
        case 0x20, 0x30, 0x23, 0x33: return "\(b.count - 1) bytes"
        case 0xB2 where b.count == 3: return "random \(b[1...].hexString)"
        case 0xBD where b.count == 33: return "signature \(b[1...].hexString)"
        case 0xAB where b.count == 8:
            return
                "protection pointer \(Hex.encode([b[1]])), condition \(Hex.encode([b[2]])), lock bits \(Hex.encode([b[3]]))"
        default: return b.count == 1 ? "done" : nil
        }
    }
}
