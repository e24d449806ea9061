internal import OpenNFCBytes

/// The Type 4 capability container file `E103` (NFC Forum T4T 2.0 §5.1): CCLEN, mapping
/// version, MLe, MLc and the NDEF File Control TLV (`04 06` file ID, maximum file size, read and write access) or,
/// from mapping 3.0 on (NFC Forum T4T 1.0 (2017) §4.7.3), the ENDEF File Control TLV (`06 08` file ID, 4-byte
/// maximum file size, read and write access) of an NDEF file whose length field ENLEN has 4 bytes.
struct Type4CapabilityContainer: Hashable {
    /// Bytes read from the CC file: the mandatory part up to the end of the NDEF File Control TLV.
    static let mandatoryLength = 15
    /// The mandatory part when it holds the ENDEF File Control TLV (two more size bytes).
    static let extendedLength = 17

    /// Whether the first 15 bytes announce the ENDEF File Control TLV, so that 2 more bytes must be read.
    static func announcesExtendedTLV(_ b: [UInt8]) -> Bool { b.count >= 9 && b[7] == 0x06 && b[8] == 0x08 }

    var ccLength: Int
    var mappingVersion: UInt8
    /// Largest R-APDU data the tag sends (MLe).
    var maxResponseData: Int
    /// Largest C-APDU data the tag accepts (MLc).
    var maxCommandData: Int
    var fileID: UInt16
    /// Maximum NDEF file size, NLEN included.
    var maxFileSize: Int
    var readAccess: UInt8
    var writeAccess: UInt8
    /// Whether the CC holds the ENDEF File Control TLV: a 4-byte ENLEN, odd-INS commands past offset `7FFF`.
    var isExtended = false

    var majorVersion: Int { Int(mappingVersion >> 4) }

    /// Bytes of the length field at the start of the NDEF file: NLEN (2) or ENLEN (4).
    var lengthFieldSize: Int { isExtended ? 4 : 2 }

    /// Offset of the NDEF file's write access byte in the CC file.
    var writeAccessOffset: Int { isExtended ? 16 : 14 }

    /// Parses the first 15 bytes of the CC file, or says why they do not describe an NDEF file the reader can use.
    static func parse(_ b: [UInt8]) -> Result<Type4CapabilityContainer, ParseFailure> {
        guard b.count >= mandatoryLength else {
            return .failure(ParseFailure("CC file answered \(b.count) bytes, fewer than 15"))
        }
        let cc = Type4CapabilityContainer(
            ccLength: Int(b[0]) << 8 | Int(b[1]), mappingVersion: b[2],
            maxResponseData: Int(b[3]) << 8 | Int(b[4]), maxCommandData: Int(b[5]) << 8 | Int(b[6]),
            fileID: UInt16(b[9]) << 8 | UInt16(b[10]), maxFileSize: Int(b[11]) << 8 | Int(b[12]),
            readAccess: b[13], writeAccess: b[14])
        if cc.ccLength < mandatoryLength { return .failure(ParseFailure("CCLEN \(cc.ccLength) is below 15")) }
        if !(1...3).contains(cc.majorVersion) {
            return .failure(ParseFailure("mapping version \(Hex.encode([b[2]])) has an unknown major version"))
        }
        if b[7] == 0x06 { return parseExtended(b, cc) }
        guard b[7] == 0x04, b[8] == 0x06 else {
            return .failure(
                ParseFailure("CC byte 7 holds TLV \(Hex.encode(b[7...8])), not the NDEF File Control TLV 04 06"))
        }
        if cc.maxFileSize < 3 || cc.maxFileSize == 0xFFFF {
            return .failure(ParseFailure("maximum NDEF file size \(cc.maxFileSize) is invalid"))
        }
        return checked(cc)
    }

    /// The checks both File Control TLVs share: MLe, MLc, a non-reserved file ID, read access granted.
    private static func checked(_ cc: Type4CapabilityContainer) -> Result<Type4CapabilityContainer, ParseFailure> {
        if cc.maxResponseData < 0x0F { return .failure(ParseFailure("MLe \(cc.maxResponseData) is below 15")) }
        if cc.maxCommandData < 1 { return .failure(ParseFailure("MLc is 0")) }
        if [0x0000, 0xE102, 0xE103, 0x3F00, 0x3FFF, 0xFFFF].contains(cc.fileID) {
            let id = [UInt8(cc.fileID >> 8), UInt8(cc.fileID & 0xFF)]
            return .failure(ParseFailure("NDEF file ID \(Hex.encode(id)) is reserved"))
        }
        if cc.readAccess != 0x00 {
            return .failure(ParseFailure("NDEF file read access \(Hex.encode([cc.readAccess])) is not granted"))
        }
        return .success(cc)
    }

    /// The ENDEF File Control TLV (`06 08`): file ID, 4-byte maximum size (`00000005`–`FFFFFFFE`), access bytes.
    private static func parseExtended(_ b: [UInt8], _ base: Type4CapabilityContainer)
        -> Result<Type4CapabilityContainer, ParseFailure>
    {
        guard b[8] == 0x08 else {
            return .failure(ParseFailure("ENDEF File Control TLV with L = \(Hex.encode([b[8]])), not 08"))
        }
        guard b.count >= extendedLength else {
            return .failure(ParseFailure("CC file answered \(b.count) bytes, fewer than the 17 of an ENDEF TLV"))
        }
        var cc = base
        cc.isExtended = true
        cc.maxFileSize = b[11...14].reduce(0) { $0 << 8 | Int($1) }
        cc.readAccess = b[15]
        cc.writeAccess = b[16]
        if cc.majorVersion < 3 {
            return .failure(
                ParseFailure("an ENDEF File Control TLV needs mapping 3.0, the CC says \(Hex.encode([b[2]]))"))
        }
        if cc.ccLength < extendedLength { return .failure(ParseFailure("CCLEN \(cc.ccLength) is below 17")) }
        if cc.maxFileSize < 5 || cc.maxFileSize == 0xFFFF_FFFF {
            return .failure(ParseFailure("maximum ENDEF file size \(cc.maxFileSize) is invalid"))
        }
        return checked(cc)
    }

    struct ParseFailure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The NDEF file's write access: `00` granted; `FF` none; `80`–`FE` proprietary, treated as none.
    var isWritable: Bool { writeAccess == 0x00 }

    /// The largest message: the file size less NLEN, within what short-offset READ/UPDATE BINARY reach (P1 bit 7
    /// must be 0, so the last addressable offset is 0x7FFF). An ENDEF file: the size less ENLEN, within what a
    /// 3-byte offset data object of the odd-INS commands reaches (offset `FFFFFF`).
    var capacity: Int {
        isExtended ? min(maxFileSize, 0x100_0000) - 4 : min(maxFileSize, 0x8000) - 2
    }
}
