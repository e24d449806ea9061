/// A Type 2 chip as the reader knows it: the facts the NDEF procedures need beyond the capability container.
///
/// Known chips come from the GET_VERSION answer (NXP datasheets). Everything else is
/// ``generic`` (or ``ultralight`` for an NXP chip without GET_VERSION) and is driven by the CC and TLVs alone, with
/// the NFC Forum default rules for dynamic lock bits (T2T §4.6).
///
/// | Chip | Pages | Data area (CC2) | Dynamic lock page | FAST_READ |
/// |---|---|---|---|---|
/// | NTAG210 | 20 | 48 (`06`) | — | yes |
/// | NTAG212 | 41 | 128 (`10`) | 0x24 | yes |
/// | NTAG213 | 45 | 144 (`12`) | 0x28 | yes |
/// | NTAG215 | 135 | 496 (`3E`) | 0x82 | yes |
/// | NTAG216 | 231 | 872 (`6D`) | 0xE2 | yes |
/// | Ultralight EV1 MF0UL11 | 20 | 48 (`06`) | — | yes |
/// | Ultralight EV1 MF0UL21 | 41 | 128 (`10`) | 0x24 | yes |
/// | NTAG I2C plus 1k (NT3H2111) | 231 up to PACK (sector 0) | 872 (`6D`) | 0xE2 | yes |
/// | NTAG I2C plus 2k (NT3H2211) | 231 in sector 0, then sector 1 (SECTOR_SELECT) | 1872 (`EA`) | 0xE2 | yes |
/// | Ultralight C (no GET_VERSION, answers `1A 00`) | 48 | 144 (`12`) | 0x28 (LOCK2: 4 pages a bit) | no |
/// | Ultralight / NTAG203 (no GET_VERSION) | from CC | from CC | default rule | no |
/// | generic (not NXP) | from CC | from CC | default rule | no |
package struct Type2Chip: Sendable, Hashable, CustomStringConvertible {
    /// The product line, which decides the commands a reader may use.
    package enum Family: String, Sendable, Hashable {
        /// NTAG210/212/213/215/216 (and their F variants): GET_VERSION, FAST_READ, 3 dynamic lock bytes.
        case ntag21x
        /// MIFARE Ultralight EV1: GET_VERSION, FAST_READ.
        case ultralightEV1
        /// An NXP chip that does not answer GET_VERSION: MIFARE Ultralight or NTAG203.
        case ultralight
        /// MIFARE Ultralight C (MF0ICU2): no GET_VERSION, 3DES AUTHENTICATE `1A 00`.
        case ultralightC
        /// Any other Type 2 tag (or one that answered GET_VERSION with an unknown product).
        case generic
    }

    /// Lower-case name as used by tag files and the CLI (`ntag215`, `mifare-ultralight-ev1-mf0ul21`, …).
    package var name: String
    package var family: Family
    /// Number of pages of the chip (user memory plus configuration), when known.
    package var totalPages: Int?
    /// The NDEF data area size the chip is formatted with (CC2 × 8), when known: what ``NDEFTagProcedure/format()``
    /// writes to a blank chip.
    package var dataAreaSize: Int?
    /// The page holding the chip's dynamic lock bytes, when the chip has them and they are known.
    package var dynamicLockPage: Int?
    /// The bytes that set every dynamic lock and block-lock bit of ``dynamicLockPage`` (lock bits are OTP: a WRITE
    /// ORs them in, so the last byte, RFUI, is written as 00 and keeps its value).
    package var dynamicLockBytes: [UInt8]?
    /// Whether the chip has FAST_READ (`3A`), the multi-page read.
    package var hasFastRead: Bool
    /// The TLVs a factory-fresh chip carries before the empty NDEF TLV (NTAG212/213: a Lock Control TLV), which
    /// ``NDEFTagProcedure/format()`` reproduces.
    package var factoryControlTLVs: [UInt8]
    /// Whether the chip has SECTOR_SELECT (NTAG I2C: memory past page 255 in sectors of 256 pages). Pages are then
    /// numbered sector × 256 + page.
    package var hasSectorSelect = false
    /// The pages a whole-memory read (``Type2MemoryReader``) covers, numbered sector × 256 + page, where they are more
    /// than ``totalPages`` (which names the NTAG21x-style configuration pages, the last four): the NTAG I2C plus has
    /// PT_I2C (E7h) and its configuration registers (E8h–E9h) after PACK, and the 2k a second sector
    /// (NT3H2111/NT3H2211 datasheet, memory organisation).
    package var memoryPages: Int? { wholeMemoryPages ?? totalPages }
    var wholeMemoryPages: Int?
    /// Pages inside ``memoryPages`` that do not exist (the 2k's sector 0 pages EAh–FFh): read as zeros, never sent.
    package var missingPages: ClosedRange<Int>?

    package init(
        name: String, family: Family, totalPages: Int? = nil, dataAreaSize: Int? = nil, dynamicLockPage: Int? = nil,
        dynamicLockBytes: [UInt8]? = nil, hasFastRead: Bool, factoryControlTLVs: [UInt8] = [],
        hasSectorSelect: Bool = false, wholeMemoryPages: Int? = nil, missingPages: ClosedRange<Int>? = nil
    ) {
        self.hasSectorSelect = hasSectorSelect
        self.wholeMemoryPages = wholeMemoryPages
        self.missingPages = missingPages
        self.name = name
        self.family = family
        self.totalPages = totalPages
        self.dataAreaSize = dataAreaSize
        self.dynamicLockPage = dynamicLockPage
        self.dynamicLockBytes = dynamicLockBytes
        self.hasFastRead = hasFastRead
        self.factoryControlTLVs = factoryControlTLVs
    }

    package var description: String { name }

    /// Every dynamic lock and block-lock bit of an NTAG21x / Ultralight EV1 lock page (bytes 0–2), RFUI untouched.
    static let allDynamicLockBits: [UInt8] = [0xFF, 0xFF, 0xFF, 0x00]

    package static let ntag210 = Type2Chip(
        name: "ntag210", family: .ntag21x, totalPages: 20, dataAreaSize: 48, hasFastRead: true)
    package static let ntag212 = Type2Chip(
        name: "ntag212", family: .ntag21x, totalPages: 41, dataAreaSize: 128, dynamicLockPage: 0x24,
        dynamicLockBytes: allDynamicLockBits, hasFastRead: true, factoryControlTLVs: [0x01, 0x03, 0x90, 0x0A, 0x34])
    package static let ntag213 = Type2Chip(
        name: "ntag213", family: .ntag21x, totalPages: 45, dataAreaSize: 144, dynamicLockPage: 0x28,
        dynamicLockBytes: allDynamicLockBits, hasFastRead: true, factoryControlTLVs: [0x01, 0x03, 0xA0, 0x0C, 0x34])
    package static let ntag215 = Type2Chip(
        name: "ntag215", family: .ntag21x, totalPages: 135, dataAreaSize: 496, dynamicLockPage: 0x82,
        dynamicLockBytes: allDynamicLockBits, hasFastRead: true)
    package static let ntag216 = Type2Chip(
        name: "ntag216", family: .ntag21x, totalPages: 231, dataAreaSize: 872, dynamicLockPage: 0xE2,
        dynamicLockBytes: allDynamicLockBits, hasFastRead: true)
    package static let ultralightEV1MF0UL11 = Type2Chip(
        name: "mifare-ultralight-ev1-mf0ul11", family: .ultralightEV1, totalPages: 20, dataAreaSize: 48,
        hasFastRead: true)
    package static let ultralightEV1MF0UL21 = Type2Chip(
        name: "mifare-ultralight-ev1-mf0ul21", family: .ultralightEV1, totalPages: 41, dataAreaSize: 128,
        dynamicLockPage: 0x24, dynamicLockBytes: allDynamicLockBits, hasFastRead: true)
    /// NTAG I2C plus 1k: NTAG21x-style pages up to PACK (E6h) in sector 0 (NT3H2111/2211 datasheet §8.3).
    package static let ntagI2CPlus1k = Type2Chip(
        name: "ntag-i2c-plus-1k", family: .ntag21x, totalPages: 0xE7, dataAreaSize: 872, dynamicLockPage: 0xE2,
        dynamicLockBytes: allDynamicLockBits, hasFastRead: true, hasSectorSelect: true,
        wholeMemoryPages: 0xEA)
    /// NTAG I2C plus 2k: as the 1k in sector 0, user memory in sector 1; the data area crosses into sector 1 past
    /// the Memory Control TLV's reserved bytes.
    package static let ntagI2CPlus2k = Type2Chip(
        name: "ntag-i2c-plus-2k", family: .ntag21x, totalPages: 0xE7, dataAreaSize: 1872, dynamicLockPage: 0xE2,
        dynamicLockBytes: allDynamicLockBits, hasFastRead: true, factoryControlTLVs: [0x02, 0x03, 0xE8, 0x78, 0x06],
        hasSectorSelect: true,
        wholeMemoryPages: 0x200, missingPages: 0xEA...0xFF)
    /// MIFARE Ultralight C MF0ICU2 (datasheet rev. 3.3 §7.5): 48 pages, LOCK2 in page 28h byte 0 (bits 1–3 and 5–7
    /// lock four pages each, bits 0 and 4 freeze them); LOCK3 (configuration pages) is left alone by make-read-only.
    package static let ultralightC = Type2Chip(
        name: "mifare-ultralight-c", family: .ultralightC, totalPages: 48, dataAreaSize: 144, dynamicLockPage: 0x28,
        dynamicLockBytes: [0xFF, 0x00, 0x00, 0x00], hasFastRead: false)
    /// An NXP Type 2 chip without GET_VERSION (MIFARE Ultralight, NTAG203): sizes come from the CC.
    package static let ultralight = Type2Chip(name: "mifare-ultralight", family: .ultralight, hasFastRead: false)
    /// Any Type 2 tag: READ and WRITE only, sizes and locks from the CC and TLVs.
    package static let generic = Type2Chip(name: "type2", family: .generic, hasFastRead: false)

    /// Every chip identified by GET_VERSION.
    package static let known: [Type2Chip] = [
        .ntag210, .ntag212, .ntag213, .ntag215, .ntag216, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21,
        .ntagI2CPlus1k, .ntagI2CPlus2k,
    ]

    /// The chip a GET_VERSION answer names (NTAG21x datasheet §10.1, MF0ULx1 §8.1): product
    /// type (byte 2) and storage size (byte 6) decide it; vendor must be NXP (`04`) and the subtype (byte 3) one of
    /// these lines (`01`/`02` capacitance, `04` NTAG F; `05` NTAG I2C is another product). Nil for anything else.
    package static func fromVersion(_ v: [UInt8]) -> Type2Chip? {
        // NTAG I2C plus (subtype 05, major 02, minor 02; the earlier NTAG I2C has minor 01 and is not identified):
        // storage 13 = 1k, 15 = 2k (NT3H2111/2211 datasheet, GET_VERSION).
        if v.count == 8, v[0] == 0x00, v[1] == 0x04, v[2] == 0x04, v[3] == 0x05, v[4] == 0x02, v[5] == 0x02 {
            return v[6] == 0x13 ? .ntagI2CPlus1k : v[6] == 0x15 ? .ntagI2CPlus2k : nil
        }
        guard v.count == 8, v[0] == 0x00, v[1] == 0x04, [0x01, 0x02, 0x04].contains(v[3]) else { return nil }
        switch (v[2], v[6]) {
        case (0x04, 0x0B): return .ntag210
        case (0x04, 0x0E): return .ntag212
        case (0x04, 0x0F): return .ntag213
        case (0x04, 0x11): return .ntag215
        case (0x04, 0x13): return .ntag216
        case (0x03, 0x0B): return .ultralightEV1MF0UL11
        case (0x03, 0x0E): return .ultralightEV1MF0UL21
        default: return nil
        }
    }
}
