internal import OpenNFCBytes

/// Memory access rules of the NXP Type 2 chips: static lock bytes (page 2, NTAG213 §8.5.2, MF0ICU1 §7.5.2), dynamic
/// lock bytes (NTAG213 §8.5.3, MF0ULX1 §8.5.3), OTP page 3, and the AUTH0/PROT/CFGLCK password configuration
/// (NTAG213 §8.5.7, MF0ULX1 §8.6).
extension Type2Tag {
    /// Configuration page `i` (0 = CFG0, 1 = CFG1), or zeros for a chip without configuration pages.
    func config(_ i: Int) -> [UInt8] {
        guard let c = profile.configPage else { return [0, 0, 0, 0] }
        let start = (c + i) * 4
        return Array(memory[start..<start + 4])
    }

    /// CFG1 byte 0 (ACCESS), zero on chips without configuration pages.
    var accessByte: UInt8 { profile.configPage.map { memory[($0 + 1) * 4] } ?? 0 }

    /// First password-protected page (AUTH0); beyond the last page nothing is protected. On Ultralight C it is
    /// byte 0 of page 2Ah (MF0ICU2 §7.5.8: valid 03h–30h; a smaller value acts as 03h here, DIFFERENCES.md). On NTAG
    /// I2C plus, AUTH0 at or past the first page after sector 0's configuration registers (EAh) turns protection
    /// off; below it, the protected area runs on through sector 1.
    public var auth0: Int {
        if profile.family == .ultralightC { return max(3, Int(memory[UltralightCLayout.auth0Page * 4])) }
        guard let c = profile.configPage else { return Int.max }
        let a = Int(memory[c * 4 + 3])
        if let r = profile.registerPage, a > r + 1 { return Int.max }
        return a
    }
    /// PROT: reads need the password too. On Ultralight C: AUTH1 (page 2Bh byte 0) bit 0 = 0 (MF0ICU2 Table 12).
    public var readProtection: Bool {
        if profile.family == .ultralightC { return memory[UltralightCLayout.auth1Page * 4] & 0x01 == 0 }
        return accessByte & 0x80 != 0
    }
    /// CFGLCK: CFG0/CFG1 are permanently write-locked.
    public var configurationLocked: Bool { accessByte & 0x40 != 0 }

    func readProtected(_ page: Int) -> Bool {
        !isAuthenticated && readProtection && page >= auth0
    }

    /// READ wraps at the end of memory, or at AUTH0 while the protected area cannot be read.
    var readLimit: Int {
        if !isAuthenticated && readProtection && auth0 > 0 && auth0 < profile.pageCount { return auth0 }
        return profile.pageCount
    }

    /// A page as READ returns it: PWD and PACK always read as zeros; mirrored bytes replace memory.
    func appendVisiblePage(_ page: Int, mirror: (start: Int, bytes: [UInt8])?, to out: inout [UInt8]) {
        if page == profile.pwdPage || page == profile.packPage
            || (profile.family == .ultralightC && page >= UltralightCLayout.keyPage)
        {
            out.append(contentsOf: [0, 0, 0, 0])
            return
        }
        let base = page * 4
        out.append(contentsOf: memory[base..<base + 4])
        if let m = mirror, base + 4 > m.start, base < m.start + m.bytes.count {
            let first = out.count - 4
            for i in 0..<4 where (m.start..<m.start + m.bytes.count).contains(base + i) {
                out[first + i] = m.bytes[base + i - m.start]
            }
        }
    }

    /// The NTAG21x ASCII mirror (NTAG213/215/216 §8.7): MIRROR_CONF (CFG0 byte 0 bits 7–6) selects the UID (14 hex
    /// digits), the NFC counter (6 hex digits, only while NFC_CNT_EN is set) or both separated by `x`; it starts at
    /// byte MIRROR_BYTE (bits 5–4) of MIRROR_PAGE (CFG0 byte 2) and must end inside user memory.
    var mirror: (start: Int, bytes: [UInt8])? {
        // CFG0's MIRROR byte (0) and MIRROR_PAGE (2), read from the memory without copying the page out (asked on
        // every READ and FAST_READ).
        guard profile.family == .ntag21x, let configPage = profile.configPage else { return nil }
        let cfg = (memory[configPage * 4], memory[configPage * 4 + 2])
        let mode = cfg.0 >> 6
        let page = Int(cfg.1)
        guard mode != 0, page >= 4 else { return nil }
        let ascii = { (bytes: [UInt8]) in Array(Hex.encode(bytes).utf8) }
        let counterOn = accessByte & 0x10 != 0
        let c = counters[2]
        let counter = ascii([UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)])
        let bytes: [UInt8]
        switch mode {
        case 1: bytes = ascii(uid)
        case 2:
            guard counterOn else { return nil }
            bytes = counter
        default: bytes = counterOn ? ascii(uid) + [0x78] + counter : ascii(uid)
        }
        let start = page * 4 + Int(cfg.0 >> 4 & 0x03)
        guard start + bytes.count <= (profile.lastUserPage + 1) * 4 else { return nil }
        return (start, bytes)
    }

    /// The NAK code a WRITE/COMPATIBILITY WRITE to `page` gets, or nil when it is allowed.
    func writeRefusal(_ page: Int) -> UInt8? {
        guard page < profile.pageCount, page >= 2 else { return 0 }
        if page >= auth0 && !isAuthenticated { return 0 }
        if isLocked(page) { return 0 }
        if let c = profile.configPage, page == c || page == c + 1, configurationLocked { return 0 }
        if let r = profile.registerPage, page == r || page == r + 1, registersLockedForNFC { return 0 }
        return nil
    }

    /// NTAG I2C plus REG_LOCK_NFC (REG_LOCK, configuration register byte 6 = page E9h byte 2, bit 0; NT3H2111/
    /// NT3H2211 datasheet, configuration registers table): once set, the configuration registers (E8h–E9h) can no
    /// longer be written from NFC; it cannot be cleared.
    public var registersLockedForNFC: Bool {
        guard let r = profile.registerPage else { return false }
        return memory[(r + 1) * 4 + 2] & 0x01 != 0
    }

    /// NTAG I2C plus 2k NFC_DIS_SEC1 (ACCESS byte bit 5, NT3H2111/NT3H2211 datasheet, ACCESS configuration byte):
    /// sector 1 cannot be selected from NFC. RFU (always off) on the 1k, which has no sector 1.
    public var sector1DisabledForNFC: Bool {
        profile.family == .ntagI2CPlus && profile.memorySectors > 1 && accessByte & 0x20 != 0
    }

    /// Whether a lock bit makes `page` read-only.
    public func isLocked(_ page: Int) -> Bool {
        let lock0 = memory[10]
        let lock1 = memory[11]
        switch page {
        case 3: return lock0 & 0x08 != 0
        case 4...7: return lock0 & (1 << UInt8(page)) != 0
        case 8...15: return lock1 & (1 << UInt8(page - 8)) != 0
        case 16...39 where profile.family == .ultralightC:
            return memory[UltralightCLayout.lockPage * 4] & UltralightCLayout.lockBit(page) != 0
        default:
            guard let d = profile.dynamicLock, page >= d.firstPage, page <= d.lastPage else { return false }
            let bit = (page - d.firstPage) / d.pagesPerBit
            let byte = memory[d.page * 4 + bit / 8]
            return byte & (1 << UInt8(bit % 8)) != 0
        }
    }

    /// WRITE semantics once access is granted: lock and OTP bytes are ORed (respecting block-lock bits), other
    /// pages replaced. With `tearAfter` below 4 nothing is committed (a page is programmed atomically).
    func write(page: Int, _ data: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        if let code = writeRefusal(page) { return nak(code) }
        if let t = tearAfter, t < 4 { return .silence }
        lastProgramming = Self.programmingTime
        let base = page * 4
        switch page {
        case 2:
            writeStaticLocks(data[2], data[3])
        case 3:
            for i in 0..<4 { memory[base + i] |= data[i] }
        case profile.dynamicLock?.page:
            writeDynamicLocks(data)
        case UltralightCLayout.lockPage where profile.family == .ultralightC:
            writeUltralightCLocks(data)
        case UltralightCLayout.counterPage where profile.family == .ultralightC:
            return writeUltralightCCounter(data, tearAfter: tearAfter)
        case profile.registerPage.map({ $0 + 1 }):
            // REG_LOCK (byte 2) bits are one-way: an NFC write can set them, never clear them.
            for i in 0..<4 { memory[base + i] = i == 2 ? memory[base + 2] | data[2] : data[i] }
        default:
            for i in 0..<4 { memory[base + i] = data[i] }
        }
        return tearAfter == nil ? .ack : .silence
    }

    /// Static lock bytes: LOCK0 b0 freezes the CC bit (b3), b1 freezes the page 4–9 bits (LOCK0 b7–b4, LOCK1 b1–b0),
    /// b2 freezes the page 10–15 bits (LOCK1 b7–b2). Block-lock bits already set before this write apply.
    private func writeStaticLocks(_ new0: UInt8, _ new1: UInt8) {
        let old0 = memory[10]
        let old1 = memory[11]
        var allowed0: UInt8 = 0x07
        var allowed1: UInt8 = 0x00
        if old0 & 0x01 == 0 { allowed0 |= 0x08 }
        if old0 & 0x02 == 0 {
            allowed0 |= 0xF0
            allowed1 |= 0x03
        }
        if old0 & 0x04 == 0 { allowed1 |= 0xFC }
        memory[10] = old0 | (new0 & allowed0)
        memory[11] = old1 | (new1 & allowed1)
    }

    /// Dynamic lock bytes 0–1 (lock bits) and 2 (block-lock bits, each freezing ``Type2ChipProfile/DynamicLock/bitsPerBlockBit``
    /// lock bits); unused bits and the RFUI byte 3 are ignored.
    private func writeDynamicLocks(_ data: [UInt8]) {
        guard let d = profile.dynamicLock else { return }
        let base = d.page * 4
        let blocks = memory[base + 2]
        for bit in 0..<d.lockBits {
            let frozen = blocks & (1 << UInt8(bit / d.bitsPerBlockBit)) != 0
            let mask = UInt8(1) << UInt8(bit % 8)
            if !frozen && data[bit / 8] & mask != 0 { memory[base + bit / 8] |= mask }
        }
        let blockMask = UInt8((1 << d.blockBits) - 1)
        memory[base + 2] |= data[2] & blockMask
    }
}
