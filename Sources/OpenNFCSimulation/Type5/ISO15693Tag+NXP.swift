internal import OpenNFCBytes

/// The NXP ICODE custom commands (manufacturer code `04`), card side, from the command sections of NXP SL2S2002
/// (ICODE SLIX, §9) and SL2S2602 (ICODE SLIX2, §9):
///
/// | Code | Command | SLIX | SLIX2 | Needs |
/// |---|---|---|---|---|
/// | `A0`/`A1` | INVENTORY READ / FAST INVENTORY READ | ✓ | ✓ | Inventory flag; mask, first block, count − 1; Option adds the UID bytes past the mask (whole-byte masks only) |
/// | `A2`/`A3` | SET EAS / RESET EAS | ✓ | ✓ | EAS not locked; the EAS/AFI password if EAS is password protected |
/// | `A4` | LOCK EAS (EAS state and EAS ID) | ✓ | ✓ | as `A2` |
/// | `A5` | EAS ALARM | ✓ | ✓ | silent while EAS is reset; Option 0: the 32-byte EAS sequence; Option 1 (SLIX2): EAS ID mask → the EAS ID |
/// | `A6` | PASSWORD PROTECT EAS/AFI (Option 0 EAS, 1 AFI; permanent) | ✓ | ✓ | the EAS/AFI password presented |
/// | `A7` | WRITE EAS ID | — | ✓ | as `A2` |
/// | `AB` | GET NXP SYSTEM INFORMATION | — | ✓ | — |
/// | `B2` | GET RANDOM NUMBER | ✓ | ✓ | — |
/// | `B3` | SET PASSWORD (ID, password XOR random‖random) | EAS/AFI | all five | a fresh random number: each one serves one password |
/// | `B4`/`B5` | WRITE / LOCK PASSWORD | EAS/AFI | all five | that password presented (addressed or selected mode); not locked |
/// | `B6`/`B7` | PROTECT PAGE / LOCK PAGE PROTECTION CONDITION | — | ✓ | read and write passwords presented; not locked |
/// | `B8` | GET MULTIPLE BLOCK PROTECTION STATUS | — | ✓ | — |
/// | `B9` | DESTROY (XORed destroy password) | — | ✓ | — |
/// | `BA` | ENABLE PRIVACY (XORed privacy password) | — | ✓ | — |
/// | `BB` | 64-BIT PASSWORD PROTECTION | — | ✓ | read and write passwords presented |
/// | `BD` | READ SIGNATURE (32 bytes) | — | ✓ | — |
/// | `BC` STAY QUIET PERSISTENT, `A8` READ EPC, `B0`/`B1` page reads | not simulated | | | answer `01` |
///
/// Password IDs: `01` read, `02` write, `04` privacy, `08` destroy, `10` EAS/AFI; factory values `00000000`, the
/// privacy and destroy passwords `0F0F0F0F`. A wrong password (SET PASSWORD, ENABLE PRIVACY, DESTROY) mutes the
/// chip until the next power-on, as the datasheets' remark on SET PASSWORD says. A refused custom command answers
/// error `0F` (the one error code the datasheets give custom commands); a block the page protection guards answers
/// `0F` to reads and writes without the password. Privacy mode hides the tag from inventory and answers only
/// `B2`/`B3`; SET PASSWORD with the privacy password leaves it (stored). After DESTROY the chip never answers again.
/// GET RANDOM NUMBER draws from a generator seeded with the UID, so every run is reproducible.
extension ISO15693Tag {
    /// The EEPROM state of the NXP custom features. Passwords are 32-bit values kept most significant byte first
    /// (as printed); they travel least significant byte first.
    public struct NXPState: Sendable, Hashable {
        /// The password IDs a chip has, with their tag-file names.
        public static let passwordNames: [(id: UInt8, name: String)] = [
            (0x01, "read"), (0x02, "write"), (0x04, "privacy"), (0x08, "destroy"), (0x10, "easAfi"),
        ]
        public var passwords: [UInt8: [UInt8]] = [:]
        public var lockedPasswords: Set<UInt8> = []
        public var privacy = false
        public var destroyed = false
        public var eas = false
        public var easLocked = false
        /// The EAS ID, most significant byte first.
        public var easID: [UInt8] = [0x00, 0x00]
        public var easProtected = false
        public var afiProtected = false
        public var protectionPointer: UInt8 = 0
        public var protectionCondition: UInt8 = 0
        public var protectionLocked = false
        public var password64 = false
        /// The originality signature READ SIGNATURE returns.
        public var signature: [UInt8] = []

        init(profile: ISO15693ChipProfile, uid: [UInt8]) {
            for id in Self.passwordIDs(profile.custom) {
                passwords[id] = id == 0x04 || id == 0x08 ? [0x0F, 0x0F, 0x0F, 0x0F] : [0, 0, 0, 0]
            }
            // No NXP key signs a virtual chip: its signature is the SHA-256 of its UID (docs/DIFFERENCES.md).
            if profile.custom == .icodeSLIX2 { signature = SHA256.hash(uid) }
        }

        /// SLIX has the EAS/AFI password only (SL2S2002 §9.3); SLIX2 all five (SL2S2602 §9.5).
        public static func passwordIDs(_ set: ISO15693CustomCommands) -> [UInt8] {
            switch set {
            case .icodeSLIX: [0x10]
            case .icodeSLIX2: [0x01, 0x02, 0x04, 0x08, 0x10]
            case .none, .st25dv: []
            }
        }
    }

    /// Volatile state a power-off clears.
    struct CustomSession: Sendable, Hashable {
        var presented: Set<UInt8> = []
        var random: [UInt8]?
        var muted = false
        var generator: UInt64 = 0x9E37_79B9_7F4A_7C15
        /// ST25DV security sessions open (password numbers 0–3).
        var stSessions: Set<UInt8> = []

        init() {}
        init(uid: [UInt8]) {
            for b in uid { generator = (generator ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        }

        mutating func powerOn() {
            presented = []
            random = nil
            muted = false
            stSessions = []
        }

        /// The next 16 random bits (xorshift64*).
        mutating func nextRandom() -> [UInt8] {
            generator ^= generator >> 12
            generator ^= generator << 25
            generator ^= generator >> 27
            let v = generator &* 0x2545_F491_4F6C_DD1D
            return [UInt8(truncatingIfNeeded: v >> 32), UInt8(truncatingIfNeeded: v >> 40)]
        }
    }

    /// The 32-byte sequence EAS ALARM answers with (Option 0). The datasheet's fixed bit pattern is not reproduced
    /// here (docs/DIFFERENCES.md); this one is the simulation's own, the same on every chip.
    public static let easSequence: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: 0xA5 ^ ($0 &* 0x1D)) }

    private var isNXP: Bool { profile.custom == .icodeSLIX || profile.custom == .icodeSLIX2 }
    private var isSLIX2: Bool { profile.custom == .icodeSLIX2 }

    /// The password `xored` (4 bytes as sent) stands for, given the last random number (SL2S2602 §9.5.3: each byte
    /// XORed with the random number's bytes in turn), most significant byte first; nil without a random number.
    /// A random number serves one password: it is used up here.
    private func unxor(_ xored: [UInt8]) -> [UInt8]? {
        guard let rnd = session.random else { return nil }
        session.random = nil
        return Array(xored.enumerated().map { i, b in b ^ rnd[i % 2] }.reversed())
    }

    private func presented(_ id: UInt8) -> Bool { session.presented.contains(id) }

    /// A wrong password: the chip executes nothing until the next power-on (SL2S2002 §9.3.2 remark).
    private func wrongPassword() -> VirtualAnswer {
        session.muted = true
        return .silence
    }

    func nxpCommand(_ command: UInt8, _ p: [UInt8], option: Bool, addressed: Bool) -> VirtualAnswer {
        let slix2 = isSLIX2
        switch command {
        case 0xA2, 0xA3, 0xA4:
            guard p.isEmpty else { return error(0x02) }
            guard !nxp.easLocked, !nxp.easProtected || presented(0x10) else { return error(0x0F) }
            if command == 0xA4 { nxp.easLocked = true } else { nxp.eas = command == 0xA2 }
            return .data([0x00])
        case 0xA5:
            guard nxp.eas else { return .silence }
            guard option else { return p.isEmpty ? .data([0x00] + Self.easSequence) : error(0x02) }
            guard slix2 else { return error(0x03) }
            // EAS ID mask length 0, 8 or 16 bits, then the mask (least significant byte first).
            guard let bits = p.first, [0, 8, 16].contains(bits), p.count == 1 + Int(bits) / 8 else {
                return error(0x02)
            }
            let id = Array(nxp.easID.reversed())
            guard Array(p.dropFirst()) == Array(id.prefix(Int(bits) / 8)) else { return .silence }
            return .data([0x00] + id)
        case 0xA6:
            guard p.isEmpty else { return error(0x02) }
            guard presented(0x10) else { return error(0x0F) }
            if option { nxp.afiProtected = true } else { nxp.easProtected = true }
            return .data([0x00])
        case 0xA7 where slix2:
            guard p.count == 2 else { return error(0x02) }
            guard !nxp.easLocked, !nxp.easProtected || presented(0x10) else { return error(0x0F) }
            nxp.easID = Array(p.reversed())
            return .data([0x00])
        case 0xAB where slix2:
            guard p.isEmpty else { return error(0x02) }
            let lockBits: UInt8 =
                (afiLocked ? 0x01 : 0) | (nxp.easLocked ? 0x02 : 0) | (dsfidLocked ? 0x04 : 0)
                | (nxp.protectionLocked ? 0x08 : 0)
            // Feature flags, least significant byte first: user-memory page protection, counter, EAS ID, EAS and
            // AFI password protection (byte 0 bits 0–4); originality signature, privacy, destroy (byte 1 bits 0, 4, 5).
            return .data([0x00, nxp.protectionPointer, nxp.protectionCondition, lockBits, 0x1F, 0x31, 0x00, 0x00])
        case 0xB2:
            guard p.isEmpty else { return error(0x02) }
            let rnd = session.nextRandom()
            session.random = rnd
            return .data([0x00] + rnd)
        case 0xB3:
            guard p.count == 5 else { return error(0x02) }
            let id = p[0]
            guard let stored = nxp.passwords[id] else { return error(0x0F) }
            if nxp.privacy && id != 0x04 { return .silence }
            guard let given = unxor(Array(p[1...])), given == stored else { return wrongPassword() }
            session.presented.insert(id)
            if id == 0x04 { nxp.privacy = false }
            return .data([0x00])
        case 0xB4:
            guard p.count == 5 else { return error(0x02) }
            let id = p[0]
            guard addressed, nxp.passwords[id] != nil, presented(id), !nxp.lockedPasswords.contains(id) else {
                return error(0x0F)
            }
            // The new password takes effect at once and must be presented again (SL2S2002 §9.3.3).
            nxp.passwords[id] = Array(p[1...].reversed())
            session.presented.remove(id)
            return .data([0x00])
        case 0xB5:
            guard p.count == 1 else { return error(0x02) }
            guard nxp.passwords[p[0]] != nil, presented(p[0]) else { return error(0x0F) }
            nxp.lockedPasswords.insert(p[0])
            return .data([0x00])
        case 0xB6 where slix2:
            guard p.count == 2 else { return error(0x02) }
            guard !nxp.protectionLocked, presented(0x01), presented(0x02) else { return error(0x0F) }
            guard Int(p[0]) < profile.blockCount - profile.reservedTailBlocks else { return error(0x10) }
            nxp.protectionPointer = p[0]
            nxp.protectionCondition = p[1] & 0x33
            return .data([0x00])
        case 0xB7 where slix2:
            guard p.count == 1 else { return error(0x02) }
            guard !nxp.protectionLocked, presented(0x01), presented(0x02), p[0] == nxp.protectionPointer else {
                return error(0x0F)
            }
            nxp.protectionLocked = true
            return .data([0x00])
        case 0xB8 where slix2:
            guard let r = range(p, extended: false, multiple: true), r.rest.isEmpty else { return error(0x02) }
            guard r.first + r.count <= profile.blockCount else { return error(0x10) }
            // Per block: bit 0 read needs the read password, bit 1 write needs the write password, bit 2 the
            // protection condition is locked.
            return .data(
                [0x00]
                    + (r.first..<(r.first + r.count)).map { b in
                        let (read, write) = pageProtection(b)
                        return (read ? 0x01 : 0) | (write ? 0x02 : 0) | (nxp.protectionLocked ? 0x04 : 0)
                    })
        case 0xB9 where slix2, 0xBA where slix2:
            guard p.count == 4 else { return error(0x02) }
            let id: UInt8 = command == 0xB9 ? 0x08 : 0x04
            guard let given = unxor(p), given == nxp.passwords[id] else { return wrongPassword() }
            if command == 0xB9 { nxp.destroyed = true } else { nxp.privacy = true }
            return .data([0x00])
        case 0xBB where slix2:
            guard p.isEmpty else { return error(0x02) }
            guard presented(0x01), presented(0x02) else { return error(0x0F) }
            nxp.password64 = true
            return .data([0x00])
        case 0xBD where slix2:
            guard p.isEmpty else { return error(0x02) }
            return .data([0x00] + nxp.signature)
        default:
            return error(0x01)
        }
    }

    /// INVENTORY READ / FAST INVENTORY READ: only NXP chips, with their manufacturer code.
    func inventoryRead(_ frame: [UInt8]) -> VirtualAnswer {
        guard isNXP, frame.count > 2, frame[2] == 0x04 else { return .silence }
        return inventory(frame, read: true)
    }

    func inventoryReadAnswer(first: Int, count: Int, maskLength: Int, option: Bool) -> VirtualAnswer {
        guard first + count <= profile.blockCount else { return .silence }
        for b in first..<(first + count) where readDenied(b) != nil { return .silence }
        var out: [UInt8] = [0x00]
        if option {
            // The UID bytes the mask did not cover, least significant first; this simulation takes whole-byte masks.
            guard maskLength % 8 == 0 else { return .silence }
            out += uid.reversed().dropFirst(maskLength / 8)
        }
        out += memory[(first * profile.blockSize)..<((first + count) * profile.blockSize)]
        return .data(out)
    }

    /// Whether block `b`'s page needs the read / write password (SL2S2602 §8.5.2: the protection pointer splits the
    /// user memory into a low and a high page; condition bits 0/1 guard the low page, 4/5 the high one).
    func pageProtection(_ b: Int) -> (read: Bool, write: Bool) {
        guard isSLIX2, b < profile.blockCount - profile.reservedTailBlocks else { return (false, false) }
        let c = nxp.protectionCondition >> (b >= Int(nxp.protectionPointer) ? 4 : 0)
        return (c & 0x01 != 0, c & 0x02 != 0)
    }

    /// With 64-bit protection on, every guarded access needs both passwords (SL2S2602 §9.5.11).
    private func passwordGiven(_ id: UInt8) -> Bool {
        presented(id) && (!nxp.password64 || (presented(0x01) && presented(0x02)))
    }

    /// The error a read of block `b` gets, if the chip's protection refuses it.
    func readDenied(_ b: Int) -> UInt8? {
        if profile.custom == .st25dv { return st25ReadDenied(b) }
        return pageProtection(b).read && !passwordGiven(0x01) ? 0x0F : nil
    }

    /// The error a write of block `b` gets: a read-protected page is written with the read password too.
    func writeDenied(_ b: Int) -> UInt8? {
        if profile.custom == .st25dv { return st25WriteDenied(b) }
        let (read, write) = pageProtection(b)
        if read && !passwordGiven(0x01) { return 0x0F }
        if write && !passwordGiven(0x02) { return 0x0F }
        return nil
    }

    /// The SLIX2 counter block cannot be locked.
    func lockDenied(_ b: Int) -> UInt8? {
        isSLIX2 && b == profile.blockCount - 1 ? 0x0F : nil
    }

    /// Write AFI and Lock AFI need the EAS/AFI password once AFI is password protected.
    func afiDenied() -> UInt8? {
        nxp.afiProtected && !presented(0x10) ? 0x0F : nil
    }

    /// The SLIX2 counter (block 79, SL2S2602 §8.5.4): bytes 0–1 the 16-bit value (LSB first), byte 3 bit 0 makes
    /// incrementing need the read password. Writing `01 00 00 00` increments it; any other value presets it.
    func counterWrite(_ first: Int, _ count: Int, _ data: [UInt8], tearAfter: Int?) -> VirtualAnswer? {
        let block = profile.blockCount - 1
        guard isSLIX2, first == block, count == 1, data.count == 4 else { return nil }
        let at = block * profile.blockSize
        if data == [0x01, 0x00, 0x00, 0x00] {
            if memory[at + 3] & 0x01 != 0 && !presented(0x01) { return error(0x0F) }
            let value = min(0xFFFF, (Int(memory[at]) | Int(memory[at + 1]) << 8) + 1)
            if tearAfter == nil || tearAfter! >= 4 {
                memory[at] = UInt8(value & 0xFF)
                memory[at + 1] = UInt8(value >> 8)
            }
            return .data([0x00])
        }
        if tearAfter == nil || tearAfter! >= 4 {
            memory.replaceSubrange(at..<(at + 4), with: [data[0], data[1], 0x00, data[3] & 0x01])
        }
        return .data([0x00])
    }
}
