internal import OpenNFCBytes
package import OpenNFCRF

/// ISO/IEC 7816-4 APDUs for `--trace` and `opennfc send` on ISO-DEP (§5.1 header, §5.6 status words), and the
/// DESFire status words in their ISO-wrapped form (`91 xx`).
package enum Type4Trace: FrameDescriber {
    package static let frameModes: [RFFrameMode] = [.isoDEP]

    package static func describe(command c: [UInt8]) -> String? {
        c.count >= 4 ? describeAPDU(c) : nil
    }

    package static func describe(response r: RFResponse, to c: [UInt8]) -> String? {
        guard case .frame(let b) = r, c.count >= 4, describeAPDU(c) != nil, b.count >= 2 else { return nil }
        return statusWord(b[b.count - 2], b[b.count - 1])
    }

    private static func describeAPDU(_ c: [UInt8]) -> String? {
        let cla = c[0]
        let ins = c[1]
        let p1 = c[2]
        let p2 = c[3]
        let body = Array(c.dropFirst(4))
        // Case 3/4 short: Lc then data (then Le).
        var data: [UInt8] = []
        if body.count > 1, Int(body[0]) + 1 <= body.count, body[0] != 0 {
            data = Array(body[1..<(1 + Int(body[0]))])
        }
        let offset = Int(p1) << 8 | Int(p2)
        if cla == 0x90 && p1 == 0 && p2 == 0 {
            let name = DESFireTrace.names[ins].map { "\($0) (ISO-wrapped)" } ?? "DESFire command \(Hex.encode([ins]))"
            return name
        }
        guard cla & 0xF0 == 0x00 || cla & 0xF0 == 0x80 else { return nil }
        switch ins {
        case 0xA4:
            switch p1 {
            case 0x04: return "SELECT application \(data.hexString)\(ndefAppName(data))"
            case 0x00, 0x02: return data.isEmpty ? "SELECT MF" : "SELECT file \(data.hexString)"
            default: return "SELECT (P1 \(Hex.encode([p1]))) \(data.hexString)"
            }
        case 0xB0:
            let le = body.count == 1 ? (body[0] == 0 ? 256 : Int(body[0])) : nil
            return "READ_BINARY offset \(offset)" + (le.map { ", \($0) bytes" } ?? "")
        case 0xD6: return "UPDATE_BINARY offset \(offset), \(data.count) bytes"
        case 0xB1: return "READ_BINARY (odd INS)"
        case 0xD7: return "UPDATE_BINARY (odd INS)"
        case 0xCA: return "GET_DATA"
        case 0xC0: return "GET_RESPONSE"
        case 0x84: return "GET_CHALLENGE"
        case 0x88: return "INTERNAL_AUTHENTICATE"
        case 0x82: return "EXTERNAL_AUTHENTICATE"
        case 0x20: return "VERIFY"
        default: return nil
        }
    }

    private static func ndefAppName(_ aid: [UInt8]) -> String {
        switch aid.hexString {
        case "D2760000850101": return " (NFC Forum NDEF, v2)"
        case "D2760000850100": return " (NFC Forum NDEF, v1)"
        default: return ""
        }
    }

    /// ISO/IEC 7816-4 §5.6 status words, and the DESFire ones in their ISO-wrapped form (91 xx).
    package static func statusWord(_ sw1: UInt8, _ sw2: UInt8) -> String {
        switch (sw1, sw2) {
        case (0x90, 0x00): return "OK"
        case (0x61, _): return "OK, \(sw2) more bytes available"
        case (0x62, 0x82): return "end of file reached before Le bytes"
        case (0x63, _) where sw2 & 0xF0 == 0xC0: return "verification failed, \(sw2 & 0x0F) tries left"
        case (0x65, 0x81): return "memory failure"
        case (0x67, 0x00): return "wrong length"
        case (0x69, 0x82): return "security status not satisfied"
        case (0x69, 0x85): return "conditions of use not satisfied"
        case (0x69, 0x86): return "command not allowed (no current EF)"
        case (0x6A, 0x80): return "incorrect parameters in the data field"
        case (0x6A, 0x81): return "function not supported"
        case (0x6A, 0x82): return "file or application not found"
        case (0x6A, 0x86): return "incorrect P1 P2"
        case (0x6A, 0x87): return "Lc inconsistent with P1 P2"
        case (0x6B, 0x00): return "wrong parameters (offset outside the file)"
        case (0x6C, _): return "wrong Le; \(sw2) bytes available"
        case (0x6D, 0x00): return "instruction not supported"
        case (0x6E, 0x00): return "class not supported"
        case (0x6F, 0x00): return "no precise diagnosis"
        case (0x91, let s): return DESFireTrace.status(s)
        default: return "status \(Hex.encode([sw1, sw2]))"
        }
    }
}
