/// The elementary files of an eMRTD (ICAO Doc 9303 Part 10 §3–§4, LDS 1.7): where each lives, its file and short
/// identifiers, and the tag its contents start with.
///
/// | File | FID | SFI | Tag | DF |
/// |---|---|---|---|---|
/// | EF.CardAccess | `011C` | `1C` | `31` | MF |
/// | EF.ATR/INFO | `2F01` | `01` | `7F66`/… | MF |
/// | EF.COM | `011E` | `1E` | `60` | eMRTD application |
/// | EF.SOD | `011D` | `1D` | `77` | eMRTD application |
/// | DG*n* | `01 0n` | *n* | see ``dataGroupTags`` | eMRTD application |
///
/// `011C` and `011D` name different files in the MF (EF.CardAccess, EF.CardSecurity) and in the application
/// (EF.CVCA, EF.SOD): identifiers resolve against the current DF (Part 10 §3.11, §4.6).
package enum LDSFile: Hashable, Sendable, Comparable, CustomStringConvertible {
    case cardAccess
    case atrInfo
    case com
    case sod
    case dataGroup(Int)

    /// The eMRTD application's DF name (Part 10 §3.9.2).
    package static let applicationID: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]

    /// The first tag of each data group's contents (Part 10 §4.7, table 34).
    package static let dataGroupTags: [Int: UInt8] = [
        1: 0x61, 2: 0x75, 3: 0x63, 4: 0x76, 5: 0x65, 6: 0x66, 7: 0x67, 8: 0x68, 9: 0x69, 10: 0x6A, 11: 0x6B,
        12: 0x6C, 13: 0x6D, 14: 0x6E, 15: 0x6F, 16: 0x70,
    ]

    package var fileID: UInt16 {
        switch self {
        case .cardAccess: 0x011C
        case .atrInfo: 0x2F01
        case .com: 0x011E
        case .sod: 0x011D
        case .dataGroup(let n): 0x0100 | UInt16(n)
        }
    }

    package var shortID: UInt8 {
        switch self {
        case .cardAccess: 0x1C
        case .atrInfo: 0x01
        case .com: 0x1E
        case .sod: 0x1D
        case .dataGroup(let n): UInt8(n)
        }
    }

    /// True for the files of the MF (readable before any access control).
    package var inMasterFile: Bool { self == .cardAccess || self == .atrInfo }

    /// The name in tag files and reports: `EF.COM`, `DG1`, `EF.SOD`, `EF.CardAccess`, `EF.ATR/INFO`.
    package var description: String {
        switch self {
        case .cardAccess: "EF.CardAccess"
        case .atrInfo: "EF.ATR/INFO"
        case .com: "EF.COM"
        case .sod: "EF.SOD"
        case .dataGroup(let n): "DG\(n)"
        }
    }

    /// The file named `text` (as ``description`` writes it), if any.
    package init?(named text: String) {
        switch text {
        case "EF.CardAccess": self = .cardAccess
        case "EF.ATR/INFO": self = .atrInfo
        case "EF.COM": self = .com
        case "EF.SOD": self = .sod
        default:
            guard text.hasPrefix("DG"), let n = Int(text.dropFirst(2)), (1...16).contains(n) else { return nil }
            self = .dataGroup(n)
        }
    }

    private var order: Int {
        switch self {
        case .cardAccess: 0
        case .atrInfo: 1
        case .com: 2
        case .dataGroup(let n): 2 + n
        case .sod: 20
        }
    }

    package static func < (a: LDSFile, b: LDSFile) -> Bool { a.order < b.order }
}

/// BER-TLV encoding of the LDS's data objects (ISO/IEC 7816-4 §5.2: one- or two-byte tags; lengths in short form
/// below 128, else `81`, `82` or `83` and the length's bytes).
package enum LDSTLV {
    package static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        if n <= 0xFF { return [0x81, UInt8(n)] }
        if n <= 0xFFFF { return [0x82, UInt8(n >> 8), UInt8(n & 0xFF)] }
        return [0x83, UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }

    package static func encode(_ tag: UInt16, _ value: [UInt8]) -> [UInt8] {
        let t: [UInt8] = tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]
        return t + length(value.count) + value
    }

    /// One TLV at `at`: (tag, value range); nil when it does not parse inside `bytes`.
    package static func element(_ bytes: [UInt8], at: Int) -> (tag: UInt16, value: Range<Int>)? {
        var i = at
        guard i < bytes.count else { return nil }
        var tag = UInt16(bytes[i])
        i += 1
        if tag & 0x1F == 0x1F {
            guard i < bytes.count else { return nil }
            tag = tag << 8 | UInt16(bytes[i])
            i += 1
        }
        guard i < bytes.count else { return nil }
        var n = Int(bytes[i])
        i += 1
        if n > 0x80 {
            let k = n - 0x80
            guard k <= 3, i + k <= bytes.count else { return nil }
            n = bytes[i..<i + k].reduce(0) { $0 << 8 | Int($1) }
            i += k
        } else if n == 0x80 {
            return nil
        }
        guard i + n <= bytes.count else { return nil }
        return (tag, i..<i + n)
    }
}
