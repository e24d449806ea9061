import OpenNFCBytes
import OpenNFCSimulation
import Testing

/// NTAG I2C plus 1k/2k from the card side (NT3H2111/NT3H2211 datasheet §8.3 memory organisation, §9 NFC commands),
/// UID 04 01 02 03 04 05 06: SECTOR_SELECT with its passive ACK, missing pages, session registers.
@Suite struct NTAGI2CPlusTests {
    @Test func factory2kSectorsAndRegisters() {
        let tag = factoryTag(.ntagI2CPlus2k)
        _ = expectTranscript(
            tag,
            """
            60 -> 0004040502021503                          # GET_VERSION: NTAG I2C plus 2k
            30 00 -> 0401028F 03040506 04480000 E110EA00    # UID, CC: 1872-byte data area
            30 04 -> 0203E878 060300FE 00000000 00000000   # Memory Control TLV (bytes 904-1023), empty NDEF TLV
            30 E3 -> 000000FF 00000000 00000000 00000000    # AUTH0 FF, ACCESS, PWD and PACK read 0
            30 E8 -> 0100F848 08010000 00000000 00000000    # configuration registers; EAh-EBh do not exist: 00
            C2 FF -> ACK                                    # SECTOR_SELECT packet 1
            01 00 00 00 -> TIMEOUT                          # packet 2: sector 1 selected, passive ACK
            30 00 -> \(type2Zeros(16))                      # sector 1 page 0: user memory
            A2 00 01 02 03 04 -> ACK
            3A 00 00 -> 01020304                            # FAST_READ inside sector 1
            30 FF -> 00000000 00000000 00000000 00000000    # the last page of sector 1, nothing after it
            C2 FF -> ACK
            03 00 00 00 -> TIMEOUT                          # sector 3: session registers
            30 F8 -> 0100F848 08010100 00000000 00000000    # NC_REG … I2C_CLOCK_STR, NS_REG 01 (RF field), RFU
            A2 F8 00 00 00 00 -> NAK 0                      # read-only from NFC
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            3A E8 E9 -> 0100F848 08010000                   # activation selects sector 0 again
            3A E9 EA -> NAK 0                               # EAh does not exist
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            C2 FF -> ACK
            02 00 00 00 -> NAK 0                            # no sector 2
            30 00 -> TIMEOUT                                # mute after the NAK
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            C2 FF -> ACK
            01 -> NAK 0                                     # a malformed packet 2
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            C2 00 -> NAK 0                                  # packet 1 must be C2 FF
            """)
        #expect(tag.memory[256 * 4..<256 * 4 + 4] == [1, 2, 3, 4])
    }

    @Test func factory1kHasOneSectorAndNoCompatibilityWrite() {
        _ = expectTranscript(
            factoryTag(.ntagI2CPlus1k),
            """
            60 -> 0004040502021303                          # GET_VERSION: NTAG I2C plus 1k
            30 03 -> E1106D00 0300FE00 00000000 00000000    # CC: 872 bytes, empty NDEF TLV
            30 E2 -> 00000000 000000FF 00000000 00000000    # dynamic lock, AUTH0, ACCESS, PWD reads 0
            C2 FF -> ACK
            01 00 00 00 -> NAK 0                            # the 1k has no sector 1
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A0 04 -> TIMEOUT                                # no COMPATIBILITY WRITE
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            39 02 -> TIMEOUT                                # no READ_CNT
            """)
    }

    @Test func passwordProtectionRunsThroughSector1() {
        let tag = factoryTag(.ntagI2CPlus2k)
        _ = expectTranscript(
            tag,
            """
            A2 E5 12 34 56 78 -> ACK                        # PWD
            A2 E3 00 00 00 E0 -> ACK                        # AUTH0 = E0h (EAh or above would turn it off)
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            C2 FF -> ACK
            01 00 00 00 -> TIMEOUT
            A2 10 01 02 03 04 -> NAK 0                      # sector 1 lies past AUTH0: protected
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            1B 12 34 56 78 -> 0000                          # PWD_AUTH → PACK
            C2 FF -> ACK
            01 00 00 00 -> TIMEOUT
            A2 10 01 02 03 04 -> ACK
            """)
    }

    /// REG_LOCK_NFC (E9h byte 2 bit 0) freezes the configuration registers for NFC, and cannot be cleared
    /// (NT3H2111/NT3H2211 datasheet, configuration registers table).
    @Test func regLockNFCFreezesTheConfigurationRegisters() {
        let tag = factoryTag(.ntagI2CPlus2k)
        _ = expectTranscript(
            tag,
            """
            A2 E8 01 00 F0 48 -> ACK                        # registers writable while REG_LOCK is 00
            A2 E9 08 01 01 00 -> ACK                        # REG_LOCK_NFC set
            3A E8 E9 -> 0100F048 08010100
            A2 E8 01 00 F8 48 -> NAK 0                      # E8h frozen for NFC
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 E9 08 01 00 00 -> NAK 0                      # so is E9h: REG_LOCK cannot be cleared
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            A2 E7 00 00 00 00 -> ACK                        # PT_I2C (not a configuration register) still writable
            """)
        #expect(tag.registersLockedForNFC)
        // A write that leaves REG_LOCK alone cannot clear a bit that was set: the bits are one-way.
        let other = factoryTag(.ntagI2CPlus1k)
        _ = expectTranscript(
            other,
            """
            A2 E9 08 01 02 00 -> ACK                        # REG_LOCK_I2C set (bit 1)
            A2 E9 08 01 00 00 -> ACK                        # writing 00 does not clear it
            3A E9 E9 -> 08010200
            """)
        #expect(!other.registersLockedForNFC)
    }

    /// NFC_DIS_SEC1 (ACCESS bit 5) on the 2k: SECTOR_SELECT of sector 1 is NAK 0; sectors 0 and 3 stay selectable.
    @Test func nfcDisSec1ClosesSector1() {
        let tag = factoryTag(.ntagI2CPlus2k)
        _ = expectTranscript(
            tag,
            """
            A2 E4 20 00 00 00 -> ACK                        # ACCESS: NFC_DIS_SEC1
            C2 FF -> ACK
            01 00 00 00 -> NAK 0                            # sector 1 closed to NFC
            ACTIVATE -> UID 04010203040506 ATQA 0044 SAK 00
            C2 FF -> ACK
            03 00 00 00 -> TIMEOUT                          # the session registers still answer
            30 F8 -> 0100F848 08010100 00000000 00000000
            C2 FF -> ACK
            00 00 00 00 -> TIMEOUT
            A2 E4 00 00 00 00 -> ACK                        # cleared again (ACCESS is not OTP)
            C2 FF -> ACK
            01 00 00 00 -> TIMEOUT                          # sector 1 selectable
            """)
        #expect(!tag.sector1DisabledForNFC)
    }

    @Test func aMessageSpanningBothSectorsFlowsAroundTheReservedBytes() throws {
        // 1743 bytes is the most the 2k holds: 1872 − 120 reserved − 5 (Memory Control TLV) − 4 (03 FF hi lo).
        let message = [UInt8](repeating: 0xA5, count: 1743)
        let tag = try Type2Tag.factory(.ntagI2CPlus2k, uid: type2UID, holding: message)
        #expect(tag.memory[21..<25] == [0x03, 0xFF, 0x06, 0xCF])
        #expect(tag.memory[903] == 0xA5)
        #expect(tag.memory[0xE8 * 4..<0xE8 * 4 + 8] == [0x01, 0x00, 0xF8, 0x48, 0x08, 0x01, 0x00, 0x00])
        #expect(tag.memory[1024..<1888].allSatisfy { $0 == 0xA5 })
        #expect(throws: Type2Tag.FactoryError.self) {
            try Type2Tag.factory(.ntagI2CPlus2k, uid: type2UID, holding: message + [0])
        }
    }
}
