public import OpenNFCRF

/// A byte-accurate NFC Forum Type 1 chip (Topaz 96, Topaz 512), one engine driven by a ``Type1ChipProfile``.
/// Written from the card side of the Topaz datasheet (TPZ-201 §7 "Physical Memory Map", §10–§13 commands, status
/// and timing) and the memory structure of NFC Forum T1T 1.2; frames arrive without CRC_B (the field's job).
///
/// | Command | Bytes | topaz96 | topaz512 | Answer |
/// |---|---|---|---|---|
/// | RID | `78 00 00 00 00 00 00` | ✓ | ✓ | `HR0 HR1 UID0 UID1 UID2 UID3`; the UID field is not checked |
/// | RALL | `00 00 00 UID0–3` | ✓ | ✓ | `HR0 HR1` + bytes 0–119 (blocks 0–E) |
/// | READ | `01 ADD 00 UID0–3` | ✓ | ✓ | `ADD DATA`; ADD = block × 8 + byte, 00h–7Fh |
/// | WRITE-E | `53 ADD DATA UID0–3` | ✓ | ✓ | `ADD DATA` as stored afterwards (erase, then write) |
/// | WRITE-NE | `1A ADD DATA UID0–3` | ✓ | ✓ | `ADD DATA` as stored afterwards (old OR new) |
/// | RSEG | `10 ADDS 00×8 UID0–3` | silent | ✓ | `ADDS` + the 128 bytes of segment ADDS >> 4 |
/// | READ8 | `02 ADD8 00×8 UID0–3` | silent | ✓ | `ADD8` + the 8 bytes of block ADD8 |
/// | WRITE-E8 | `54 ADD8 D0–D7 UID0–3` | silent | ✓ | `ADD8` + the block as stored afterwards |
/// | WRITE-NE8 | `1B ADD8 D0–D7 UID0–3` | silent | ✓ | `ADD8` + the block as stored afterwards |
/// | anticollision, SAK | | none | none | the field reports SENS_RES 0C00h and HR0/HR1, no SEL_RES |
///
/// Access rules (what a write does to each byte):
/// - Block 0 (UID0–UID6 and a reserved byte) is ROM; block D and the profile's reserved bytes (Topaz 512:
///   120–121, declared by its Memory Control TLV) are unchanged by writes.
/// - Static lock bytes LOCK0/LOCK1 (bytes 112–113): bit n of LOCK0 locks block n (0–7), bit n of LOCK1 block 8 + n
///   (8–E). Lock bytes are one-time programmable: every write ORs into them, whatever the command.
/// - OTP bytes 114–119: ORed, and frozen once LOCK1 bit 6 (block E) is set.
/// - Topaz 512 dynamic lock bytes 122–127 (declared by its Lock Control TLV `F2 30 33`): ORed; bit n locks block
///   10h + n.
/// - A write to a locked block, ROM or a reserved byte changes nothing; the answer echoes what is stored, so a reader
///   sees the refusal only as an echo that differs from what it sent (T1T never answers an error).
///
/// Decisions where the datasheet is silent: a frame whose UID echo is not UID0–UID3, a frame of the wrong length,
/// an unknown command and (Topaz 96) a dynamic command get no answer, and the chip keeps listening (no mute state);
/// addresses are decoded with the bits the chip has (READ/WRITE use 7 bits, READ8/WRITE-x8 6 bits, RSEG 2 bits of
/// the high nibble), so an address past the memory mirrors onto it; Topaz 96 bytes 120–127 do not exist, read as 00
/// and ignore writes. Factory static lock bytes are 00 00 (no block locked).
///
/// Tearing is per byte: a torn WRITE-E/WRITE-NE/WRITE-x8 commits its first `tearAfter` bytes, and a byte that an
/// erasing write was programming when the field went is left erased (00). EEPROM time is modelled as
/// ``eraseWriteTime`` per erasing write and ``writeTime`` per non-erasing write (one cycle per command, 8-byte
/// writes included).
///
/// Not simulated: Topaz 512 segment addressing beyond RSEG's 2 bits, and the chip's behaviour below the
/// transceive level (the NFC-A air interface does SENS_REQ/ALL_REQ and the CRC_B).
public final class Type1Tag: VirtualTag {
    public let profile: Type1ChipProfile
    /// The whole memory image (``Type1ChipProfile/memorySize`` bytes), UID block included.
    public internal(set) var memory: [UInt8]
    /// EEPROM programming time of the last frame.
    var lastProgramming = NFCDuration.zero

    /// EEPROM erase-and-write cycle of WRITE-E and WRITE-E8 (modelled value).
    public static let eraseWriteTime = NFCDuration.microseconds(5_200)
    /// EEPROM write cycle of WRITE-NE and WRITE-NE8 (modelled value).
    public static let writeTime = NFCDuration.microseconds(2_600)

    /// A chip with this exact memory image.
    public init(profile: Type1ChipProfile, memory: [UInt8]) throws(FactoryError) {
        guard memory.count == profile.memorySize else {
            throw FactoryError("\(profile.displayName) has \(profile.memorySize) bytes of memory, not \(memory.count)")
        }
        self.profile = profile
        self.memory = memory
    }

    init(unchecked profile: Type1ChipProfile, memory: [UInt8]) {
        self.profile = profile
        self.memory = memory
    }

    public var chip: String { profile.name }

    /// UID0–UID6 (block 0 bytes 0–6).
    public var uid: [UInt8] { Array(memory[0..<7]) }

    /// UID0–UID3: what RID reports and every command echoes.
    public var uidEcho: [UInt8] { Array(memory[0..<4]) }

    /// SENS_RES 0C00h (byte 1 `00`: no bit-frame anticollision; byte 2 `0C`: the Type 1 platform; on the air LSB first), no SEL_RES, HR0/HR1 from RID, the 4-byte UID echo as identifier.
    public var activation: VirtualActivation {
        VirtualActivation(
            .nfcA(
                NFCAActivation(
                    uid: uidEcho, sensRes: 0x0C00, selRes: nil,
                    type1: NFCAActivation.Type1Header(hr0: profile.hr0, hr1: profile.hr1))))
    }

    /// A Type 1 chip keeps no volatile state between frames.
    public func reset() {}

    public func processingTime(for frame: [UInt8]) -> NFCDuration { lastProgramming }

    public func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        lastProgramming = .zero
        guard let command = frame.first else { return .silence }
        if command == 0x78 {
            return frame.count == 7 ? .data([profile.hr0, profile.hr1] + uidEcho) : .silence
        }
        guard frame.count == 7 || frame.count == 14, Array(frame[(frame.count - 4)...]) == uidEcho else {
            return .silence
        }
        let dynamic = profile.hasDynamicCommands
        switch (command, frame.count) {
        case (0x00, 7):
            return .data([profile.hr0, profile.hr1] + (0..<120).map(byte))
        case (0x01, 7):
            let a = Int(frame[1] & 0x7F)
            return .data([frame[1], byte(a)])
        case (0x53, 7), (0x1A, 7):
            let a = Int(frame[1] & 0x7F)
            write([a], [frame[2]], erase: command == 0x53, tearAfter: tearAfter)
            return tearAfter == nil ? .data([frame[1], byte(a)]) : .silence
        case (0x10, 14) where dynamic:
            let segment = Int(frame[1] >> 4) & (profile.memorySize / 128 - 1)
            return .data([frame[1]] + (segment * 128..<segment * 128 + 128).map(byte))
        case (0x02, 14) where dynamic:
            return .data([frame[1]] + blockAddresses(frame[1]).map(byte))
        case (0x54, 14) where dynamic, (0x1B, 14) where dynamic:
            let addresses = blockAddresses(frame[1])
            write(addresses, Array(frame[2..<10]), erase: command == 0x54, tearAfter: tearAfter)
            return tearAfter == nil ? .data([frame[1]] + addresses.map(byte)) : .silence
        default:
            return .silence
        }
    }

    /// The 8 byte addresses of block ADD8 (6 address bits: the mirror of a 64-block chip).
    private func blockAddresses(_ add8: UInt8) -> [Int] {
        let block = Int(add8) % profile.blockCount
        return Array(block * 8..<block * 8 + 8)
    }

    /// A byte as the chip reads it (00 where the chip has no memory).
    func byte(_ a: Int) -> UInt8 { a < memory.count ? memory[a] : 0x00 }

    /// Programs `values` into `addresses` in order, byte by byte, with the access rules of the type's discussion.
    /// A tear after `n` bytes commits the first `n`; an erasing write leaves the byte it was programming erased.
    private func write(_ addresses: [Int], _ values: [UInt8], erase: Bool, tearAfter: Int?) {
        var programmed = false
        for (i, (a, v)) in zip(addresses, values).enumerated() {
            if let t = tearAfter, i >= t {
                if i == t && erase && access(a) == .data { memory[a] = 0x00 }
                break
            }
            switch access(a) {
            case .data:
                memory[a] = erase ? v : memory[a] | v
                programmed = true
            case .oneTimeProgrammable:
                memory[a] |= v
                programmed = true
            case .readOnly:
                break
            }
        }
        if programmed { lastProgramming = erase ? Self.eraseWriteTime : Self.writeTime }
    }

    enum Access: Equatable {
        /// Erased and written (WRITE-E) or ORed (WRITE-NE).
        case data
        /// Lock and OTP bytes: always ORed.
        case oneTimeProgrammable
        /// ROM, reserved, locked, or absent.
        case readOnly
    }

    /// What a write may do to byte `a`.
    func access(_ a: Int) -> Access {
        guard a < memory.count, a >= 8 else { return .readOnly }
        if profile.reservedRanges.contains(where: { $0.contains(a) }) { return .readOnly }
        if a == 112 || a == 113 { return .oneTimeProgrammable }
        if (114..<120).contains(a) { return memory[113] & 0x40 != 0 ? .readOnly : .oneTimeProgrammable }
        if let d = profile.dynamicLock, (d.address..<d.address + (d.bits + 7) / 8).contains(a) {
            return .oneTimeProgrammable
        }
        return isLocked(block: a / 8) ? .readOnly : .data
    }

    /// Whether a lock bit makes block `b` read-only.
    public func isLocked(block b: Int) -> Bool {
        switch b {
        case 0..<8: return memory[112] & (1 << UInt8(b)) != 0
        case 8..<15: return memory[113] & (1 << UInt8(b - 8)) != 0
        case 16...:
            guard let d = profile.dynamicLock, b - 16 < d.bits else { return false }
            let bit = b - 16
            return memory[d.address + bit / 8] & (1 << UInt8(bit % 8)) != 0
        default: return false
        }
    }
}

extension Type1Tag {
    /// Why a Type 1 chip could not be built.
    public struct FactoryError: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }
}
