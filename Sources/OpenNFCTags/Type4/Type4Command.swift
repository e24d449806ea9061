/// Command APDUs of the Type 4 procedures (NFC Forum T4T 2.0 §5.4; ISO 7816-4 §7.1–7.2).
enum Type4Command {
    /// NDEF Tag Application DF name, mapping 2.0 / 3.0.
    static let applicationV2: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// NDEF Tag Application DF name, mapping 1.0.
    static let applicationV1: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    static let ccFileID: UInt16 = 0xE103

    /// SELECT by DF name: v2 with Le `00`, v1 without.
    static func selectApplication(v2: Bool) -> [UInt8] {
        v2 ? ISO7816Select.byName(applicationV2) : [0x00, 0xA4, 0x04, 0x00, 0x07] + applicationV1
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

    /// The last offset the even-INS READ/UPDATE BINARY address (P1 bit 8 = 0: a 15-bit offset; ISO/IEC 7816-4
    /// §11.3.3). Past it, a mapping 3.0 reader uses the odd-INS forms (NFC Forum T4T 1.0 (2017) §5.4).
    static let lastEvenOffset = 0x7FFF

    /// A BER-TLV length (ISO/IEC 7816-4 §5.2): `L`, `81 L` or `82 LL LL`.
    static func berLength(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        if n < 0x100 { return [0x81, UInt8(n)] }
        return [0x82, UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }

    /// The offset data object `54 03 o1 o2 o3` of the odd-INS commands.
    static func offsetObject(_ offset: Int) -> [UInt8] {
        [0x54, 0x03, UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)]
    }

    /// Bytes a discretionary data object `53 L …` adds around `n` data bytes.
    static func dataObjectOverhead(_ n: Int) -> Int { 1 + berLength(n).count }

    /// READ BINARY with the odd INS `B1` (ISO/IEC 7816-4 §11.3.3): P1-P2 `0000` (the current EF), the offset data
    /// object in the data field, and Le counting the whole `53` data object the card answers with.
    static func readBinaryODO(offset: Int, expected: Int) -> [UInt8] {
        let body: [UInt8] = [0x00, 0xB1, 0x00, 0x00, 0x05] + offsetObject(offset)
        if expected <= 256 { return body + [UInt8(expected & 0xFF)] }
        return [0x00, 0xB1, 0x00, 0x00, 0x00, 0x00, 0x05] + offsetObject(offset)
            + [UInt8(expected >> 8 & 0xFF), UInt8(expected & 0xFF)]
    }

    /// UPDATE BINARY with the odd INS `D7` (ISO/IEC 7816-4 §11.3.5): the offset data object then the data in a
    /// discretionary data object `53`.
    static func updateBinaryODO(offset: Int, data: ArraySlice<UInt8>) -> [UInt8] {
        let field = offsetObject(offset) + [0x53] + berLength(data.count) + data
        if field.count <= 255 { return [0x00, 0xD7, 0x00, 0x00, UInt8(field.count)] + field }
        return [0x00, 0xD7, 0x00, 0x00, 0x00, UInt8(field.count >> 8), UInt8(field.count & 0xFF)] + field
    }

    /// UPDATE BINARY at a 15-bit offset: short Lc (1–255), or extended Lc when above 255.
    static func updateBinary(offset: Int, data: ArraySlice<UInt8>) -> [UInt8] {
        let header: [UInt8] = [0x00, 0xD6, UInt8(offset >> 8), UInt8(offset & 0xFF)]
        if data.count <= 255 { return header + [UInt8(data.count)] + data }
        return header + [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
    }
}
