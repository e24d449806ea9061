internal import OpenNFCBytes

/// NXP ICODE SLIX / SLIX2 custom commands (IC manufacturer `04`; NXP SL2S2002 §9.3, SL2S2602 §9.5), sent addressed
/// with the manufacturer code after the command code (ISO/IEC 15693-3 §10.5). Writes and locks take the Option flag
/// where the chip needs it (``Type5Link/write(_:what:)``).
extension ISO15693Request {
    /// The NXP password identifiers (SL2S2602 §9.5.4 Table 41).
    package enum NXPPassword {
        package static let read: UInt8 = 0x01
        package static let write: UInt8 = 0x02
        package static let privacy: UInt8 = 0x04
        package static let destroy: UInt8 = 0x08
        package static let easAFI: UInt8 = 0x10
    }

    package static let nxpSetEAS = Self(0xA2)
    package static let nxpResetEAS = Self(0xA3)
    package static let nxpLockEAS = Self(0xA4)
    package static let nxpEASAlarm = Self(0xA5)
    /// PASSWORD PROTECT EAS/AFI (`A6`): the Option flag chooses AFI over EAS (SL2S2602 §9.5.10).
    package static let nxpPasswordProtectEASAFI = Self(0xA6)
    package static let nxpGetSystemInformation = Self(0xAB)
    package static let nxpGetRandomNumber = Self(0xB2)
    /// SET PASSWORD (`B3`): the identifier and the password XORed with the random number.
    package static func nxpSetPassword(_ id: UInt8, _ xored: [UInt8]) -> Self { Self(0xB3, [id] + xored) }
    /// WRITE PASSWORD (`B4`): the identifier and the new password, least significant byte first.
    package static func nxpWritePassword(_ id: UInt8, _ password: [UInt8]) -> Self {
        Self(0xB4, [id] + password.reversed())
    }
    package static func nxpLockPassword(_ id: UInt8) -> Self { Self(0xB5, [id]) }
    package static func nxpProtectPage(pointer: UInt8, condition: UInt8) -> Self { Self(0xB6, [pointer, condition]) }
    package static func nxpLockPageProtection(pointer: UInt8) -> Self { Self(0xB7, [pointer]) }
    /// ENABLE PRIVACY (`BA`): the privacy password XORed with the random number.
    package static func nxpEnablePrivacy(_ xored: [UInt8]) -> Self { Self(0xBA, xored) }
    package static let nxpReadSignature = Self(0xBD)
}

/// What GET NXP SYSTEM INFORMATION (`AB`, SL2S2602 §9.5.14) answers: the protection pointer and condition, the lock
/// bits and the feature flags.
package struct NXPSystemInfo: Sendable, Hashable {
    package var protectionPointer: UInt8
    package var protectionCondition: UInt8
    package var lockBits: UInt8
    /// The four feature-flag bytes as sent, least significant first.
    package var featureFlags: [UInt8]

    /// What the lock bits lock (bit 0 AFI, 1 EAS, 2 DSFID, 3 page protection).
    package var locked: [String] {
        [(0x01, "AFI"), (0x02, "EAS"), (0x04, "DSFID"), (0x08, "page protection")]
            .filter { lockBits & UInt8($0.0) != 0 }.map(\.1)
    }

    /// The features the flags announce (SL2S2602 §9.5.14 Table 50).
    package var features: [String] {
        let f =
            UInt32(featureFlags[0]) | UInt32(featureFlags[1]) << 8 | UInt32(featureFlags[2]) << 16
            | UInt32(featureFlags[3]) << 24
        return [
            (0, "page protection"), (1, "counter"), (2, "EAS ID"), (3, "EAS password"), (4, "AFI password"),
            (8, "originality signature"), (12, "privacy"), (13, "destroy"),
        ].filter { f >> UInt32($0.0) & 1 != 0 }.map(\.1)
    }
}

extension Type5Link {
    /// GET NXP SYSTEM INFORMATION; nil when the tag is not NXP's or does not have the command (the SLIX answers
    /// error `01`) or answers another length.
    package func nxpSystemInfo() -> NXPSystemInfo? {
        guard manufacturer == 0x04, let b = try? send(.nxpGetSystemInformation, what: "GET NXP SYSTEM INFORMATION"),
            b.count == 7
        else { return nil }
        return NXPSystemInfo(
            protectionPointer: b[0], protectionCondition: b[1], lockBits: b[2], featureFlags: Array(b[3...]))
    }

    /// GET RANDOM NUMBER (`B2`), then the password XORed with it (SL2S2602 §9.5: the 16-bit random number repeated
    /// over the 32-bit password, both least significant byte first on the air).
    package func nxpXoredPassword(_ password: [UInt8]) throws(TagError) -> [UInt8] {
        let rnd = try send(.nxpGetRandomNumber, what: "GET RANDOM NUMBER")
        guard rnd.count == 2 else {
            throw TagError(.invalidResponse, "GET RANDOM NUMBER answered \(rnd.count) bytes instead of 2")
        }
        return password.reversed().enumerated().map { i, b in b ^ rnd[i % 2] }
    }

    /// GET RANDOM NUMBER and SET PASSWORD: presents password `id`.
    package func nxpPresentPassword(_ id: UInt8, _ password: [UInt8]) throws(TagError) {
        try write(.nxpSetPassword(id, try nxpXoredPassword(password)), what: "SET PASSWORD")
    }

    /// READ SIGNATURE (`BD`): the 32-byte originality signature.
    package func nxpSignature() throws(TagError) -> [UInt8] {
        let b = try send(.nxpReadSignature, what: "READ SIGNATURE")
        guard b.count == 32 else {
            throw TagError(.invalidResponse, "READ SIGNATURE answered \(b.count) bytes instead of 32")
        }
        return b
    }
}

extension Type5Trace {
    /// NXP ICODE SLIX/SLIX2 custom commands (NXP SL2S2602 datasheet §9.5).
    static func nxpCustomName(_ code: UInt8, _ p: [UInt8]) -> String {
        let passwords: [UInt8: String] = [
            0x01: "read", 0x02: "write", 0x04: "privacy", 0x08: "destroy", 0x10: "EAS/AFI",
        ]
        let id = p.first.map { passwords[$0] ?? "ID \(Hex.encode([$0]))" } ?? "?"
        switch code {
        case 0xA2: return "SET EAS (NXP)"
        case 0xA3: return "RESET EAS (NXP)"
        case 0xA4: return "LOCK EAS (NXP)"
        case 0xA5: return "EAS ALARM (NXP)"
        case 0xA6: return "PASSWORD PROTECT EAS/AFI (NXP)"
        case 0xA7: return "WRITE EAS ID (NXP)"
        case 0xAB: return "GET NXP SYSTEM INFO"
        case 0xB2: return "GET RANDOM NUMBER (NXP)"
        case 0xB3: return "SET PASSWORD \(id) (NXP)"
        case 0xB4: return "WRITE PASSWORD \(id) (NXP)"
        case 0xB5: return "LOCK PASSWORD \(id) (NXP)"
        case 0xB6: return "PROTECT PAGE (NXP)"
        case 0xB7: return "LOCK PAGE PROTECTION CONDITION (NXP)"
        case 0xB8: return "GET MULTIPLE BLOCK PROTECTION STATUS (NXP)"
        case 0xB9: return "DESTROY (NXP)"
        case 0xBA: return "ENABLE PRIVACY (NXP)"
        case 0xBB: return "64-BIT PASSWORD PROTECTION (NXP)"
        case 0xBD: return "READ SIGNATURE (NXP)"
        default: return "NXP custom command \(Hex.encode([code]))"
        }
    }
}
