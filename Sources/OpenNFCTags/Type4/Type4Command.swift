/// Command APDUs of the Type 4 procedures (NFC Forum T4T 2.0 §5.4; ISO 7816-4 §7.1–7.2).
enum Type4Command {
    /// NDEF Tag Application DF name, mapping 2.0 / 3.0.
    static let applicationV2: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// NDEF Tag Application DF name, mapping 1.0.
    static let applicationV1: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    static let ccFileID: UInt16 = 0xE103

    /// SELECT by DF name: v2 with Le `00`, v1 without.
    static func selectApplication(v2: Bool) -> [UInt8] {
        v2 ? [0x00, 0xA4, 0x04, 0x00, 0x07] + applicationV2 + [0x00] : [0x00, 0xA4, 0x04, 0x00, 0x07] + applicationV1
    }

    /// SELECT by file ID: v2 P2 `0C` (no response data), v1 P2 `00`.
    static func selectFile(_ id: UInt16, v2: Bool) -> [UInt8] {
        [0x00, 0xA4, 0x00, v2 ? 0x0C : 0x00, 0x02, UInt8(id >> 8), UInt8(id & 0xFF)]
    }

    /// READ BINARY at a 15-bit offset: short Le (1–256, 256 as `00`), or extended Le when above 256.
    static func readBinary(offset: Int, length: Int) -> [UInt8] {
        let header: [UInt8] = [0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF)]
        if length <= 256 { return header + [UInt8(length & 0xFF)] }
        return header + [0x00, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
    }

    /// UPDATE BINARY at a 15-bit offset: short Lc (1–255), or extended Lc when above 255.
    static func updateBinary(offset: Int, data: ArraySlice<UInt8>) -> [UInt8] {
        let header: [UInt8] = [0x00, 0xD6, UInt8(offset >> 8), UInt8(offset & 0xFF)]
        if data.count <= 255 { return header + [UInt8(data.count)] + data }
        return header + [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
    }
}
