internal import OpenNFCBytes

/// The answer to an NXP GET_VERSION (`60`), which tells NTAG21x from MIFARE Ultralight EV1 when both show the
/// Ultralight ATR (NTAG213/215/216 datasheet §10.1, MF0ULx1 §8.11).
///
/// Bytes: header `00`, vendor (`04` NXP), product type (`03` Ultralight, `04` NTAG), subtype, major, minor, storage
/// size, protocol (`03` ISO 14443-3).
package struct NXPVersion: Sendable, Hashable {
    package var bytes: [UInt8]

    /// Nil unless `bytes` is an 8-byte GET_VERSION answer.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count == 8, bytes[0] == 0x00 else { return nil }
        self.bytes = bytes
    }

    package var vendor: UInt8 { bytes[1] }
    package var productType: UInt8 { bytes[2] }
    package var subtype: UInt8 { bytes[3] }
    package var storageSize: UInt8 { bytes[6] }

    /// The chip name: `NTAG213`, `NTAG215`, `NTAG216`, `NTAG210`, `NTAG212`, `MIFARE Ultralight EV1 (MF0UL11)`, …
    package var chipName: String {
        let nxp = vendor == 0x04
        switch (nxp, productType, storageSize) {
        case (true, 0x04, 0x0B): return "NTAG210"
        case (true, 0x04, 0x0E): return "NTAG212"
        case (true, 0x04, 0x0F): return subtype == 0x04 ? "NTAG213 F" : "NTAG213"
        case (true, 0x04, 0x11): return "NTAG215"
        case (true, 0x04, 0x13): return subtype == 0x05 ? "NTAG I2C 1k" : (subtype == 0x04 ? "NTAG216 F" : "NTAG216")
        case (true, 0x04, 0x15): return "NTAG I2C 2k"
        case (true, 0x03, 0x0B): return "MIFARE Ultralight EV1 (MF0UL11)"
        case (true, 0x03, 0x0E): return "MIFARE Ultralight EV1 (MF0UL21)"
        case (true, 0x03, _): return "MIFARE Ultralight family"
        case (true, 0x04, _): return "NTAG family"
        default: return "vendor \(Hex.encode([vendor])) product \(Hex.encode([productType]))"
        }
    }

    /// The chip identifier the project's tag files use (`ntag213`, `ultralight-ev1-mf0ul11`, …), when known.
    package var chipIdentifier: String? {
        switch chipName {
        case "NTAG210": return "ntag210"
        case "NTAG212": return "ntag212"
        case "NTAG213": return "ntag213"
        case "NTAG215": return "ntag215"
        case "NTAG216": return "ntag216"
        case "MIFARE Ultralight EV1 (MF0UL11)": return "mf0ul11"
        case "MIFARE Ultralight EV1 (MF0UL21)": return "mf0ul21"
        default: return nil
        }
    }
}
