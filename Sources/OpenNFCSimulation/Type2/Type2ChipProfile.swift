/// The description of one Type 2 chip that parameterises the single ``Type2Tag`` engine: memory map, commands,
/// configuration layout and factory state, read from the chip's datasheet (card side).
public struct Type2ChipProfile: Sendable, Hashable {
    /// Command sets by product line.
    public enum Family: String, Sendable, Hashable {
        /// MIFARE Ultralight MF0ICU1: READ, WRITE, COMPATIBILITY WRITE only.
        case ultralight
        /// MIFARE Ultralight EV1 (MF0UL11/21): adds GET_VERSION, FAST_READ, three one-way counters (READ_CNT,
        /// INCR_CNT, CHECK_TEARING_EVENT), READ_SIG, PWD_AUTH, VCSL.
        case ultralightEV1
        /// NTAG213/215/216: adds GET_VERSION, FAST_READ, the NFC counter (READ_CNT 02), READ_SIG, PWD_AUTH.
        case ntag21x
        /// NTAG I2C plus (NT3H2111/NT3H2211): GET_VERSION, READ, FAST_READ, WRITE, SECTOR_SELECT, READ_SIG,
        /// PWD_AUTH; memory in sectors of 256 pages, configuration and session registers.
        case ntagI2CPlus
        /// MIFARE Ultralight C MF0ICU2: Ultralight's commands plus the 3DES AUTHENTICATE (`1A 00`, `AF …`), AUTH0/AUTH1
        /// in pages 2Ah/2Bh, the write-only key pages 2Ch–2Fh and the 16-bit counter page 29h.
        case ultralightC
    }

    /// Dynamic lock bytes: 2 bytes of lock bits, then 1 byte of block-lock bits, then 1 RFUI byte.
    public struct DynamicLock: Sendable, Hashable {
        /// The page holding the three lock bytes.
        public var page: Int
        /// First page locked by bit 0.
        public var firstPage: Int
        /// Last page the lock bits cover (the last user page).
        public var lastPage: Int
        /// Pages locked by one lock bit.
        public var pagesPerBit: Int
        /// Lock bits per block-lock bit (lock bytes 0–1 bits frozen by one bit of byte 2).
        public var bitsPerBlockBit: Int
        /// Factory value of the RFUI byte 3.
        public var factoryByte3: UInt8

        public init(
            page: Int, firstPage: Int = 16, lastPage: Int, pagesPerBit: Int, bitsPerBlockBit: Int,
            factoryByte3: UInt8
        ) {
            self.page = page
            self.firstPage = firstPage
            self.lastPage = lastPage
            self.pagesPerBit = pagesPerBit
            self.bitsPerBlockBit = bitsPerBlockBit
            self.factoryByte3 = factoryByte3
        }

        /// Number of lock bits in use (bytes 0–1).
        public var lockBits: Int { (lastPage - firstPage + pagesPerBit) / pagesPerBit }
        /// Number of block-lock bits in use (byte 2).
        public var blockBits: Int { (lockBits + bitsPerBlockBit - 1) / bitsPerBlockBit }
    }

    /// Chip name in tag files and the CLI (`ntag215`).
    public var name: String
    /// Product name as NXP writes it (`NTAG215`, `MIFARE Ultralight EV1 MF0UL21`).
    public var displayName: String
    /// Command set.
    public var family: Family
    /// Total pages, including configuration pages.
    public var pageCount: Int
    /// Last user (data) page; user memory starts at page 4.
    public var lastUserPage: Int
    /// GET_VERSION answer, nil when the chip lacks the command.
    public var version: [UInt8]?
    /// Dynamic lock bytes, nil for chips with static lock bytes only.
    public var dynamicLock: DynamicLock?
    /// First configuration page (CFG0; CFG1, PWD and PACK follow), nil when the chip has none.
    public var configPage: Int?
    /// Page 2 byte 1 ("internal") as programmed at the factory.
    public var internalByte: UInt8
    /// The capability container when NDEF formatted (page 3).
    public var ndefCC: [UInt8]
    /// Data-area bytes of the NDEF-formatted state, from page 4 (TLVs; the rest is zero).
    public var ndefData: [UInt8]
    /// Whether NXP ships the chip NDEF formatted (NTAG21x) or with an all-zero CC (Ultralight, Ultralight EV1).
    public var shippedFormatted: Bool
    /// CFG0 and CFG1 as shipped (8 bytes).
    public var factoryConfig: [UInt8]
    /// Pages inside ``pageCount`` that do not exist (NTAG I2C plus 2k: sector 0 pages EAh–FFh); a command naming
    /// one is refused.
    public var invalidPages: ClosedRange<Int>? = nil
    /// The configuration registers as shipped (NTAG I2C plus: 8 bytes in the 2 pages after PT_I2C).
    public var factoryRegisters: [UInt8] = []

    /// Whether the chip has SECTOR_SELECT (`C2 FF`, then the sector number).
    public var hasSectors: Bool { family == .ntagI2CPlus }

    /// Whether global page `gp` (sector × 256 + page) is stored memory the chip has.
    public func isValid(page gp: Int) -> Bool {
        gp >= 0 && gp < pageCount && !(invalidPages?.contains(gp) ?? false)
    }

    /// The memory sectors (each up to 256 pages) the chip stores; NTAG I2C plus also answers sector 3 (session
    /// registers).
    public var memorySectors: Int { (pageCount + 255) / 256 }

    /// The first configuration-register page (NTAG I2C plus: after PT_I2C), nil for other chips.
    public var registerPage: Int? { family == .ntagI2CPlus ? configPage.map { $0 + 5 } : nil }

    /// Bytes of the NDEF data area declared by the CC (CC2 × 8).
    public var dataAreaSize: Int { Int(ndefCC[2]) * 8 }
    /// User memory in bytes (pages 4 … ``lastUserPage``).
    public var userBytes: Int { (lastUserPage - 3) * 4 }

    public var pwdPage: Int? { configPage.map { $0 + 2 } }
    public var packPage: Int? { configPage.map { $0 + 3 } }
}
