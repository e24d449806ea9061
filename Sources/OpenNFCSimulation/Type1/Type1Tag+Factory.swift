/// Factory states, the NDEF-first constructor and the card's own view of its NDEF data.
///
/// The card side lays the TLV area out over the data bytes of its memory map (Topaz datasheet §7): bytes 12–103
/// (blocks 1–C after the CC), then on a dynamic chip bytes 128 on (blocks 10h on); blocks D–F (reserved, lock and
/// OTP bytes) are never part of it.
extension Type1Tag {
    /// The memory image of a chip as it leaves the factory: UID0–UID6 in block 0, lock and OTP bytes clear, and
    /// with `ndefFormatted` the capability container and the factory TLVs of ``Type1ChipProfile/ndefTLVs`` (T1T 1.2,
    /// "NDEF Storage": Topaz 96 `E1 10 0E 00 | 03 00`; Topaz 512 `E1 10 3F 00 | 01 03 F2 30 33 | 02 03 F0 02 03 |
    /// 03 00`).
    ///
    /// - Parameter uid: UID0–UID3 (what RID reports; UID4–UID6 are then 00) or all of UID0–UID6.
    package static func factoryMemory(
        _ profile: Type1ChipProfile, uid: [UInt8], ndefFormatted: Bool = true
    ) throws(FactoryError) -> [UInt8] {
        guard uid.count == 4 || uid.count == 7 else {
            throw FactoryError("\(profile.name) has a 7 or 4-byte UID, not \(uid.count) bytes")
        }
        var m = [UInt8](repeating: 0, count: profile.memorySize)
        for (i, b) in uid.enumerated() { m[i] = b }
        if ndefFormatted {
            for (i, b) in (profile.ndefCC + profile.ndefTLVs).enumerated() { m[8 + i] = b }
        }
        return m
    }

    /// A factory-fresh chip (see ``factoryMemory(_:uid:ndefFormatted:)``).
    public static func factory(
        _ profile: Type1ChipProfile, uid: [UInt8], ndefFormatted: Bool = true
    ) throws(FactoryError) -> Type1Tag {
        Type1Tag(unchecked: profile, memory: try factoryMemory(profile, uid: uid, ndefFormatted: ndefFormatted))
    }

    /// A factory-fresh, NDEF-formatted chip holding `message`: the factory control TLVs, then an NDEF TLV (1-byte
    /// length, or `FF` and 2 bytes from 255 bytes on) and a Terminator TLV when it fits, over the data bytes.
    public static func factory(
        _ profile: Type1ChipProfile, uid: [UInt8], holding message: [UInt8]
    ) throws(FactoryError) -> Type1Tag {
        var memory = try factoryMemory(profile, uid: uid, ndefFormatted: true)
        let controls = Array(profile.ndefTLVs.dropLast(2))  // everything before the empty NDEF TLV `03 00`
        var tlv = controls + [0x03]
        tlv +=
            message.count < 0xFF
            ? [UInt8(message.count)] : [0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        tlv += message
        let area = dataAddresses(profile)
        guard tlv.count <= area.count else {
            let n = area.count - controls.count
            let room = max(min(n - 2, 0xFE), min(n - 4, 0xFFFE))
            throw FactoryError(
                "the \(message.count)-byte message does not fit \(profile.displayName): at most \(max(0, room)) bytes")
        }
        if tlv.count < area.count { tlv.append(0xFE) }
        for a in area { memory[a] = 0 }
        for (a, b) in zip(area, tlv) { memory[a] = b }
        return Type1Tag(unchecked: profile, memory: memory)
    }

    /// The byte addresses the TLV area occupies, in order (see the extension's discussion).
    static func dataAddresses(_ profile: Type1ChipProfile) -> [Int] {
        Array(12..<104) + (profile.memorySize > 128 ? Array(128..<profile.memorySize) : [])
    }

    /// Whether byte 8 holds the NDEF magic number E1h.
    public var isNDEFFormatted: Bool { memory[8] == 0xE1 }

    /// One TLV block as the card stores it.
    /// A TLV block (the card side's one scan, ``CardTLV``).
    public typealias TLV = CardTLV

    /// The TLV blocks over the data bytes, up to the Terminator or the end of memory; a truncated TLV ends the walk.
    public var tlvs: [TLV] {
        guard isNDEFFormatted else { return [] }
        return CardTLV.scan(memory, addresses: Self.dataAddresses(profile))
    }

    /// The message in the first NDEF TLV; nil when unformatted, without an NDEF TLV, or empty.
    public var ndefMessage: [UInt8]? {
        guard let tlv = tlvs.first(where: { $0.type == 0x03 }), !tlv.value.isEmpty else { return nil }
        return tlv.value
    }

    /// Read-only as the CC states it (write access nibble of byte 11) or as the lock bits enforce (block 1, the CC).
    public var isNDEFReadOnly: Bool { memory[11] & 0x0F != 0 || isLocked(block: 1) }
}
