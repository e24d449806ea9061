internal import OpenNFCCrypto

/// MIFARE Ultralight C (NXP MF0ICU2 product data sheet rev. 3.3) on the Type 2 engine: what differs from the
/// Ultralight MF0ICU1 it extends.
///
/// | Feature | Page / command | Behaviour here |
/// |---|---|---|
/// | AUTHENTICATE part 1 | `1A 00` | `AF` ‖ ek(RndB), 2-key 3DES CBC, IV 0 (§7.5.5, §9.5); any other argument: NAK 0 |
/// | AUTHENTICATE part 2 | `AF` ‖ ek(RndA ‖ RndB') (16 bytes) | IV = ek(RndB); RndB' = RndB rotated left by one byte; right: `00` ‖ ek(RndA') with IV = last 8 bytes received, then AUTHENTICATED; wrong: NAK 0 |
/// | Interrupted authentication | any other frame after `1A 00` | the challenge is dropped and the frame is handled normally |
/// | AUTH0 | page 2Ah byte 0 | first protected page, 03h–30h (30h = off); below 03h acts as 03h |
/// | AUTH1 | page 2Bh byte 0 bit 0 | 1: only writes need authentication; 0: reads too (READ then wraps at AUTH0) |
/// | Key | pages 2Ch–2Fh | write-only (READ returns zeros); stored k7…k0, k15…k8 (§7.5.7 Table 11); a new key counts from the next activation |
/// | Counter | page 29h bytes 0–1 (LSB first) | first WRITE sets 0001h–FFFFh; later WRITEs add the low nibble of byte 0 at the next RF reset; past FFFFh: NAK 0; anti-tearing |
/// | LOCK2 | page 28h byte 0 | bits 1–3 lock pages 10h–1Bh and bits 5–7 pages 1Ch–27h, 4 pages a bit; bit 0 / bit 4 freeze bits 1–3 / 5–7 |
/// | LOCK3 | page 28h byte 1 | stored (ORed), no effect: not simulated |
///
/// A wrong 3DES answer NAKs (and mutes until re-activation) as the Proxmark3 emulator does; the datasheet only says
/// the chip returns to IDLE (docs/DIFFERENCES.md).
enum UltralightCLayout {
    static let lockPage = 0x28
    static let counterPage = 0x29
    static let auth0Page = 0x2A
    static let auth1Page = 0x2B
    static let keyPage = 0x2C

    /// The LOCK2 bit that write-protects `page` (16…39).
    static func lockBit(_ page: Int) -> UInt8 {
        let group = (page - 16) / 4
        return UInt8(1) << UInt8(group < 3 ? group + 1 : group + 2)
    }

    /// The 16-byte 3DES key (k0…k15, the order used by the cipher) from pages 2Ch–2Fh of a memory image.
    static func key(fromPages memory: [UInt8]) -> [UInt8] {
        let b = keyPage * 4
        let first = (0..<8).map { memory[b + 7 - $0] }
        let second = (0..<8).map { memory[b + 15 - $0] }
        return first + second
    }

    /// Pages 2Ch–2Fh (16 bytes) holding `key` (k0…k15).
    static func pages(forKey key: [UInt8]) -> [UInt8] {
        Array(key[0..<8].reversed()) + Array(key[8..<16].reversed())
    }
}

extension Type2Tag {
    /// The Ultralight C 3DES key (k0…k15) as stored in pages 2Ch–2Fh; nil on other chips.
    public var ultralightCKeyPages: [UInt8]? {
        guard profile.family == .ultralightC else { return nil }
        return UltralightCLayout.key(fromPages: memory)
    }

    /// Stores `key` (16 bytes, k0…k15) in the key pages of an Ultralight C; it takes effect at the next activation.
    public func setUltralightCKey(_ key: [UInt8]) throws(FactoryError) {
        guard profile.family == .ultralightC else { throw FactoryError("\(profile.displayName) has no 3DES key") }
        guard key.count == 16 else { throw FactoryError("an Ultralight C key has 16 bytes, not \(key.count)") }
        for (i, b) in UltralightCLayout.pages(forKey: key).enumerated() {
            memory[UltralightCLayout.keyPage * 4 + i] = b
        }
    }

    /// Sets AUTH0 (03h–30h, 30h = no protection) and AUTH1 (`protectReads`: reads need authentication too).
    public func setUltralightCAccess(auth0: Int, protectReads: Bool) throws(FactoryError) {
        guard profile.family == .ultralightC else { throw FactoryError("\(profile.displayName) has no AUTH0/AUTH1") }
        guard (3...0x30).contains(auth0) else { throw FactoryError("AUTH0 must be 03h–30h, not \(auth0)") }
        memory[UltralightCLayout.auth0Page * 4] = UInt8(auth0)
        memory[UltralightCLayout.auth1Page * 4] = protectReads ? 0x00 : 0x01
    }

    /// The 16-bit counter of page 29h.
    public var ultralightCCounter: Int {
        let b = UltralightCLayout.counterPage * 4
        return Int(memory[b]) | Int(memory[b + 1]) << 8
    }

    /// RF reset: a pending counter increment lands, the key pages in force are re-read.
    func ultralightCReset() {
        ultralightCChallenge = nil
        if let add = ultralightCPendingIncrement {
            ultralightCPendingIncrement = nil
            let v = UInt32(ultralightCCounter) + add
            let b = UltralightCLayout.counterPage * 4
            memory[b] = UInt8(v & 0xFF)
            memory[b + 1] = UInt8(v >> 8 & 0xFF)
        }
        ultralightCKey = UltralightCLayout.key(fromPages: memory)
    }

    private func cipher() -> BlockCipher? { try? BlockCipher(.tdes2, key: ultralightCKey) }

    /// `1A 00`: answer `AF` ‖ ek(RndB) with IV 0 (MF0ICU2 §9.5 Table 26).
    func beginAuthentication(_ argument: UInt8) -> VirtualAnswer {
        isAuthenticated = false
        guard argument == 0x00, let c = cipher() else { return nak(0) }
        let rndB = random.bytes(8)
        guard let ek = try? c.encryptCBC(rndB, iv: [UInt8](repeating: 0, count: 8)) else { return nak(0) }
        ultralightCChallenge = (rndB, ek)
        return .data([0xAF] + ek)
    }

    /// `AF` ‖ ek(RndA ‖ RndB'): check RndB', answer `00` ‖ ek(RndA') (MF0ICU2 §9.5).
    func finishAuthentication(_ frame: [UInt8], challenge: (rndB: [UInt8], iv: [UInt8])) -> VirtualAnswer {
        guard frame.count == 17, let c = cipher() else { return nak(0) }
        let sent = Array(frame[1...])
        guard let plain = try? c.decryptCBC(sent, iv: challenge.iv) else { return nak(0) }
        let rndA = Array(plain[0..<8])
        let rotatedB = Array(challenge.rndB[1...]) + [challenge.rndB[0]]
        guard Array(plain[8..<16]) == rotatedB else { return nak(0) }
        let rotatedA = Array(rndA[1...]) + [rndA[0]]
        guard let answer = try? c.encryptCBC(rotatedA, iv: Array(sent[8..<16])) else { return nak(0) }
        isAuthenticated = true
        return .data([0x00] + answer)
    }

    /// LOCK2 bits are ORed in unless frozen by their block-lock bit (bit 0 freezes bits 1–3, bit 4 bits 5–7); LOCK3
    /// is ORed; bytes 2–3 are RFU.
    func writeUltralightCLocks(_ data: [UInt8]) {
        let base = UltralightCLayout.lockPage * 4
        let old = memory[base]
        var allowed: UInt8 = 0x11
        if old & 0x01 == 0 { allowed |= 0x0E }
        if old & 0x10 == 0 { allowed |= 0xE0 }
        memory[base] = old | (data[0] & allowed)
        memory[base + 1] |= data[1]
    }

    /// Page 29h: the first write sets the counter (0001h–FFFFh), later writes add the low nibble of byte 0 at the
    /// next RF reset; the sum may not pass FFFFh (MF0ICU2 §7.5.11).
    func writeUltralightCCounter(_ data: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        let current = UInt32(ultralightCCounter) + (ultralightCPendingIncrement ?? 0)
        let b = UltralightCLayout.counterPage * 4
        if current == 0 {
            let initial = UInt32(data[0]) | UInt32(data[1]) << 8
            guard initial != 0 else { return nak(0) }
            memory[b] = data[0]
            memory[b + 1] = data[1]
        } else {
            let add = UInt32(data[0] & 0x0F)
            guard current + add <= 0xFFFF else { return nak(0) }
            if add != 0 { ultralightCPendingIncrement = (ultralightCPendingIncrement ?? 0) + add }
        }
        return tearAfter == nil ? .ack : .silence
    }
}
