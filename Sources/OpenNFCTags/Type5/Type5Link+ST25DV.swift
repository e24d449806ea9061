internal import OpenNFCBytes

/// ST25DV custom commands (IC manufacturer `02`; ST25DV04K/16K/64K datasheet §7.6), sent addressed with the
/// manufacturer code after the command code (ISO/IEC 15693-3 §10.5).
extension ISO15693Request {
    /// READ CONFIGURATION (`A0`, §7.6.15) of the static register at `pointer`.
    package static func st25ReadConfiguration(_ pointer: UInt8) -> Self { Self(0xA0, [pointer]) }
}

extension Type5Link {
    /// The ST25DV area registers (§7.6 Table 12): the area ends and the RF access of each area.
    package static let st25AreaRegisters: [(name: String, pointer: UInt8)] = [
        ("ENDA1", 0x05), ("ENDA2", 0x07), ("ENDA3", 0x09), ("RFA1SS", 0x04), ("RFA2SS", 0x06), ("RFA3SS", 0x08),
        ("RFA4SS", 0x0A),
    ]

    /// The area registers by READ CONFIGURATION, nil when the tag is not ST's or refuses the first read (not an
    /// ST25DV).
    package func st25AreaConfiguration() throws(TagError) -> [(name: String, value: UInt8)]? {
        guard manufacturer == 0x02, (try? send(.st25ReadConfiguration(0x05), what: "READ CONFIGURATION ENDA1")) != nil
        else { return nil }
        var regs: [(name: String, value: UInt8)] = []
        for (name, pointer) in Self.st25AreaRegisters {
            let v = try send(.st25ReadConfiguration(pointer), what: "READ CONFIGURATION \(name)")
            guard v.count == 1 else {
                throw TagError(.invalidResponse, "READ CONFIGURATION \(name) answered \(Hex.encode(v))")
            }
            regs.append((name, v[0]))
        }
        return regs
    }
}

extension Type5Trace {
    /// ST25DV custom commands (ST25DV04K/16K/64K datasheet §7.6).
    static func stCustomName(_ code: UInt8, _ p: [UInt8]) -> String {
        let arg = p.first.map { Hex.encode([$0]) } ?? "?"
        switch code {
        case 0xA0: return "READ CONFIGURATION \(arg) (ST)"
        case 0xA1: return "WRITE CONFIGURATION \(arg) (ST)"
        case 0xAD: return "READ DYNAMIC CONFIGURATION \(arg) (ST)"
        case 0xAE: return "WRITE DYNAMIC CONFIGURATION \(arg) (ST)"
        case 0xB1: return "WRITE PASSWORD \(arg) (ST)"
        case 0xB3: return "PRESENT PASSWORD \(arg) (ST)"
        case 0xC0: return "FAST READ SINGLE BLOCK (ST)"
        case 0xC3: return "FAST READ MULTIPLE BLOCKS (ST)"
        default: return "ST custom command \(Hex.encode([code]))"
        }
    }
}
