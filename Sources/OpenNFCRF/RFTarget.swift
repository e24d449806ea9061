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

    // Equality and hashing by case, not through the `String` raw value that `RawRepresentable`'s default would
    // compare and hash: technology sets are built and probed on every poll (docs/PERFORMANCE.md).

    /// Whether both are the same technology.
    public static func == (a: RFTechnology, b: RFTechnology) -> Bool { a.ordinal == b.ordinal }

    /// Hashes the case.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    private var ordinal: UInt8 {
        switch self {
        case .nfcA: 0
        case .nfcB: 1
        case .nfcF: 2
        case .nfcV: 3
        }
    }
}

/// A target a frontend has found or activated: its technology's activation data and the frontend's handle for it.
///
/// The activation is typed per technology (``RFActivation``): NFC-A carries SENS_RES, SEL_RES, the ATS and Type 1's
/// HR0/HR1; NFC-B the ATQB fields and the ATTRIB answer; NFC-F IDm, PMm, system code and request data; NFC-V the
/// UID, DSFID and AFI.
package struct RFTarget: Sendable, Hashable, CustomStringConvertible {
    package var activation: RFActivation
    /// Which target in the field this is, unique while it stays in the field (frontends number them).
    package var handle: Int

    package init(_ activation: RFActivation, handle: Int = 0) {
        self.activation = activation
        self.handle = handle
    }

    /// An NFC-A target (the common case in tests and level-3 frontends).
    package static func nfcA(
        uid: [UInt8], sensRes: UInt16? = nil, selRes: UInt8? = nil, ats: [UInt8]? = nil, handle: Int = 0
    ) -> RFTarget {
        RFTarget(.nfcA(NFCAActivation(uid: uid, sensRes: sensRes, selRes: selRes, ats: ats)), handle: handle)
    }

    package var technology: RFTechnology { activation.technology }
    /// UID (NFC-A, NFC-V; MSB first as printed), PUPI (NFC-B) or IDm (NFC-F).
    package var identifier: [UInt8] { activation.identifier }

    /// The NFC-A activation data, when this is an NFC-A target.
    package var nfcA: NFCAActivation? {
        if case .nfcA(let a) = activation { return a }
        return nil
    }
    /// The NFC-B activation data, when this is an NFC-B target.
    package var nfcB: NFCBActivation? {
        if case .nfcB(let b) = activation { return b }
        return nil
    }
    /// The NFC-F activation data, when this is an NFC-F target.
    package var nfcF: NFCFActivation? {
        if case .nfcF(let f) = activation { return f }
        return nil
    }
    /// The NFC-V activation data, when this is an NFC-V target.
    package var nfcV: NFCVActivation? {
        if case .nfcV(let v) = activation { return v }
        return nil
    }

    /// NFC-A SENS_RES (ATQA), nil for other technologies.
    package var sensRes: UInt16? { nfcA?.sensRes }
    /// NFC-A SEL_RES (SAK), nil for other technologies and for Type 1.
    package var selRes: UInt8? { nfcA?.selRes }
    /// The NFC-A ATS once activated as ISO-DEP type A; setting it on another technology does nothing.
    package var ats: [UInt8]? {
        get { nfcA?.ats }
        set {
            guard case .nfcA(var a) = activation else { return }
            a.ats = newValue
            activation = .nfcA(a)
        }
    }

    /// True when the target speaks ISO-DEP (SAK bit 0x20 or an ATS for NFC-A; always for NFC-B, whose cards here are
    /// all ISO/IEC 14443-4 cards), so that exchanges carry APDUs or DESFire native commands rather than raw frames.
    package var isISODEP: Bool {
        switch activation {
        case .nfcA(let a): return a.ats != nil || (a.selRes.map { $0 & 0x20 != 0 } ?? false)
        case .nfcB: return true
        case .nfcF, .nfcV: return false
        }
    }

    package var description: String {
        var s = "\(technology.rawValue) UID \(identifier.hexString)"
        switch activation {
        case .nfcA(let a):
            if let q = a.sensRes { s += " ATQA \(Hex.encode([UInt8(q >> 8), UInt8(q & 0xFF)]))" }
            if let k = a.selRes { s += " SAK \(Hex.encode([k]))" }
            if let t1 = a.type1 { s += " HR \(Hex.encode([t1.hr0, t1.hr1]))" }
            if let ats = a.ats { s += " ATS \(ats.hexString)" }
        case .nfcB(let b):
            s += " APP \(b.applicationData.hexString) PROTO \(b.protocolInfo.hexString)"
        case .nfcF(let f):
            s += " PMm \(f.pmm.hexString)"
            if let sc = f.systemCode { s += " SC \(Hex.encode([UInt8(sc >> 8), UInt8(sc & 0xFF)]))" }
        case .nfcV(let v):
            s += " DSFID \(Hex.encode([v.dsfid]))"
        }
        return s
    }
}
