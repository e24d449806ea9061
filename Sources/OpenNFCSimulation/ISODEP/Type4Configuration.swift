import OpenNFCBytes

/// The shape of a virtual NFC Forum Type 4 Tag (mapping version 1.0, 2.0 or 3.0): what its CC file advertises and
/// how its NDEF file is laid out. Mapping 3.0 (NFC Forum T4T 1.0, 2017, §4.7 and §5) describes the NDEF file with the
/// ENDEF File Control TLV (`06 08`: file id, 4-byte maximum size, access bytes) and stores the message length in a
/// 4-byte ENLEN, so that a file can exceed 32 KiB; a reader reaches offsets past `7FFF` with the odd-INS READ and
/// UPDATE BINARY (`B1`/`D7` with an offset data object). Defaults are those `opennfc tag new --chip type4` writes: mapping version 2.0
/// (CC version byte `20`), NDEF file `E104` of 4096 bytes including the 2-byte NLEN, MLe and MLc `00FF`, read and
/// write access `00`, short APDUs only.
public struct Type4Configuration: Sendable, Hashable {
    /// CC mapping version byte: `10` (1.0, DF name `D2760000850100`), `20` (2.0, `D2760000850101`) or `30` (3.0,
    /// same DF name; ENDEF File Control TLV and a 4-byte ENLEN).
    public var mappingVersion: UInt8
    /// File identifier of the NDEF file (T4T §5.1.2: not `0000`, `E102`, `E103`, `3F00`, `3FFF`, `FFFF`).
    public var ndefFileID: UInt16
    /// Size of the NDEF file in bytes, NLEN included (CC "maximum NDEF file size", `0005`–`FFFE`); under mapping
    /// 3.0 ENLEN included, up to 16 MiB (`01000000`: the last offset a 3-byte offset data object names is `FFFFFF`).
    public var ndefFileSize: Int
    /// Maximum R-APDU data size the card sends (`000F`–`FFFF`; above `0100` only with extended length).
    public var mle: Int
    /// Maximum C-APDU data size the card accepts (`0001`–`FFFF`; above `00FF` only with extended length).
    public var mlc: Int
    /// NDEF file read access byte: `00` granted, `80`–`FE` proprietary (denied by the virtual card), `FF` none.
    public var readAccess: UInt8
    /// NDEF file write access byte: `00` granted, `80`–`FE` proprietary (denied), `FF` read-only (locked).
    public var writeAccess: UInt8
    /// Write access of the CC file itself. `FF` (default) keeps the CC read-only as most commercial T4T chips
    /// do; `00` lets a reader write it, and the card then applies the access bytes it finds at CC offsets `0D`/`0E`
    /// to the NDEF file (the Android way of making a T4T read-only).
    public var ccWriteAccess: UInt8
    /// Whether extended length APDUs are accepted (otherwise they are answered `67 00`).
    public var extendedLength: Bool
    /// Whether the NDEF application answers both T4T DF names (`…0101` and `…0100`) rather than only the one of
    /// its mapping version. On by default: a reader that knows only mapping 1.0 selects `…0100` (with the 1.0
    /// forms: no Le, SELECT by file identifier with P2 `00`), and T4T 2.0 §5.4.2 has readers fall back to it.
    public var answersBothNDEFNames: Bool
    /// Whether the card hosts the NDEF application at all (false: an applet-only card such as a payment card).
    public var hostsNDEFApplication: Bool
    /// Whether the card advertises PACE: its MF then holds EF.CardAccess (`011C`, SFI `1C`) with the
    /// ``paceCardAccess`` SecurityInfos (ICAO Doc 9303 Part 10 §3.11.2). PACE itself is not run by the card.
    public var supportsPACE = false

    /// EF.CardAccess of a PACE card: `SecurityInfos` holding one `PACEInfo` (ICAO Doc 9303 Part 11 §9.2.1) with
    /// protocol id-PACE-ECDH-GM-AES-CBC-CMAC-128 `0.4.0.127.0.7.2.2.4.2.2`, version 2 and standardized domain
    /// parameters 13 (brainpoolP256r1, Part 11 §9.5.1), DER-encoded.
    public static let paceCardAccess: [UInt8] = [
        0x31, 0x14, 0x30, 0x12, 0x06, 0x0A, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x02, 0x02, 0x02, 0x01,
        0x02, 0x02, 0x01, 0x0D,
    ]
    /// File identifier of EF.CardAccess.
    public static let cardAccessFileID: UInt16 = 0x011C

    public init(
        mappingVersion: UInt8 = 0x20, ndefFileID: UInt16 = 0xE104, ndefFileSize: Int = 4096, mle: Int = 0x00FF,
        mlc: Int = 0x00FF, readAccess: UInt8 = 0x00, writeAccess: UInt8 = 0x00, ccWriteAccess: UInt8 = 0xFF,
        extendedLength: Bool = false, answersBothNDEFNames: Bool = true, hostsNDEFApplication: Bool = true
    ) {
        self.mappingVersion = mappingVersion
        self.ndefFileID = ndefFileID
        self.ndefFileSize = ndefFileSize
        self.mle = mle
        self.mlc = mlc
        self.readAccess = readAccess
        self.writeAccess = writeAccess
        self.ccWriteAccess = ccWriteAccess
        self.extendedLength = extendedLength
        self.answersBothNDEFNames = answersBothNDEFNames
        self.hostsNDEFApplication = hostsNDEFApplication
    }

    /// DF name of the NDEF Tag Application for mapping version 2.0 and later (T4T §5.1.1).
    public static let ndefApplicationNameV2: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// DF name of the NDEF Tag Application for mapping version 1.0.
    public static let ndefApplicationNameV1: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    /// File identifier of the Capability Container file.
    public static let ccFileID: UInt16 = 0xE103

    /// Whether the CC holds the ENDEF File Control TLV (T = `06`) and the file a 4-byte ENLEN: mapping 3.0.
    public var usesExtendedNDEFFile: Bool { mappingVersion >> 4 == 3 }

    /// Bytes of the length field at the start of the NDEF file: NLEN (2) or ENLEN (4, mapping 3.0).
    public var lengthFieldSize: Int { usesExtendedNDEFFile ? 4 : 2 }

    /// The largest NDEF file the configuration can describe.
    public var maxNDEFFileSize: Int { usesExtendedNDEFFile ? 0x100_0000 : 0xFFFE }

    /// The DF name the NDEF application has under this mapping version.
    public var ndefApplicationName: [UInt8] {
        mappingVersion >> 4 == 1 ? Self.ndefApplicationNameV1 : Self.ndefApplicationNameV2
    }

    /// Throws when a value is outside what T4T 1.0 §5.1.2 allows or the card can serve.
    public func validate() throws(ISODEPCardError) {
        func fail(_ reason: String) -> ISODEPCardError { ISODEPCardError(.invalidConfiguration, reason) }
        guard (1...3).contains(mappingVersion >> 4) else {
            throw fail("mapping version \(hex(mappingVersion)): only 1.x (10), 2.x (20) and 3.x (30) are emulated")
        }
        guard ![0x0000, 0xE102, 0xE103, 0x3F00, 0x3FFF, 0xFFFF].contains(ndefFileID) else {
            throw fail("NDEF file id \(hex16(ndefFileID)) is reserved")
        }
        guard (5...maxNDEFFileSize).contains(ndefFileSize) else {
            let mapping = usesExtendedNDEFFile ? " (mapping 3.0 ENDEF file)" : ""
            throw fail("NDEF file size \(ndefFileSize) is outside 5…\(maxNDEFFileSize)\(mapping)")
        }
        let maxMLe = extendedLength ? 0xFFFF : 0x100
        let maxMLc = extendedLength ? 0xFFFF : 0xFF
        guard (0x0F...maxMLe).contains(mle) else { throw fail("MLe \(mle) is outside 15…\(maxMLe)") }
        guard (0x01...maxMLc).contains(mlc) else { throw fail("MLc \(mlc) is outside 1…\(maxMLc)") }
    }
}

fileprivate func hex(_ b: UInt8) -> String { Hex.encode([b]) }
fileprivate func hex16(_ v: UInt16) -> String { Hex.encode([UInt8(v >> 8), UInt8(v & 0xFF)]) }
