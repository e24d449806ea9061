/// The access conditions as the chip enforces them (NXP MF1S50yyX §8.7, Tables 6–8; the same in MF1S70yyX):
/// three bits C1 C2 C3 per group, stored with their inverses in trailer bytes 6–8.
///
/// | Byte | Bits 7–4 | Bits 3–0 |
/// |---|---|---|
/// | 6 | ¬C2 (groups 3…0) | ¬C1 |
/// | 7 | C1 | ¬C3 |
/// | 8 | C3 | C2 |
///
/// A trailer whose inverted copies do not match blocks the whole sector for good (MF1S50yyX §8.7.1): every access
/// is then refused.
enum MifareClassicAccessRules {
    /// Which keys grant an operation.
    struct Keys: OptionSet, Sendable {
        let rawValue: UInt8
        static let a = Keys(rawValue: 1)
        static let b = Keys(rawValue: 2)
        static let never: Keys = []
        static let both: Keys = [.a, .b]

        func grants(_ keyType: UInt8) -> Bool { contains(keyType == 0x60 ? .a : .b) }
    }

    /// C1 C2 C3 of each of the four groups, or nil when the inverted copies do not match.
    static func conditions(_ trailer: ArraySlice<UInt8>) -> [UInt8]? {
        let b = Array(trailer)
        guard b.count >= 9 else { return nil }
        let c1 = b[7] >> 4
        let c2 = b[8] & 0x0F
        let c3 = b[8] >> 4
        guard b[6] & 0x0F == ~c1 & 0x0F, b[6] >> 4 == ~c2 & 0x0F, b[7] & 0x0F == ~c3 & 0x0F else { return nil }
        return (0..<4).map { g in (c1 >> UInt8(g) & 1) << 2 | (c2 >> UInt8(g) & 1) << 1 | (c3 >> UInt8(g) & 1) }
    }

    /// Data block rules, index C1C2C3 (MF1S50yyX Table 8): read, write, increment, decrement/transfer/restore.
    static let data: [(read: Keys, write: Keys, increment: Keys, decrement: Keys)] = [
        (.both, .both, .both, .both),  // 000 transport configuration
        (.both, .never, .never, .both),  // 001 value block
        (.both, .never, .never, .never),  // 010 read/write block
        (.b, .b, .never, .never),  // 011
        (.both, .b, .never, .never),  // 100
        (.b, .never, .never, .never),  // 101
        (.both, .b, .b, .both),  // 110 value block
        (.never, .never, .never, .never),  // 111
    ]

    /// Trailer rules, index C1C2C3 (MF1S50yyX Table 7): key A write, access bits read and write, key B read and write.
    static let trailer: [(keyAWrite: Keys, accessRead: Keys, accessWrite: Keys, keyBRead: Keys, keyBWrite: Keys)] = [
        (.a, .a, .never, .a, .a),  // 000
        (.a, .a, .a, .a, .a),  // 001 transport configuration
        (.never, .a, .never, .a, .never),  // 010
        (.b, .both, .b, .never, .b),  // 011
        (.b, .both, .never, .never, .b),  // 100
        (.never, .both, .b, .never, .never),  // 101
        (.never, .both, .never, .never, .never),  // 110
        (.never, .both, .never, .never, .never),  // 111
    ]

    /// Whether key B is readable in this trailer condition, in which case it cannot serve for authentication
    /// (MF1S50yyX §8.7.2: "the card will refuse any subsequent memory access after authentication").
    static func keyBReadable(_ condition: UInt8) -> Bool { !trailer[Int(condition)].keyBRead.isEmpty }
}
