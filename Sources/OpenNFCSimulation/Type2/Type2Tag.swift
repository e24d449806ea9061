public import OpenNFCCrypto
public import OpenNFCRF

/// A byte-accurate NXP Type 2 chip (NTAG213/215/216, MIFARE Ultralight, Ultralight EV1), one engine driven by a
/// ``Type2ChipProfile``. Written from the card side of the NXP datasheets (NTAG213/215/216 §9–10, MF0ICU1 §9,
/// MF0ULX1 §9–10); frames arrive without CRC.
///
/// | Command | Bytes | ultralight | ev1 | ntag21x | Answer |
/// |---|---|---|---|---|---|
/// | READ | `30 PP` | ✓ | ✓ | ✓ | 16 bytes, wraps to page 0 (to AUTH0 when reading is protected) |
/// | FAST_READ | `3A SS EE` | silent | ✓ | ✓ | (EE−SS+1)×4 bytes, no wrap |
/// | WRITE | `A2 PP d0–d3` | ✓ | ✓ | ✓ | ACK; page committed whole or not at all |
/// | COMPATIBILITY WRITE | `A0 PP`, then 16 bytes | ✓ | ✓ | ✓ | ACK, ACK; first 4 bytes stored |
/// | GET_VERSION | `60` | silent | ✓ | ✓ | 8 bytes |
/// | READ_CNT | `39 AA` | silent | AA 0–2 | AA 02, NFC_CNT_EN | 3 bytes, LSB first |
/// | INCR_CNT | `A5 AA v0–v3` | silent | ✓ | silent | ACK; NAK 4 on overflow; tear-safe |
/// | CHECK_TEARING_EVENT | `3E AA` | silent | ✓ | silent | 1 byte, `BD` = no tearing |
/// | VCSL | `4B` + 16 + 4 bytes | silent | ✓ | silent | VCTID (CFG1 byte 1) |
/// | READ_SIG | `3C 00` | silent | ✓ | ✓ | the 32-byte signature (configurable) |
/// | PWD_AUTH | `1B p0–p3` | silent | ✓ | ✓ | PACK (2 bytes) |
/// | AUTHENTICATE (3DES) | `1A 00`, then `AF` + 16 bytes | silent | silent | silent | Ultralight C only: `AF` ek(RndB), then `00` ek(RndA') |
/// | HLTA, REQA/WUPA, anticollision | | field | field | field | handled by ``VirtualField`` |
///
/// Errors: NAK 0 for a bad address, a locked or protected page, a wrong password, PWD_AUTH once AUTHLIM is
/// exhausted and READ_CNT with the NFC counter disabled; NAK 4 for a counter overflow. After any NAK the chip is
/// mute (forgetting authentication) until re-activated; a command it lacks, or a malformed frame, gets no answer
/// and also mutes it (the state machine falls back to IDLE). Writes to OTP and lock bits OR the new bits in.
///
/// NTAG21x UID and NFC counter ASCII mirror (CFG0 MIRROR, MIRROR_PAGE) appear in READ and FAST_READ answers.
///
/// NTAG I2C plus 1k/2k (NT3H2111/NT3H2211 datasheet §9.x, NFC side):
///
/// | Feature | Behaviour |
/// |---|---|
/// | SECTOR_SELECT | `C2 FF` → ACK; then `SS 00 00 00`: an existing sector (0, 1 on the 2k, 3) is selected with no answer (passive ACK); another sector, sector 1 while NFC_DIS_SEC1 (ACCESS bit 5) is set, or a malformed second packet is NAK 0 |
/// | READ / FAST_READ / WRITE | address pages of the selected sector; a page that does not exist (1k: sector 0 EAh–FFh, sector 1; 2k: sector 0 EAh–FFh) is NAK 0; a READ that starts on a valid page and runs into missing pages or past the sector's end reads 00h there, no roll-over (datasheet §10.8 READ) |
/// | Session registers | sector 3 pages F8h–F9h: NC_REG, LAST_NDEF_BLOCK, SRAM_MIRROR_BLOCK, WDT_LS, WDT_MS, I2C_CLOCK_STR from the configuration registers at power-up, NS_REG `01` (RF field present), RFU; read-only from NFC (WRITE NAK 0) |
/// | Configuration registers | E8h–E9h, factory `01 00 F8 48 08 01 00 00`, written by WRITE; REG_LOCK bits (E9h byte 2) only set from NFC, and REG_LOCK_NFC (bit 0) makes E8h–E9h NAK 0 to WRITE |
/// | Password | AUTH0 (E3h byte 3; EAh or above: off), ACCESS (E4h: NFC_PROT, AUTHLIM, NFC_DIS_SEC1), PWD, PACK as NTAG21x |
/// | Dynamic lock bits | E2h, for sector 0 user pages; sector 1 pages of the 2k are not lockable here |
/// | **Left out** | the I2C interface, pass-through mode and the 64-byte SRAM (and its mirror), field-detect pin, watchdog timing; COMPATIBILITY WRITE, READ_CNT (silent: the chip lacks them) |
///
/// Ultralight C (MF0ICU2) differences: see `Type2Tag+UltralightC.swift` (3DES authentication, AUTH0/AUTH1, key
/// pages, the 16-bit counter, LOCK2).
///
/// Not simulated: the STRG_MOD_EN analogue option, tearing of the AUTHLIM counter, and the Ultralight C LOCK3 bits
/// (stored and ORed, without effect).
public final class Type2Tag: VirtualTag {
    public let profile: Type2ChipProfile
    /// The whole memory image, page × 4 bytes, including PWD and PACK as stored (they read back as zeros).
    public internal(set) var memory: [UInt8] {
        didSet { cachedActivation = nil }  // the UID lives in pages 0–1
    }
    /// ``activation`` as last built from ``memory`` (the field asks for it several times a frame); nil after any
    /// change to the memory.
    private var cachedActivation: VirtualActivation?
    /// One-way counters: the three Ultralight EV1 counters, or the NTAG21x NFC counter at index 2.
    public internal(set) var counters: [UInt32] = [0, 0, 0]
    /// Ultralight EV1 tearing flags per counter (`BD` = valid, no tearing event).
    public internal(set) var tearingFlags: [UInt8] = [0xBD, 0xBD, 0xBD]
    /// READ_SIG answer (32 bytes); see ``setSignature(_:)``.
    public internal(set) var signature: [UInt8]
    /// Failed PWD_AUTH attempts counted against AUTHLIM (non-volatile).
    public internal(set) var failedAuthentications = 0

    /// Volatile state.
    public private(set) var isMuted = false
    public internal(set) var isAuthenticated = false
    private var pendingCompatibilityWrite: Int?
    /// Ultralight C: the 3DES key in force (a new key counts from the next activation, MF0ICU2 §7.5.7).
    var ultralightCKey: [UInt8] = []
    /// Ultralight C: RndB and the last ciphertext block sent, between `1A 00` and `AF`.
    var ultralightCChallenge: (rndB: [UInt8], iv: [UInt8])?
    /// Ultralight C: a counter increment that takes effect at the next RF reset (MF0ICU2 §7.5.11).
    var ultralightCPendingIncrement: UInt32?
    /// Where RndB comes from (Ultralight C); inject a ``SeededRandomSource`` for reproducible transcripts.
    public var random: any RandomSource = SystemRandomSource()
    private var nfcCounterCounted = false
    /// NTAG I2C plus: the selected sector (0 after activation) and whether `C2 FF` awaits its second packet.
    public private(set) var sector = 0
    private var pendingSectorSelect = false
    /// NTAG I2C plus session registers (8 bytes, volatile: loaded from the configuration registers at power-up).
    public private(set) var sessionRegisters: [UInt8] = []
    /// EEPROM programming time of the last frame.
    var lastProgramming = NFCDuration.zero
    static let programmingTime = NFCDuration.microseconds(4_100)

    /// A chip with this exact memory image (`profile.pageCount × 4` bytes) and a 32-byte signature.
    public convenience init(
        profile: Type2ChipProfile, memory: [UInt8], signature: [UInt8] = Array(repeating: 0, count: 32)
    ) throws(FactoryError) {
        guard memory.count == profile.pageCount * 4 else {
            throw FactoryError(
                "\(profile.displayName) has \(profile.pageCount * 4) bytes of memory, not \(memory.count)")
        }
        guard signature.count == 32 else { throw FactoryError("a signature has 32 bytes, not \(signature.count)") }
        self.init(unchecked: profile, memory: memory, signature: signature)
    }

    init(unchecked profile: Type2ChipProfile, memory: [UInt8], signature: [UInt8] = Array(repeating: 0, count: 32)) {
        self.profile = profile
        self.memory = memory
        self.signature = signature
        loadSessionRegisters()
        if profile.family == .ultralightC { ultralightCKey = UltralightCLayout.key(fromPages: memory) }
    }

    /// Configures the READ_SIG answer (an NXP originality signature is 32 bytes of ECC r ‖ s).
    public func setSignature(_ bytes: [UInt8]) throws(FactoryError) {
        guard bytes.count == 32 else { throw FactoryError("a signature has 32 bytes, not \(bytes.count)") }
        signature = bytes
    }

    public var chip: String { profile.name }
    /// Type 2 tags are NFC-A (NFC Forum Type 2 Tag §2): answered without building the activation.
    public var technology: RFTechnology { .nfcA }

    /// The 7-byte UID from pages 0–1 (the BCC bytes skipped).
    public var uid: [UInt8] {
        let m = memory  // one access to the class's property, not seven (the field asks on every frame)
        return [m[0], m[1], m[2], m[4], m[5], m[6], m[7]]
    }

    public var activation: VirtualActivation {
        if let cached = cachedActivation { return cached }
        let built = VirtualActivation(uid: uid, sensRes: 0x0044, selRes: 0x00)
        cachedActivation = built
        return built
    }

    public func reset() {
        isMuted = false
        isAuthenticated = false
        pendingCompatibilityWrite = nil
        sector = 0
        pendingSectorSelect = false
        if profile.family == .ultralightC { ultralightCReset() }
    }

    public func powerOn() {
        reset()
        nfcCounterCounted = false
        loadSessionRegisters()
    }

    /// NTAG I2C plus power-up: the session registers take the configuration registers' values; NS_REG shows the
    /// RF field (bit 0).
    private func loadSessionRegisters() {
        guard let r = profile.registerPage else { return }
        sessionRegisters = Array(memory[r * 4..<r * 4 + 6]) + [0x01, 0x00]
    }

    /// EEPROM programming takes about 4.1 ms per page or counter write on NTAG21x and Ultralight EV1 (datasheets,
    /// "WRITE timing"); refused writes and reads take no measurable time.
    public func processingTime(for frame: [UInt8]) -> NFCDuration { lastProgramming }

    public func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        lastProgramming = .zero
        if isMuted { return .silence }
        if let page = pendingCompatibilityWrite {
            pendingCompatibilityWrite = nil
            guard frame.count == 16 else { return nak(0) }
            return write(page: page, Array(frame[0..<4]), tearAfter: tearAfter)
        }
        if pendingSectorSelect {
            pendingSectorSelect = false
            return sectorSelect(frame)
        }
        guard let command = frame.first else { return mute() }
        if profile.hasSectors { return receiveI2C(frame, tearAfter: tearAfter) }
        if profile.family == .ultralightC {
            if let challenge = ultralightCChallenge {
                ultralightCChallenge = nil
                if command == 0xAF { return finishAuthentication(frame, challenge: challenge) }
            }
            if command == 0x1A && frame.count == 2 { return beginAuthentication(frame[1]) }
        }
        let hasEV1 = profile.family == .ultralightEV1 || profile.family == .ntag21x
        switch (command, frame.count) {
        case (0x30, 2): return read(page: Int(frame[1]))
        case (0xA2, 6): return write(page: Int(frame[1]), Array(frame[2..<6]), tearAfter: tearAfter)
        case (0xA0, 2): return compatibilityWrite(page: Int(frame[1]))
        case (0x60, 1) where profile.version != nil: return .data(profile.version!)
        case (0x3A, 3) where hasEV1: return fastRead(from: Int(frame[1]), to: Int(frame[2]))
        case (0x39, 2) where hasEV1: return readCounter(Int(frame[1]))
        case (0xA5, 6) where profile.family == .ultralightEV1:
            return incrementCounter(Int(frame[1]), by: Array(frame[2..<5]), tearAfter: tearAfter)
        case (0x3E, 2) where profile.family == .ultralightEV1: return checkTearingEvent(Int(frame[1]))
        case (0x4B, 21) where profile.family == .ultralightEV1: return .data([config(1)[1]])
        case (0x3C, 2) where hasEV1: return frame[1] == 0 ? .data(signature) : nak(0)
        case (0x1B, 5) where hasEV1: return passwordAuthenticate(Array(frame[1..<5]))
        default: return mute()
        }
    }

    // MARK: Answers that change the protocol state

    /// A NAK: the chip then returns to IDLE/HALT and answers nothing until re-activated (datasheets, "ACK and NAK").
    func nak(_ code: UInt8) -> VirtualAnswer {
        isMuted = true
        isAuthenticated = false
        pendingCompatibilityWrite = nil
        ultralightCChallenge = nil
        return .nak(code)
    }

    /// No answer, and mute until re-activated: an unknown command or malformed frame.
    func mute() -> VirtualAnswer {
        isMuted = true
        isAuthenticated = false
        pendingCompatibilityWrite = nil
        ultralightCChallenge = nil
        return .silence
    }

    // MARK: Commands

    private func read(page: Int) -> VirtualAnswer {
        guard page < profile.pageCount, !readProtected(page) else { return nak(0) }
        // READ wraps around at the end of memory, or at AUTH0 while the protected area is unreadable.
        let limit = readLimit
        countNFCRead()
        var out: [UInt8] = []
        out.reserveCapacity(16)
        let mirror = self.mirror
        for i in 0..<4 { appendVisiblePage((page + i) % limit, mirror: mirror, to: &out) }
        return .data(out)
    }

    private func fastRead(from start: Int, to end: Int) -> VirtualAnswer {
        guard start <= end, end < profile.pageCount else { return nak(0) }
        if readProtected(end) { return nak(0) }
        countNFCRead()
        var out: [UInt8] = []
        out.reserveCapacity((end - start + 1) * 4)
        let mirror = self.mirror
        for p in start...end { appendVisiblePage(p, mirror: mirror, to: &out) }
        return .data(out)
    }

    private func compatibilityWrite(page: Int) -> VirtualAnswer {
        if let code = writeRefusal(page) { return nak(code) }
        pendingCompatibilityWrite = page
        return .ack
    }

    private func readCounter(_ index: Int) -> VirtualAnswer {
        switch profile.family {
        case .ntag21x:
            let access = accessByte
            guard index == 2, access & 0x10 != 0 else { return nak(0) }
            if access & 0x08 != 0 && !isAuthenticated { return nak(0) }
        case .ultralightEV1:
            guard index <= 2 else { return nak(0) }
        case .ultralight, .ultralightC, .ntagI2CPlus:
            return mute()
        }
        let v = counters[index]
        return .data([UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF)])
    }

    private func incrementCounter(_ index: Int, by value: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        guard index <= 2 else { return nak(0) }
        let add = UInt32(value[0]) | UInt32(value[1]) << 8 | UInt32(value[2]) << 16
        guard counters[index] + add <= 0xFF_FFFF else { return nak(4) }
        // The counter is tearing-protected: a torn increment keeps the old value and flags the event.
        if let t = tearAfter, t < 3 {
            tearingFlags[index] = 0x00
            return .silence
        }
        counters[index] += add
        tearingFlags[index] = 0xBD
        lastProgramming = Self.programmingTime
        return .ack
    }

    private func checkTearingEvent(_ index: Int) -> VirtualAnswer {
        guard index <= 2 else { return nak(0) }
        return .data([tearingFlags[index]])
    }

    private func passwordAuthenticate(_ password: [UInt8]) -> VirtualAnswer {
        guard let pwd = profile.pwdPage, let pack = profile.packPage else { return mute() }
        let limit = Int(accessByte & 0x07)
        if limit != 0 && failedAuthentications >= limit { return nak(0) }
        guard Array(memory[pwd * 4..<pwd * 4 + 4]) == password else {
            if limit != 0 { failedAuthentications += 1 }
            return nak(0)
        }
        failedAuthentications = 0
        isAuthenticated = true
        return .data(Array(memory[pack * 4..<pack * 4 + 2]))
    }

    /// The NTAG21x NFC counter counts the first READ or FAST_READ after power-up when NFC_CNT_EN is set.
    private func countNFCRead() {
        guard profile.family == .ntag21x, !nfcCounterCounted, accessByte & 0x10 != 0 else { return }
        nfcCounterCounted = true
        if counters[2] < 0xFF_FFFF { counters[2] += 1 }
    }
}

/// NTAG I2C plus commands (NT3H2111/NT3H2211 datasheet §9: GET_VERSION, READ, FAST_READ, WRITE, SECTOR_SELECT,
/// READ_SIG, PWD_AUTH); pages are those of the selected sector.
extension Type2Tag {
    fileprivate func receiveI2C(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        switch (frame[0], frame.count) {
        case (0x60, 1): return .data(profile.version ?? [])
        case (0xC2, 2):
            guard frame[1] == 0xFF else { return nak(0) }
            pendingSectorSelect = true
            return .ack
        case (0x30, 2): return readI2C(page: Int(frame[1]))
        case (0x3A, 3): return fastReadI2C(from: Int(frame[1]), to: Int(frame[2]))
        case (0xA2, 6):
            if sector == 3 { return nak(0) }  // session registers: read-only from NFC
            let gp = sector * 256 + Int(frame[1])
            guard profile.isValid(page: gp) else { return nak(0) }
            return write(page: gp, Array(frame[2..<6]), tearAfter: tearAfter)
        case (0x3C, 2): return frame[1] == 0 ? .data(signature) : nak(0)
        case (0x1B, 5): return passwordAuthenticate(Array(frame[1..<5]))
        default: return mute()
        }
    }

    /// SECTOR_SELECT packet 2 (`SS 00 00 00`): an existing sector is selected and the chip stays silent (the
    /// passive ACK); anything else is NAK 0.
    fileprivate func sectorSelect(_ frame: [UInt8]) -> VirtualAnswer {
        guard frame.count == 4, frame[1...] == [0, 0, 0] else { return nak(0) }
        let s = Int(frame[0])
        guard s < profile.memorySectors || s == 3 else { return nak(0) }
        if s == 1 && sector1DisabledForNFC { return nak(0) }
        sector = s
        return .silence
    }

    /// The 4 bytes of page `p` of the selected sector, nil when it does not exist.
    fileprivate func i2cPage(_ p: Int) -> [UInt8]? {
        if sector == 3 {
            guard p == 0xF8 || p == 0xF9 else { return nil }
            return Array(sessionRegisters[(p - 0xF8) * 4..<(p - 0xF8) * 4 + 4])
        }
        let gp = sector * 256 + p
        guard profile.isValid(page: gp) else { return nil }
        if gp == profile.pwdPage || gp == profile.packPage { return [0, 0, 0, 0] }
        return Array(memory[gp * 4..<gp * 4 + 4])
    }

    fileprivate func i2cReadProtected(_ p: Int) -> Bool { sector != 3 && readProtected(sector * 256 + p) }

    fileprivate func readI2C(page: Int) -> VirtualAnswer {
        guard i2cPage(page) != nil, !i2cReadProtected(page) else { return nak(0) }
        var out: [UInt8] = []
        for i in 0..<4 {
            let p = page + i
            out += p < 256 && !i2cReadProtected(p) ? (i2cPage(p) ?? [0, 0, 0, 0]) : [0, 0, 0, 0]
        }
        return .data(out)
    }

    fileprivate func fastReadI2C(from start: Int, to end: Int) -> VirtualAnswer {
        guard start <= end else { return nak(0) }
        var out: [UInt8] = []
        out.reserveCapacity((end - start + 1) * 4)
        for p in start...end {
            guard let bytes = i2cPage(p), !i2cReadProtected(p) else { return nak(0) }
            out += bytes
        }
        return .data(out)
    }
}
