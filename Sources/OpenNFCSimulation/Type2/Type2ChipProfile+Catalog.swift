/// The chips this project simulates, one table row each (NXP datasheets: NTAG213/215/216 rev. 3.2 §8.5–8.8,
/// MF0ICU1 rev. 3.9 §7.5, MF0ULX1 rev. 3.2 §8.5–8.7; factory values from the same sections and from public dumps,
/// GET_VERSION answers from NTAG213/215/216 §10.1 and MF0ULx1 §8.1).
///
/// | Chip | Pages | User pages | CC (NDEF) | Dyn. lock | CFG0 | GET_VERSION |
/// |---|---|---|---|---|---|---|
/// | ntag213 | 45 | 04–27h | E1 10 12 00 | 28h, 2 pages/bit | 29h | 00 04 04 02 01 00 0F 03 |
/// | ntag215 | 135 | 04–81h | E1 10 3E 00 | 82h, 16 pages/bit | 83h | 00 04 04 02 01 00 11 03 |
/// | ntag216 | 231 | 04–E1h | E1 10 6D 00 | E2h, 16 pages/bit | E3h | 00 04 04 02 01 00 13 03 |
/// | ultralight (MF0ICU1) | 16 | 04–0Fh | E1 10 06 00 | — | — | — (silent) |
/// | ultralight-ev1-48 (MF0UL11) | 20 | 04–0Fh | E1 10 06 00 | — | 10h | 00 04 03 01 01 00 0B 03 |
/// | ultralight-ev1-128 (MF0UL21) | 41 | 04–23h | E1 10 10 00 | 24h, 2 pages/bit | 25h | 00 04 03 01 01 00 0E 03 |
/// | ultralight-c (MF0ICU2) | 48 | 04–27h | E1 10 12 00 | 28h, 4 pages/bit (LOCK2) | AUTH0 2Ah, AUTH1 2Bh | — (silent) |
/// | ntag-i2c-plus-1k (NT3H2111) | sector 0: 00–E9h | 04–E1h | E1 10 6D 00 | E2h, 16 pages/bit | E3h (AUTH0) | 00 04 04 05 02 02 13 03 |
/// | ntag-i2c-plus-2k (NT3H2211) | sector 0: 00–E9h, sector 1: 00–FFh | 04–E1h, 1:00–FFh | E1 10 EA 00 | E2h (sector 0 only) | E3h (AUTH0) | 00 04 04 05 02 02 15 03 |
///
/// Factory configuration (NTAG213/215/216 §8.5.7, MF0ULx1 §8.5.7): NTAG21x CFG0 `04 00 00 FF` (STRG_MOD_EN set,
/// AUTH0 FFh), Ultralight EV1 CFG0 `00 00 00 FF`; CFG1 `00 05 00 00` on both (ACCESS 00h; byte 1 is the virtual card
/// type identifier 05h that VCSL returns on Ultralight EV1 and that real NTAG21x chips read back in the same place),
/// PWD `FF FF FF FF`, PACK `00 00`. Page 2 byte 1 reads 48h, the CC and lock bytes of an unprogrammed chip are as in
/// the table (CC OTP zero on the Ultralight family, which NXP ships unformatted); the dynamic lock page reads
/// `00 00 00 BD` on NTAG21x (RFUI byte BDh as on real chips).
///
/// The NTAG215/216 and MF0UL21 dynamic-lock bit maps (pages per bit, block-lock grouping) are our reading of the
/// datasheet figures and are not confirmed by NTAG213/215/216 §8.5.2, which leaves them open.
extension Type2ChipProfile {
    /// NXP NTAG213: 45 pages, 144 bytes user memory.
    public static let ntag213 = Type2ChipProfile(
        name: "ntag213", displayName: "NTAG213", family: .ntag21x, pageCount: 45, lastUserPage: 0x27,
        version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03],
        dynamicLock: DynamicLock(page: 0x28, lastPage: 0x27, pagesPerBit: 2, bitsPerBlockBit: 2, factoryByte3: 0xBD),
        configPage: 0x29, internalByte: 0x48, ndefCC: [0xE1, 0x10, 0x12, 0x00],
        // Lock Control TLV (T2T §2.3.1): position A0 (page 0xA, offset 0) with 2^4-byte pages = byte 160 = page
        // 0x28; 0x0C = 12 lock bits; 0x34 = 2^3 bytes locked per bit. Then an empty NDEF TLV and a Terminator.
        ndefData: [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE], shippedFormatted: true,
        factoryConfig: [0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00])

    /// NXP NTAG215: 135 pages, 504 bytes user memory.
    public static let ntag215 = Type2ChipProfile(
        name: "ntag215", displayName: "NTAG215", family: .ntag21x, pageCount: 135, lastUserPage: 0x81,
        version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03],
        dynamicLock: DynamicLock(page: 0x82, lastPage: 0x81, pagesPerBit: 16, bitsPerBlockBit: 2, factoryByte3: 0xBD),
        configPage: 0x83, internalByte: 0x48, ndefCC: [0xE1, 0x10, 0x3E, 0x00],
        ndefData: [0x03, 0x00, 0xFE], shippedFormatted: true,
        factoryConfig: [0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00])

    /// NXP NTAG216: 231 pages, 888 bytes user memory.
    public static let ntag216 = Type2ChipProfile(
        name: "ntag216", displayName: "NTAG216", family: .ntag21x, pageCount: 231, lastUserPage: 0xE1,
        version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03],
        dynamicLock: DynamicLock(page: 0xE2, lastPage: 0xE1, pagesPerBit: 16, bitsPerBlockBit: 2, factoryByte3: 0xBD),
        configPage: 0xE3, internalByte: 0x48, ndefCC: [0xE1, 0x10, 0x6D, 0x00],
        ndefData: [0x03, 0x00, 0xFE], shippedFormatted: true,
        factoryConfig: [0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00])

    /// MIFARE Ultralight MF0ICU1: 16 pages, 48 bytes user memory.
    public static let ultralight = Type2ChipProfile(
        name: "ultralight", displayName: "MIFARE Ultralight MF0ICU1", family: .ultralight, pageCount: 16,
        lastUserPage: 0x0F, version: nil, dynamicLock: nil, configPage: nil, internalByte: 0x48,
        ndefCC: [0xE1, 0x10, 0x06, 0x00], ndefData: [0x03, 0x00, 0xFE], shippedFormatted: false,
        factoryConfig: [])

    /// MIFARE Ultralight EV1 MF0UL11: 20 pages, 48 bytes user memory.
    public static let ultralightEV1_48 = Type2ChipProfile(
        name: "ultralight-ev1-48", displayName: "MIFARE Ultralight EV1 MF0UL11", family: .ultralightEV1,
        pageCount: 20, lastUserPage: 0x0F, version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03],
        dynamicLock: nil, configPage: 0x10, internalByte: 0x48, ndefCC: [0xE1, 0x10, 0x06, 0x00],
        ndefData: [0x03, 0x00, 0xFE], shippedFormatted: false,
        factoryConfig: [0x00, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00])

    /// MIFARE Ultralight EV1 MF0UL21: 41 pages, 128 bytes user memory.
    public static let ultralightEV1_128 = Type2ChipProfile(
        name: "ultralight-ev1-128", displayName: "MIFARE Ultralight EV1 MF0UL21", family: .ultralightEV1,
        pageCount: 41, lastUserPage: 0x23, version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03],
        dynamicLock: DynamicLock(page: 0x24, lastPage: 0x23, pagesPerBit: 2, bitsPerBlockBit: 2, factoryByte3: 0x00),
        configPage: 0x25, internalByte: 0x48, ndefCC: [0xE1, 0x10, 0x10, 0x00],
        ndefData: [0x03, 0x00, 0xFE], shippedFormatted: false,
        factoryConfig: [0x00, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00])

    /// MIFARE Ultralight C MF0ICU2: 48 pages, 144 bytes user memory, 3DES authentication (MF0ICU2 rev. 3.3 §7.5,
    /// Table 13 initial memory: AUTH0 30h, AUTH1 00h, key pages spelling "BREAKMEIFYOUCAN!").
    public static let ultralightC = Type2ChipProfile(
        name: "ultralight-c", displayName: "MIFARE Ultralight C MF0ICU2", family: .ultralightC, pageCount: 48,
        lastUserPage: 0x27, version: nil, dynamicLock: nil, configPage: nil, internalByte: 0x48,
        ndefCC: [0xE1, 0x10, 0x12, 0x00], ndefData: [0x03, 0x00, 0xFE], shippedFormatted: false,
        factoryConfig: [])

    /// NXP NTAG I2C plus 1k (NT3H2111, NFC side; NT3H2111/NT3H2211 datasheet rev. 3.x §8.3 memory organisation,
    /// §9 NFC commands): sector 0 holds the header, user memory 04h–E1h (888 bytes), the dynamic lock bytes E2h,
    /// AUTH0 (E3h byte 3), ACCESS (E4h), PWD (E5h), PACK (E6h), PT_I2C (E7h) and the configuration registers
    /// (E8h–E9h); EAh–FFh do not exist. Sector 3 pages F8h–F9h are the session registers.
    public static let ntagI2CPlus1k = Type2ChipProfile(
        name: "ntag-i2c-plus-1k", displayName: "NTAG I2C plus 1k (NT3H2111)", family: .ntagI2CPlus,
        pageCount: 0xEA, lastUserPage: 0xE1, version: [0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x13, 0x03],
        dynamicLock: DynamicLock(page: 0xE2, lastPage: 0xE1, pagesPerBit: 16, bitsPerBlockBit: 2, factoryByte3: 0x00),
        configPage: 0xE3, internalByte: 0x48, ndefCC: [0xE1, 0x10, 0x6D, 0x00], ndefData: [0x03, 0x00, 0xFE],
        shippedFormatted: true, factoryConfig: [0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00],
        factoryRegisters: [0x01, 0x00, 0xF8, 0x48, 0x08, 0x01, 0x00, 0x00])

    /// NXP NTAG I2C plus 2k (NT3H2211): sector 0 as the 1k, then sector 1 pages 00h–FFh of user memory
    /// (1912 bytes in all). The CC declares 1872 bytes (`EA`); since that linear NFC Forum data area runs through
    /// sector 0's lock, configuration and missing pages (E2h–FFh), the factory Memory Control TLV reserves those
    /// 120 bytes (byte 904 on) so that a reader flows around them.
    public static let ntagI2CPlus2k = Type2ChipProfile(
        name: "ntag-i2c-plus-2k", displayName: "NTAG I2C plus 2k (NT3H2211)", family: .ntagI2CPlus,
        pageCount: 0x200, lastUserPage: 0x1FF, version: [0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x15, 0x03],
        dynamicLock: DynamicLock(page: 0xE2, lastPage: 0xE1, pagesPerBit: 16, bitsPerBlockBit: 2, factoryByte3: 0x00),
        configPage: 0xE3, internalByte: 0x48, ndefCC: [0xE1, 0x10, 0xEA, 0x00],
        // Memory Control TLV (T2T §2.3.2): position E8h = major offset 14 × 2^6 + 8 = byte 904, 120 (78h) bytes,
        // 2^6-byte major offsets; then an empty NDEF TLV and a Terminator.
        ndefData: [0x02, 0x03, 0xE8, 0x78, 0x06, 0x03, 0x00, 0xFE], shippedFormatted: true,
        factoryConfig: [0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00], invalidPages: 0xEA...0xFF,
        factoryRegisters: [0x01, 0x00, 0xF8, 0x48, 0x08, 0x01, 0x00, 0x00])

    /// Every simulated Type 2 chip, in CLI order.
    public static let all: [Type2ChipProfile] = [
        .ntag213, .ntag215, .ntag216, .ultralight, .ultralightEV1_48, .ultralightEV1_128, .ultralightC,
        .ntagI2CPlus1k, .ntagI2CPlus2k,
    ]

    /// The profile named `name` (`ntag215`), if any.
    public static func named(_ name: String) -> Type2ChipProfile? { all.first { $0.name == name } }
}
