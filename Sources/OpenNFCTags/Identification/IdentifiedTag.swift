package import OpenNFCRF

/// What kind of tag an activated target is, as far as the reader procedures care.
package enum TagKind: Sendable, Hashable, CustomStringConvertible {
    /// An NFC Forum Type 2 tag (NFC-A, SAK without ISO-DEP): NTAG, Ultralight, or generic.
    case type2(Type2Chip)
    /// An NFC Forum Type 1 tag (Topaz: NFC-A without anticollision or SEL_RES, HR0/HR1 from RID or RALL).
    case type1
    /// An NFC Forum Type 3 tag (NFC-F, FeliCa): NDEF through the T3T mapping (system code 12FC).
    case type3
    /// A MIFARE DESFire (identified by its GetVersion answer); NDEF through the Type 4 mapping.
    case desfire(DESFireVersion)
    /// Any other ISO-DEP target (NFC-A or NFC-B): a Type 4 tag candidate.
    case iso7816
    /// An NFC Forum Type 5 tag (NFC-V, ISO/IEC 15693): ICODE, ST25, Tag-it; identified from its UID and Get System
    /// Information.
    case type5(Type5Chip)
    /// MIFARE Classic or Plus in SL1/SL2 (SAK `08`, `09`, `18`, `88`, `10`, `11`): NDEF per NXP AN1305 where the
    /// frontend performs Crypto1 (`MifareClassicNDEF`).
    case mifareClassic
    /// A MIFARE Plus EV1/EV2 in SL0 or SL3 (ISO-DEP, identified by its GetVersion answer, type `02`); in SL1 it is
    /// ``mifareClassic``. No NDEF mapping here (`MIFAREPlus/`).
    case mifarePlus(MIFAREPlusVersion)
    /// A technology the procedures do not cover yet (NFC-F), or a target no family recognises, with the reason.
    case unsupported(String)

    package var description: String {
        switch self {
        case .type2(let chip): return chip.name
        case .type1: return "type1"
        case .type3: return "type3"
        case .desfire(let v): return "desfire-\(v.generation.rawValue)"
        case .iso7816: return "iso7816"
        case .type5(let chip): return chip.name
        case .mifareClassic: return "mifare-classic"
        case .mifarePlus(let v): return v.description
        case .unsupported(let why): return "unsupported (\(why))"
        }
    }
}

/// An activated target with its kind decided (``TagIdentifier/identify(target:frontend:)``).
package struct IdentifiedTag: Sendable, Hashable, CustomStringConvertible {
    /// The target as the frontend reported its activation (UID, SENS_RES, SEL_RES, ATS).
    package var target: RFTarget
    package var kind: TagKind
    /// The raw version answer that decided the kind, if one was asked for: the 8 GET_VERSION bytes of a Type 2
    /// chip, or the 28 data bytes of a DESFire GetVersion (hardware, software, production).
    package var versionData: [UInt8]?

    package init(target: RFTarget, kind: TagKind, versionData: [UInt8]? = nil) {
        self.target = target
        self.kind = kind
        self.versionData = versionData
    }

    /// The ISO 14443-4 historical bytes from the ATS (what Core NFC reports as `historicalBytes`), if any.
    package var historicalBytes: [UInt8]? {
        guard let ats = target.ats, ats.count >= 2 else { return nil }
        let t0 = ats[1]
        var i = 2
        if t0 & 0x10 != 0 { i += 1 }  // TA(1)
        if t0 & 0x20 != 0 { i += 1 }  // TB(1)
        if t0 & 0x40 != 0 { i += 1 }  // TC(1)
        let end = min(Int(ats[0]), ats.count)
        return i < end ? Array(ats[i..<end]) : []
    }

    /// The NDEF procedure for this tag, or nil when its platform has none (unsupported kinds; MIFARE Classic on a
    /// frontend without Crypto1).
    package func ndefProcedure(frontend: any RFFrontend) -> (any NDEFTagProcedure)? {
        switch kind {
        case .type2(let chip): return Type2NDEF(target: target, chip: chip, frontend: frontend)
        case .type1: return Type1NDEF(target: target, frontend: frontend)
        case .type3: return Type3NDEF(target: target, frontend: frontend)
        case .desfire(let version): return Type4NDEF(target: target, frontend: frontend, desfire: version)
        case .iso7816: return Type4NDEF(target: target, frontend: frontend)
        case .type5: return Type5NDEF(uid: target.identifier, frontend: frontend)
        case .mifareClassic:
            // NXP AN1305 NDEF needs Crypto1 in the frontend (a PC/SC reader or `sim:`; never an iPhone).
            guard frontend.capabilities.mifareClassicAuthentication else { return nil }
            return MifareClassicNDEF(target: target, frontend: frontend)
        case .mifarePlus, .unsupported: return nil
        }
    }

    package var description: String { "\(kind) \(target)" }
}
