/// Factory states and the NDEF-first constructor.
extension Type2Tag {
    /// Why a tag could not be built.
    public struct FactoryError: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// The memory image of a chip as it leaves the factory with this UID: UID and check bytes in pages 0–2
    /// (ISO 14443-3 BCC0 = 88h ⊕ UID0 ⊕ UID1 ⊕ UID2, BCC1 = UID3 ⊕ … ⊕ UID6), lock bytes clear, configuration pages
    /// at their datasheet defaults (AUTH0 FFh, PWD FFFFFFFFh, PACK 0000h). With `ndefFormatted` the CC and
    /// data area are NDEF formatted (an empty NDEF TLV; NTAG213 also gets its Lock Control TLV), as NXP ships NTAG21x
    /// and as NFC-ready Ultralight inlays are sold; without it page 3 and the data area are zero (bare wafer state).
    public static func factoryMemory(
        _ profile: Type2ChipProfile, uid: [UInt8], ndefFormatted: Bool = true
    ) throws(FactoryError) -> [UInt8] {
        guard uid.count == 7 else { throw FactoryError("a Type 2 UID has 7 bytes, not \(uid.count)") }
        guard uid[0] != 0x88 else { throw FactoryError("UID0 88h is the cascade tag and cannot start a UID") }
        var m = [UInt8](repeating: 0, count: profile.pageCount * 4)
        m[0] = uid[0]
        m[1] = uid[1]
        m[2] = uid[2]
        m[3] = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        for i in 0..<4 { m[4 + i] = uid[3 + i] }
        m[8] = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        m[9] = profile.internalByte
        if ndefFormatted {
            for i in 0..<4 { m[12 + i] = profile.ndefCC[i] }
            for (i, b) in profile.ndefData.enumerated() { m[16 + i] = b }
        }
        if let d = profile.dynamicLock { m[d.page * 4 + 3] = d.factoryByte3 }
        if let c = profile.configPage {
            for i in 0..<8 { m[c * 4 + i] = profile.factoryConfig[i] }
            for i in 0..<4 { m[(c + 2) * 4 + i] = 0xFF }
        }
        if let r = profile.registerPage {
            for (i, b) in profile.factoryRegisters.enumerated() { m[r * 4 + i] = b }
        }
        if profile.family == .ultralightC {
            // MF0ICU2 Table 13: AUTH0 30h (no protection), AUTH1 00h, the key pages hold "BREAKMEIFYOUCAN!".
            m[UltralightCLayout.auth0Page * 4] = 0x30
            for (i, b) in "BREAKMEIFYOUCAN!".utf8.enumerated() { m[UltralightCLayout.keyPage * 4 + i] = b }
        }
        return m
    }

    /// A factory-fresh chip (see ``factoryMemory(_:uid:ndefFormatted:)``).
    public static func factory(
        _ profile: Type2ChipProfile, uid: [UInt8], ndefFormatted: Bool = true
    ) throws(FactoryError) -> Type2Tag {
        Type2Tag(unchecked: profile, memory: try factoryMemory(profile, uid: uid, ndefFormatted: ndefFormatted))
    }

    /// A factory-fresh, NDEF-formatted chip holding `message` (raw NDEF message bytes): the message is wrapped in an
    /// NDEF TLV (1-byte length, or `FF` and a 2-byte length from 255 bytes on; T2T §2.3.4) after the chip's factory
    /// Lock Control TLV, followed by a Terminator TLV when it fits.
    public static func factory(
        _ profile: Type2ChipProfile, uid: [UInt8], holding message: [UInt8]
    ) throws(FactoryError) -> Type2Tag {
        var memory = try factoryMemory(profile, uid: uid, ndefFormatted: true)
        // Keep the factory TLVs that precede the NDEF TLV (NTAG213's Lock Control TLV, the NTAG I2C plus 2k Memory
        // Control TLV); bytes a Memory Control TLV reserves are skipped (T2T §2.3.2), as a reader skips them.
        var end = 0
        var reserved: [Range<Int>] = []
        while end < profile.ndefData.count, profile.ndefData[end] != 0x03 {
            if profile.ndefData[end] == 0x02 {
                let v = profile.ndefData[end + 2..<end + 5].map { $0 }
                let at = Int(v[0] >> 4) * (1 << Int(v[2] & 0x0F)) + Int(v[0] & 0x0F)
                reserved.append(at..<at + (v[1] == 0 ? 256 : Int(v[1])))
            }
            end += profile.ndefData[end] == 0x00 ? 1 : 2 + Int(profile.ndefData[end + 1])
        }
        let prefix = Array(profile.ndefData[0..<end])
        var tlv = prefix + [0x03]
        if message.count < 0xFF {
            tlv.append(UInt8(message.count))
        } else {
            tlv += [0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        }
        tlv += message
        let addresses = (16..<16 + profile.dataAreaSize).filter { a in !reserved.contains { $0.contains(a) } }
        let area = addresses.count
        guard tlv.count <= area else {
            let long = area - prefix.count - 4
            let room = long >= 0xFF ? long : min(area - prefix.count - 2, 0xFE)
            throw FactoryError(
                "the \(message.count)-byte message does not fit \(profile.displayName): at most \(room) bytes")
        }
        if tlv.count < area { tlv.append(0xFE) }
        for a in addresses { memory[a] = 0 }
        for (i, b) in tlv.enumerated() { memory[addresses[i]] = b }
        return Type2Tag(unchecked: profile, memory: memory)
    }

    /// A random NXP UID (first byte 04h) from the given generator.
    public static func randomUID(using generator: inout some RandomNumberGenerator) -> [UInt8] {
        [0x04] + (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
