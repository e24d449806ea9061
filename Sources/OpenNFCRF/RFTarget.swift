internal import OpenNFCBytes

/// The radio technologies a frontend can poll for (NFC Forum Activity names).
public enum RFTechnology: String, Sendable, Hashable, CaseIterable {
    /// NFC-A / ISO 14443-3 Type A: Type 1, Type 2, MIFARE, ISO-DEP type A (Type 4, DESFire).
    case nfcA
    /// NFC-B / ISO 14443-3 Type B: ISO-DEP type B.
    case nfcB
    /// NFC-F / JIS X 6319-4: FeliCa, Type 3.
    case nfcF
    /// NFC-V / ISO 15693: Type 5.
    case nfcV
}

/// What a frontend reports about a target it has found and activated: the facts Core NFC, Android and PC/SC
/// readers expose after anticollision (ISO 14443-3 §6, ISO 14443-4 §5.2 for the ATS).
public struct RFTarget: Sendable, Hashable, CustomStringConvertible {
    public var technology: RFTechnology
    /// UID (NFC-A), PUPI (NFC-B), IDm (NFC-F) or UID (NFC-V; stored MSB first as printed on tags).
    public var identifier: [UInt8]
    /// NFC-A SENS_RES (ATQA) as a value, e.g. `0x0044` for NTAG21x (on-air bytes `44 00`).
    public var sensRes: UInt16?
    /// NFC-A SEL_RES (SAK) of the final cascade level, e.g. `0x00` for Type 2, `0x20` for ISO-DEP.
    public var selRes: UInt8?
    /// The ATS (starting with its TL byte) when the target was activated as ISO-DEP type A.
    public var ats: [UInt8]?
    /// NFC-B ATQB, NFC-F PMm and system code, NFC-V DSFID: kept for the Type 3/5 roadmap.
    public var atqb: [UInt8]?
    public var pmm: [UInt8]?
    public var systemCode: UInt16?
    public var dsfid: UInt8?
    /// Which target in the field this is, unique while it stays in the field (frontends number them).
    public var handle: Int

    public init(
        technology: RFTechnology, identifier: [UInt8], sensRes: UInt16? = nil, selRes: UInt8? = nil,
        ats: [UInt8]? = nil, atqb: [UInt8]? = nil, pmm: [UInt8]? = nil, systemCode: UInt16? = nil,
        dsfid: UInt8? = nil, handle: Int = 0
    ) {
        self.technology = technology
        self.identifier = identifier
        self.sensRes = sensRes
        self.selRes = selRes
        self.ats = ats
        self.atqb = atqb
        self.pmm = pmm
        self.systemCode = systemCode
        self.dsfid = dsfid
        self.handle = handle
    }

    /// True when the target speaks ISO-DEP (SAK bit 0x20 for NFC-A, always for NFC-B here), so that exchanges carry
    /// APDUs or DESFire native commands rather than raw frames.
    public var isISODEP: Bool {
        switch technology {
        case .nfcA: return ats != nil || (selRes.map { $0 & 0x20 != 0 } ?? false)
        case .nfcB: return true
        case .nfcF, .nfcV: return false
        }
    }

    public var description: String {
        var s = "\(technology.rawValue) UID \(identifier.hexString)"
        if let a = sensRes { s += " ATQA \(Hex.encode([UInt8(a >> 8), UInt8(a & 0xFF)]))" }
        if let k = selRes { s += " SAK \(Hex.encode([k]))" }
        if let ats { s += " ATS \(ats.hexString)" }
        return s
    }
}
