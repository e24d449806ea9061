import OpenNFCBytes
import OpenNFCRF

/// Names frames and answers for people: the `#` comments of `--trace` and the decoded column of `opennfc send`.
///
/// Type 2 / NTAG commands follow NFC Forum Type 2 Tag §5 and the NXP NTAG21x / Ultralight EV1 command tables
/// (NFC Forum T2T §5; NTAG213/215/216 datasheet §10); ISO-DEP payloads are ISO/IEC 7816-4 APDUs (§5.1 header, §5.6 status words) or
/// MIFARE DESFire native commands (NXP MF3ICD81 datasheet §9, commands and status codes). Unknown frames get no comment rather than a guess.
enum FrameDecoder {
    // MARK: Commands

    static func describe(command c: [UInt8], isoDEP: Bool, nfcV: Bool = false) -> String? {
        if nfcV { return describeISO15693(command: c) }
        guard let first = c.first else { return nil }
        if isoDEP {
            if c.count >= 4, let apdu = describeAPDU(c) { return apdu }
            return describeDESFire(c)
        }
        if let type1 = describeType1(command: c) { return type1 }
        switch first {
        case 0x30 where c.count == 2: return "READ page \(c[1]) (pages \(c[1])–\(Int(c[1]) + 3))"
        case 0x3A where c.count == 3: return "FAST_READ pages \(c[1])–\(c[2])"
        case 0xA2 where c.count == 6: return "WRITE page \(c[1]): \(c[2...].hexString)"
        case 0xA0 where c.count == 2: return "COMPATIBILITY_WRITE page \(c[1])"
        case 0x60 where c.count == 1: return "GET_VERSION"
        case 0x3C where c.count == 2: return "READ_SIG"
        case 0x1B where c.count == 5: return "PWD_AUTH"
        case 0x39 where c.count == 2: return "READ_CNT counter \(c[1])"
        case 0xA5 where c.count == 6: return "INCR_CNT counter \(c[1])"
        case 0x3E where c.count == 2: return "CHECK_TEARING_EVENT counter \(c[1])"
        case 0x4B: return "VCSL"
        case 0x1A where c.count == 2: return "AUTHENTICATE (Ultralight C, 3DES) part 1"
        case 0xAF where c.count == 17: return "AUTHENTICATE (Ultralight C, 3DES) part 2"
        case 0xC2 where c.count == 2: return "SECTOR_SELECT part 1"
        case 0x50 where c.count == 2 && c[1] == 0: return "HLTA"
        default: return nil
        }
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
            let name = desfireNames[ins].map { "\($0) (ISO-wrapped)" } ?? "DESFire command \(Hex.encode([ins]))"
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

    static let desfireNames: [UInt8: String] = [
        0x60: "GetVersion", 0xAF: "AdditionalFrame", 0x6A: "GetApplicationIDs", 0x5A: "SelectApplication",
        0x6F: "GetFileIDs", 0xF5: "GetFileSettings", 0xBD: "ReadData", 0x3D: "WriteData", 0x0A: "Authenticate",
        0x1A: "AuthenticateISO", 0xAA: "AuthenticateAES", 0x45: "GetKeySettings", 0x6C: "GetValue",
        0xCA: "CreateApplication", 0xDA: "DeleteApplication", 0xFC: "FormatPICC", 0x6E: "GetFreeMemory",
        0x51: "GetCardUID", 0xBB: "ReadRecords", 0x3B: "WriteRecord", 0xC7: "CommitTransaction",
    ]

    private static func describeDESFire(_ c: [UInt8]) -> String? {
        guard let name = desfireNames[c[0]] else { return nil }
        if c[0] == 0x5A, c.count == 4 { return "\(name) \(Array(c[1...]).hexString)" }
        return name
    }

    // MARK: Answers

    static func describe(response r: RFResponse, to c: [UInt8], isoDEP: Bool, nfcV: Bool = false) -> String? {
        if nfcV { return describeISO15693(response: r, to: c) }
        switch r {
        case .ack: return "ACK"
        case .nak(let n): return nakMeaning(n)
        case .frame(let b):
            if isoDEP {
                if c.count >= 4, describeAPDU(c) != nil, b.count >= 2 {
                    return statusWord(b[b.count - 2], b[b.count - 1])
                }
                if c.first == 0x60 || c.first == 0xAF, b.count == 8, b.first == 0xAF || b.first == 0x00 {
                    return b.first == 0xAF ? "more data follows (AF)" : "OK"
                }
                if let s = b.first { return desfireStatus(s) }
                return nil
            }
            if let type1 = describeType1(response: b, to: c) { return type1 }
            if c == [0x60], b.count == 8 { return versionName(b) }
            if c.first == 0x1B, b.count == 2 { return "PACK \(b.hexString)" }
            if c.first == 0x39, b.count == 3 {
                return "counter \(Int(b[0]) | Int(b[1]) << 8 | Int(b[2]) << 16)"
            }
            if b == [0x0A] { return "ACK" }
            return nil
        }
    }

    /// NXP 4-bit NAK codes (NTAG213/215/216 §9.3, MF0ULx1 §8.3).
    static func nakMeaning(_ n: UInt8) -> String {
        switch n {
        case 0: return "NAK: invalid argument or not allowed (page out of range, locked, or not authenticated)"
        case 1: return "NAK: parity or CRC error"
        case 4: return "NAK: counter overflow or authentication limit reached"
        case 5: return "NAK: EEPROM write error"
        default: return "NAK \(n)"
        }
    }

    /// The chip a GET_VERSION answer names (NTAG213/215/216 datasheet §10.1, MF0ULx1 datasheet §8.1 GET_VERSION).
    static func versionName(_ v: [UInt8]) -> String? {
        guard v.count == 8, v[1] == 0x04 else { return nil }
        switch (v[2], v[6]) {
        case (0x04, 0x0F): return "NTAG213"
        case (0x04, 0x11): return "NTAG215"
        case (0x04, 0x13): return "NTAG216"
        case (0x04, 0x0B): return "NTAG210"
        case (0x04, 0x0E): return "NTAG212"
        case (0x03, 0x0B): return "MIFARE Ultralight EV1 (MF0UL11)"
        case (0x03, 0x0E): return "MIFARE Ultralight EV1 (MF0UL21)"
        default: return nil
        }
    }

    /// ISO/IEC 7816-4 §5.6 status words, and the DESFire ones in their ISO-wrapped form (91 xx).
    static func statusWord(_ sw1: UInt8, _ sw2: UInt8) -> String {
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
        case (0x91, let s): return desfireStatus(s)
        default: return "status \(Hex.encode([sw1, sw2]))"
        }
    }

    static func desfireStatus(_ s: UInt8) -> String {
        switch s {
        case 0x00: return "DESFire OK"
        case 0x0C: return "DESFire no changes"
        case 0x0E: return "DESFire out of EEPROM"
        case 0x1C: return "DESFire illegal command"
        case 0x1E: return "DESFire integrity error"
        case 0x40: return "DESFire no such key"
        case 0x7E: return "DESFire length error"
        case 0x9D: return "DESFire permission denied"
        case 0x9E: return "DESFire parameter error"
        case 0xA0: return "DESFire application not found"
        case 0xAE: return "DESFire authentication error"
        case 0xAF: return "DESFire additional frame"
        case 0xBE: return "DESFire boundary error"
        case 0xCA: return "DESFire command aborted"
        case 0xDE: return "DESFire duplicate"
        case 0xF0: return "DESFire file not found"
        default: return "DESFire status \(Hex.encode([s]))"
        }
    }
}
