internal import OpenNFCBytes
package import OpenNFCRF

/// FeliCa commands and answers for `--trace` and `opennfc send` (frames `code IDm …` without LEN, as the procedures
/// send them): Polling per JIS X 6319-4 §8.5, the other commands and the Status Flags per the FeliCa Card User's
/// Manual, Excerpted Edition §4.4 and §4.5, the FeliCa Lite-S flags (`B1`, `B2`) per the RC-S966 user's manual.
/// Service, node and key-version codes are little-endian on the air and printed as 16-bit values (`0B 00` → 000B);
/// system codes are big-endian.
package enum Type3Trace: FrameDescriber {
    package static let frameModes: [RFFrameMode] = [.felica]

    static let feliCaCommandNames: [UInt8: String] = [
        0x02: "Request Service", 0x04: "Request Response", 0x06: "Read Without Encryption",
        0x08: "Write Without Encryption", 0x0A: "Search Service Code", 0x0C: "Request System Code",
        0x10: "Authentication1", 0x12: "Authentication2", 0x32: "Request Service V2",
        0x3C: "Request Specification Version", 0x3E: "Reset Mode",
    ]

    package static func describe(command c: [UInt8]) -> String? {
        guard let code = c.first else { return nil }
        if code == 0x00 {
            guard c.count == 5 else { return nil }
            let request = ["no request data", "system code requested", "communication performance requested"]
            let rc = c[3] < 3 ? request[Int(c[3])] : "request code \(Hex.encode([c[3]]))"
            return
                "Polling system \(Hex.encode([c[1], c[2]])), \(rc), \(Int(c[4]) + 1) time slot\(c[4] == 0 ? "" : "s")"
        }
        guard c.count >= 9, let name = feliCaCommandNames[code] else { return nil }
        let p = Array(c[9...])
        switch code {
        case 0x02, 0x32:
            guard let n = p.first, p.count == 1 + 2 * Int(n) else { return name }
            return "\(name) nodes \(codes(p[1...]))"
        case 0x06, 0x08:
            guard let n = p.first, p.count >= 2 + 2 * Int(n) else { return name }
            let services = codes(p[1..<(1 + 2 * Int(n))])
            let rest = Array(p[(1 + 2 * Int(n))...])
            guard let blocks = blockList(rest, count: Int(rest[0])) else { return "\(name) services \(services)" }
            return "\(name) services \(services), blocks \(blocks.map(String.init).joined(separator: ", "))"
        case 0x0A where p.count == 2: return "\(name) index \(Int(p[0]) | Int(p[1]) << 8)"
        default: return name
        }
    }

    package static func describe(response r: RFResponse, to c: [UInt8]) -> String? {
        guard case .frame(let b) = r, let code = b.first, let sent = c.first, code == sent &+ 1 else { return nil }
        if code == 0x01 {
            guard b.count == 17 || b.count == 19 else { return nil }
            var s = "IDm \(b[1..<9].hexString), PMm \(b[9..<17].hexString) (\(icName(b[10])))"
            if b.count == 19 {
                s +=
                    c.count == 5 && c[3] == 0x01
                    ? ", system \(b[17..<19].hexString)" : ", request data \(b[17..<19].hexString)"
            }
            return s
        }
        guard b.count >= 9 else { return nil }
        let p = Array(b[9...])
        switch code {
        case 0x03:
            guard let n = p.first, p.count == 1 + 2 * Int(n) else { return nil }
            return "key versions \(codes(p[1...]))"
        case 0x05 where p.count == 1: return "mode \(p[0])"
        case 0x07:
            guard p.count >= 2 else { return nil }
            guard p[0] == 0 else { return status(p[0], p[1]) }
            guard p.count >= 3, p.count == 3 + 16 * Int(p[2]) else { return nil }
            return "OK, \(p[2]) block\(p[2] == 1 ? "" : "s")"
        case 0x09, 0x3F:
            guard p.count == 2 else { return nil }
            return status(p[0], p[1])
        case 0x0B where p.count == 2 || p.count == 4:
            return p == [0xFF, 0xFF] ? "end of the list" : "code \(codes(p[...]))"
        case 0x0D:
            guard let n = p.first, p.count == 1 + 2 * Int(n) else { return nil }
            let systems = (0..<Int(n)).map { p[(1 + 2 * $0)..<(3 + 2 * $0)].hexString }
            return "systems \(systems.joined(separator: ", "))"
        case 0x33, 0x3D:
            guard p.count >= 2 else { return nil }
            return status(p[0], p[1])
        default: return nil
        }
    }

    /// 2-byte little-endian codes as 16-bit values.
    private static func codes(_ bytes: ArraySlice<UInt8>) -> String {
        stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map {
            Hex.encode([bytes[$0 + 1], bytes[$0]])
        }.joined(separator: ", ")
    }

    /// Block list elements (2-byte `1AAASSSS nn`, 3-byte `0AAASSSS nn nn` with the number little-endian).
    private static func blockList(_ p: [UInt8], count: Int) -> [Int]? {
        var out: [Int] = []
        var k = 1
        for _ in 0..<count {
            guard k < p.count else { return nil }
            if p[k] & 0x80 != 0 {
                guard k + 1 < p.count else { return nil }
                out.append(Int(p[k + 1]))
                k += 2
            } else {
                guard k + 2 < p.count else { return nil }
                out.append(Int(p[k + 1]) | Int(p[k + 2]) << 8)
                k += 3
            }
        }
        return out
    }

    static func status(_ sf1: UInt8, _ sf2: UInt8) -> String {
        guard sf1 != 0 else { return "OK" }
        let meanings: [UInt8: String] = [
            0x01: "purse underflow or overflow", 0x02: "cashback exceeds the purse", 0x70: "memory error",
            0x71: "rewrite count warning", 0xA1: "illegal number of services", 0xA2: "illegal number of blocks",
            0xA3: "illegal block list (service order)", 0xA4: "illegal service type", 0xA5: "access not allowed",
            0xA6: "illegal service code list", 0xA7: "illegal block list access mode", 0xA8: "illegal block number",
            0xA9: "data write failure", 0xAA: "key change failure", 0xAB: "illegal package parity or MAC",
            0xAC: "illegal parameter", 0xAD: "service exists already", 0xAE: "illegal system code",
            0xAF: "too many simultaneous cyclic writes", 0xB0: "MAC and MAC_A read together",
            0xB1: "authentication required", 0xB2: "MAC verification failed",
        ]
        let flags = "status \(Hex.encode([sf1, sf2]))"
        return meanings[sf2].map { "\(flags): \($0)" } ?? flags
    }

    /// PMm byte 1, the IC type (FeliCa Lite-S user's manual; Sony's IC code list).
    private static func icName(_ ic: UInt8) -> String {
        switch ic {
        case 0xF0: return "FeliCa Lite"
        case 0xF1: return "FeliCa Lite-S"
        case 0xF2: return "FeliCa Link, Lite-S mode"
        case 0xE0: return "FeliCa Plug"
        case 0xE1: return "FeliCa Link, Plug mode"
        default: return "IC \(Hex.encode([ic]))"
        }
    }
}
