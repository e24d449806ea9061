internal import OpenNFCBytes
package import OpenNFCRF

/// MIFARE Plus EV1/EV2 commands and status bytes for `--trace` and `opennfc send` (NXP MIFARE Plus EV1/EV2 data
/// sheets, command set and error codes), native (`70 …`) and ISO/IEC 7816-4 wrapped (`90 70 00 00 Lc … 00`).
///
/// Only the codes MIFARE DESFire does not share are claimed: GetVersion `60`, `AF` and a CommitPerso with a level
/// (`AA 01`, `AA 03`, the bytes of DESFire's AuthenticateAES with key 1 or 3) are left to ``DESFireTrace``, which
/// names GetVersion alike; a bare `AA` is CommitPerso.
///
/// | Command | Name |
/// |---|---|
/// | `70 KeyNr(LE) LenCap …` / `76 KeyNr(LE)` / `72 …` | AuthenticateFirst / AuthenticateNonFirst key `4000` / AuthenticateContinue |
/// | `78` | ResetAuth |
/// | `30`–`37 BNr(LE) Ext …` | Read, with the code's bits: encrypted (`30`, `31`, `34`, `35`) or plain, command MAC (`30`–`33`), answer MAC (odd codes) |
/// | `A0`–`A3 BNr(LE) data MAC` | Write, encrypted (`A0`, `A1`) or plain, answer MAC (odd codes) |
/// | `A8 BNr(LE) data` | WritePerso, the number of 16-byte blocks |
/// | `3C 00` | Read_Sig |
///
/// A frame is named only when its length is the command's (a Read `30`–`33` carries an 8-byte MAC, `34`–`37` none; a
/// Write 16·n data bytes and a MAC), so an APDU of another card whose class byte happens to be `A0` stays unnamed.
package enum MIFAREPlusTrace: FrameDescriber {
    /// SL1's AES authentication in NFC-A frames; SL0 and SL3 commands on ISO-DEP, native or wrapped.
    package static let frameModes: [RFFrameMode] = [.nfcA, .isoDEP]

    package static func describe(command c: [UInt8]) -> String? {
        guard let (code, rest, wrapped) = split(c), let name = name(code, rest) else { return nil }
        return wrapped ? "\(name) (ISO-wrapped)" : name
    }

    package static func describe(response r: RFResponse, to c: [UInt8]) -> String? {
        guard case .frame(let b) = r, !b.isEmpty, let (code, rest, wrapped) = split(c), name(code, rest) != nil else {
            return nil
        }
        let status: UInt8
        let data: Int
        if wrapped {
            guard b.count >= 2, b[b.count - 2] == 0x91 || b[b.count - 2] == 0x90 else { return nil }
            status = b[b.count - 1] == 0x00 ? MIFAREPlusLink.Status.ok : b[b.count - 1]
            data = b.count - 2
        } else {
            status = b[0]
            data = b.count - 1
        }
        guard status == MIFAREPlusLink.Status.ok else {
            return "MIFARE Plus \(Hex.encode([status])): \(MIFAREPlusLink.Status.meaning(status))"
        }
        return data == 0 ? "MIFARE Plus OK" : "MIFARE Plus OK, \(data) bytes"
    }

    /// The command code, its parameters, and whether it came ISO-wrapped; nil for a frame of neither form.
    private static func split(_ c: [UInt8]) -> (UInt8, [UInt8], Bool)? {
        guard let first = c.first else { return nil }
        guard first == 0x90, c.count >= 5, c[2] == 0x00, c[3] == 0x00 else {
            return (first, Array(c.dropFirst()), false)
        }
        // 90 INS 00 00 [Lc data] 00
        let lc = c.count > 5 ? Int(c[4]) : 0
        guard c.count == (lc == 0 ? 5 : 6 + lc) else { return nil }
        return (c[1], lc == 0 ? [] : Array(c[5..<(5 + lc)]), true)
    }

    private static func address(_ p: [UInt8]) -> String? {
        p.count >= 2 ? Hex.encode([p[1], p[0]]) : nil
    }

    private static func block(_ p: [UInt8]) -> String {
        guard p.count >= 2 else { return "" }
        let n = Int(p[0]) | Int(p[1]) << 8
        return n < 0x100 ? " block \(n)" : " address \(Hex.encode([p[1], p[0]]))"
    }

    private static func name(_ code: UInt8, _ p: [UInt8]) -> String? {
        switch code {
        case 0x70 where (3...9).contains(p.count): return "AuthenticateFirst" + (address(p).map { " key \($0)" } ?? "")
        case 0x76 where p.count == 2: return "AuthenticateNonFirst" + (address(p).map { " key \($0)" } ?? "")
        case 0x72 where p.count == 32: return "AuthenticateContinue"
        case 0x78 where p.isEmpty: return "ResetAuth"
        case 0x3C where p == [0x00] || p.isEmpty: return "Read_Sig"
        case 0xAA where p.isEmpty: return "CommitPerso"
        case 0xA8 where p.count >= 18 && (p.count - 2) % 16 == 0:
            return "WritePerso\(block(p)), \((p.count - 2) / 16) block\((p.count - 2) / 16 == 1 ? "" : "s")"
        case 0x30...0x37 where p.count == (code & 0x04 == 0 ? 11 : 3):
            let ext = Int(p[2])
            let data = code & 0x02 != 0 ? "plain" : "encrypted"
            let command = code & 0x04 != 0 ? "" : ", command MACed"
            let answer = code & 0x01 != 0 ? ", answer MACed" : ""
            return "Read\(block(p)), \(ext) block\(ext == 1 ? "" : "s") (\(data)\(command)\(answer))"
        case 0xA0...0xA3 where p.count >= 26 && (p.count - 10) % 16 == 0:
            let data = code & 0x02 != 0 ? "plain" : "encrypted"
            let answer = code & 0x01 != 0 ? ", answer MACed" : ""
            return "Write\(block(p)) (\(data), command MACed\(answer))"
        default: return nil
        }
    }
}
