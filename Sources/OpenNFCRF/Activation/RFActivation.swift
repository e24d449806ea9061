/// What a frontend reports about a target, per radio technology (NFC Forum Activity §4; ISO/IEC 14443-3,
/// JIS X 6319-4, ISO/IEC 15693-3). One case per technology, so each carries exactly its own facts.
public enum RFActivation: Sendable, Hashable {
    case nfcA(NFCAActivation)
    case nfcB(NFCBActivation)
    case nfcF(NFCFActivation)
    case nfcV(NFCVActivation)

    /// The technology of this activation.
    public var technology: RFTechnology {
        switch self {
        case .nfcA: return .nfcA
        case .nfcB: return .nfcB
        case .nfcF: return .nfcF
        case .nfcV: return .nfcV
        }
    }

    /// What a frontend reports when it knows only the technology and the identifier (a PC/SC reader that exposes a
    /// card's UID or IDm through `GET DATA` but none of its activation bytes).
    public static func identifierOnly(_ technology: RFTechnology, _ identifier: [UInt8]) -> RFActivation {
        switch technology {
        case .nfcA: return .nfcA(NFCAActivation(uid: identifier, sensRes: nil, selRes: nil))
        case .nfcB: return .nfcB(NFCBActivation(pupi: identifier, applicationData: [], protocolInfo: []))
        case .nfcF: return .nfcF(NFCFActivation(idm: identifier, pmm: []))
        case .nfcV: return .nfcV(NFCVActivation(uid: identifier, dsfid: 0))
        }
    }

    /// UID (NFC-A, NFC-V, MSB first as printed), PUPI (NFC-B) or IDm (NFC-F).
    public var identifier: [UInt8] {
        switch self {
        case .nfcA(let a): return a.uid
        case .nfcB(let b): return b.pupi
        case .nfcF(let f): return f.idm
        case .nfcV(let v): return v.uid
        }
    }
}
