internal import OpenNFCBytes
package import OpenNFCRF

/// MIFARE DESFire native commands and status codes for `--trace` and `opennfc send` (NXP MF3ICD81 datasheet §9).
package enum DESFireTrace: FrameDescriber {
    package static let frameModes: [RFFrameMode] = [.isoDEP]

    static let names: [UInt8: String] = [
        0x60: "GetVersion", 0xAF: "AdditionalFrame", 0x6A: "GetApplicationIDs", 0x5A: "SelectApplication",
        0x6F: "GetFileIDs", 0xF5: "GetFileSettings", 0xBD: "ReadData", 0x3D: "WriteData", 0x0A: "Authenticate",
        0x1A: "AuthenticateISO", 0xAA: "AuthenticateAES", 0x45: "GetKeySettings", 0x6C: "GetValue",
        0xCA: "CreateApplication", 0xDA: "DeleteApplication", 0xFC: "FormatPICC", 0x6E: "GetFreeMemory",
        0x51: "GetCardUID", 0xBB: "ReadRecords", 0x3B: "WriteRecord", 0xC7: "CommitTransaction",
    ]

    package static func describe(command c: [UInt8]) -> String? {
        guard !c.isEmpty else { return nil }
        guard let name = names[c[0]] else { return nil }
        if c[0] == 0x5A, c.count == 4 { return "\(name) \(Array(c[1...]).hexString)" }
        return name
    }

    package static func describe(response r: RFResponse, to c: [UInt8]) -> String? {
        guard case .frame(let b) = r else { return nil }
        if c.first == 0x60 || c.first == 0xAF, b.count == 8, b.first == 0xAF || b.first == 0x00 {
            return b.first == 0xAF ? "more data follows (AF)" : "OK"
        }
        return b.first.map(status)
    }

    package static func status(_ s: UInt8) -> String {
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
