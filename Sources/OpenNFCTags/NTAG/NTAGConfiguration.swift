/// The password configuration of an NTAG21x or MIFARE Ultralight EV1 chip, as its last four pages hold it
/// (NTAG213/215/216 datasheet §8.5.7 "Configuration pages", §8.8 "Password verification protection";
/// MF0ULx1 datasheet §8.5 / §8.6):
///
/// | Page | Byte 0 | Byte 1 | Byte 2 | Byte 3 |
/// |---|---|---|---|---|
/// | CFG0 (last − 3) | MIRROR (NTAG) / MOD (EV1) | RFUI | MIRROR_PAGE (NTAG) / RFUI | AUTH0 |
/// | CFG1 (last − 2) | ACCESS | RFUI / VCTID | RFUI | RFUI |
/// | PWD (last − 1) | PWD0 | PWD1 | PWD2 | PWD3 |
/// | PACK (last) | PACK0 | PACK1 | RFUI | RFUI |
///
/// ACCESS: bit 7 PROT (1: reads need the password too), bit 6 CFGLCK (CFG0/CFG1 permanently locked), bit 4
/// NFC_CNT_EN, bit 3 NFC_CNT_PWD_PROT, bits 2–0 AUTHLIM (0: unlimited tries). AUTH0 is the first protected page;
/// a value past the last page turns protection off (factory 0xFF). PWD and PACK always read back as zeros.
package struct NTAGConfiguration: Sendable, Hashable {
    /// The CFG0 page bytes as read.
    package var cfg0: [UInt8]
    /// The CFG1 page bytes as read.
    package var cfg1: [UInt8]

    package init(cfg0: [UInt8], cfg1: [UInt8]) {
        precondition(cfg0.count == 4 && cfg1.count == 4)
        self.cfg0 = cfg0
        self.cfg1 = cfg1
    }

    /// First page that needs the password.
    package var auth0: Int {
        get { Int(cfg0[3]) }
        set { cfg0[3] = UInt8(newValue) }
    }

    /// Reads need the password too (PROT).
    package var protectsReads: Bool {
        get { cfg1[0] & 0x80 != 0 }
        set { cfg1[0] = newValue ? cfg1[0] | 0x80 : cfg1[0] & ~0x80 }
    }

    /// CFG0 and CFG1 are permanently write-locked (CFGLCK).
    package var configurationLocked: Bool { cfg1[0] & 0x40 != 0 }

    /// Failed PWD_AUTH attempts allowed before the protected area is sealed for good (0: no limit).
    package var authenticationLimit: Int {
        get { Int(cfg1[0] & 0x07) }
        set { cfg1[0] = (cfg1[0] & ~0x07) | UInt8(newValue & 0x07) }
    }

    /// Whether any page is protected on a chip with `totalPages` pages.
    package func isProtecting(totalPages: Int) -> Bool { auth0 < totalPages }
}
