/// The ST25DV custom commands (manufacturer code `02`), card side, from ST's ST25DV04K/16K/64K datasheet §7.6:
///
/// | Code | Command | Parameters → answer | Refusals |
/// |---|---|---|---|
/// | `A0` | READ CONFIGURATION | pointer `00`–`0F` → register | `10` other pointers |
/// | `A1` | WRITE CONFIGURATION | pointer, value | `0F` without the configuration session (password 0) or with LOCK_CFG set; `0F` ENDAx out of order; `10` pointer |
/// | `AD` / `AE` | READ / WRITE DYNAMIC CONFIGURATION | pointer `00` GPO_CTRL, `02` EH_CTRL, `03` RF_MNGT, `0D` MB_CTRL (, value) | `10` other pointers; `0F` MB_EN while MB_MODE forbids the mailbox; read-only bits keep their value |
/// | `B1` | WRITE PASSWORD | password number `00`–`03`, 8 bytes | `0F` without that password's session |
/// | `B3` | PRESENT PASSWORD | password number `00`–`03`, 8 bytes → opens its security session | `0F` wrong password (every session closes) |
/// | `C0` `C3` `C4` `C5` | FAST (EXTENDED) READ SINGLE / MULTIPLE BLOCKS | as `20` `23` `30` `33` (only the answer's data rate differs on the air) | as those |
/// | `A9`–`AC`, `CA`–`CE` (GPO, mailbox), `B4` | not simulated | | `01` |
///
/// Static registers at delivery: GPO `88`, IT_TIME `03`, EH_MODE `01`, RF_MNGT `00`, RFA1SS–RFA4SS `03`, ENDA1–3 the
/// last sector (`0F` on the 04K, `FF` on the 64K: one area spans the memory), I2CSS `00`, LOCK_CCFILE `00`, MB_MODE
/// `00`, MB_WDG `07`, LOCK_CFG `00`; the four RF passwords are all `00`. Area protection (RFAxSS, §5.6): bits 1–0
/// name the password (`00` none, `01`–`11` RF_PWD_1–3), bits 3–2 the rights: `00` open, `01` writes need the
/// password, `10` reads and writes need it, `11` reads need it and writes are forbidden; Area 1 is always readable.
/// A read the area refuses answers `15`, a write `12`; LOCK_CCFILE bits 0/1 lock blocks 0/1 (`12`). The mailbox
/// (fast transfer mode), GPO and energy harvesting have registers only: no behaviour behind them; RF_MNGT's sleep
/// and disable bits do not silence the chip.
extension ISO15693Tag {
    /// ST25DV EEPROM state: the 16 static configuration registers (RF pointers `00`–`0F`), the four RF passwords;
    /// the dynamic registers are volatile (reset at power-on from the static ones).
    public struct ST25DVState: Sendable, Hashable {
        public var configuration: [UInt8] = []
        public var passwords: [[UInt8]] = []
        var dynamic: [UInt8: UInt8] = [:]
        /// The last 32-byte sector (ENDAx at delivery).
        public var lastSector: UInt8 = 0

        init(profile: ISO15693ChipProfile) {
            guard profile.custom == .st25dv else { return }
            lastSector = UInt8(min(0xFF, profile.blockCount / 8 - 1))
            configuration = [
                0x88, 0x03, 0x01, 0x00, 0x03, lastSector, 0x03, lastSector, 0x03, lastSector, 0x03, 0x00, 0x00, 0x00,
                0x07, 0x00,
            ]
            passwords = Array(repeating: [UInt8](repeating: 0, count: 8), count: 4)
            powerOn()
        }

        /// Dynamic registers from the static ones (§5.2): GPO_EN, EH_EN (EH_MODE 0 forces it on), FIELD_ON set
        /// while the field powers the chip, RF_MNGT, MB_CTRL cleared.
        mutating func powerOn() {
            guard configuration.count == 16 else { return }
            dynamic = [
                0x00: configuration[0] >> 7, 0x02: (configuration[2] & 0x01 == 0 ? 0x01 : 0x00) | 0x04,
                0x03: configuration[3] & 0x03, 0x0D: 0x00,
            ]
        }

        /// The area (1–4) holding block `b`: areas end at 32-byte sectors ENDA1 ≤ ENDA2 ≤ ENDA3 (§5.6.1).
        func area(_ b: Int) -> Int {
            let sector = b / 8
            if sector <= Int(configuration[5]) { return 1 }
            if sector <= Int(configuration[7]) { return 2 }
            if sector <= Int(configuration[9]) { return 3 }
            return 4
        }

        /// RFAxSS of area `a`.
        func security(_ a: Int) -> UInt8 { configuration[[4, 6, 8, 10][a - 1]] }
    }

    private func areaOpen(_ ss: UInt8) -> Bool {
        ss & 0x03 != 0 && session.stSessions.contains(ss & 0x03)
    }

    func st25ReadDenied(_ b: Int) -> UInt8? {
        let a = st25.area(b)
        let rights = st25.security(a) >> 2 & 0x03
        return a != 1 && rights >= 0x02 && !areaOpen(st25.security(a)) ? 0x15 : nil
    }

    func st25WriteDenied(_ b: Int) -> UInt8? {
        if b < 2 && st25.configuration[12] >> UInt8(b) & 0x01 != 0 { return 0x12 }
        let ss = st25.security(st25.area(b))
        switch ss >> 2 & 0x03 {
        case 0x00: return nil
        case 0x03: return 0x12
        default: return areaOpen(ss) ? nil : 0x12
        }
    }

    func st25Command(_ command: UInt8, _ p: [UInt8], option: Bool, tearAfter: Int?) -> VirtualAnswer {
        switch command {
        case 0xA0:
            guard p.count == 1 else { return error(0x02) }
            guard p[0] < 0x10 else { return error(0x10) }
            return .data([0x00, st25.configuration[Int(p[0])]])
        case 0xA1:
            guard p.count == 2 else { return error(0x02) }
            guard p[0] < 0x10 else { return error(0x10) }
            guard session.stSessions.contains(0), st25.configuration[15] & 0x01 == 0 else { return error(0x0F) }
            var next = st25.configuration
            next[Int(p[0])] = p[1]
            // ENDA1 ≤ ENDA2 ≤ ENDA3 within the memory (§5.6.1).
            guard next[5] <= next[7], next[7] <= next[9], next[9] <= st25.lastSector else { return error(0x0F) }
            if tearAfter == nil || tearAfter! >= 1 { st25.configuration = next }
            return .data([0x00])
        case 0xAD:
            guard p.count == 1 else { return error(0x02) }
            guard let v = st25.dynamic[p[0]] else { return error(0x10) }
            return .data([0x00, v])
        case 0xAE:
            guard p.count == 2 else { return error(0x02) }
            guard let old = st25.dynamic[p[0]] else { return error(0x10) }
            let writable: UInt8 = p[0] == 0x03 ? 0x03 : 0x01
            if p[0] == 0x0D && p[1] & 0x01 != 0 && st25.configuration[13] & 0x01 == 0 { return error(0x0F) }
            st25.dynamic[p[0]] = old & ~writable | p[1] & writable
            return .data([0x00])
        case 0xB1, 0xB3:
            guard p.count == 9 else { return error(0x02) }
            guard p[0] <= 0x03 else { return error(0x0F) }
            let n = Int(p[0])
            if command == 0xB3 {
                guard Array(p[1...]) == st25.passwords[n] else {
                    session.stSessions = []
                    return error(0x0F)
                }
                session.stSessions.insert(p[0])
                return .data([0x00])
            }
            guard session.stSessions.contains(p[0]) else { return error(0x0F) }
            if tearAfter == nil || tearAfter! >= 8 { st25.passwords[n] = Array(p[1...]) }
            return .data([0x00])
        case 0xC0: return readBlocks(p, extended: false, multiple: false, option: option)
        case 0xC3: return readBlocks(p, extended: false, multiple: true, option: option)
        case 0xC4: return readBlocks(p, extended: true, multiple: false, option: option)
        case 0xC5: return readBlocks(p, extended: true, multiple: true, option: option)
        default: return error(0x01)
        }
    }
}
