internal import OpenNFCBytes

extension ISO15693Tag {
    /// The decoded memory map for `opennfc tag show`: system information, the CC, locks and NDEF access.
    var report: TagReport {
        var lines = [
            "System: DSFID \(Hex.encode([dsfid]))\(dsfidLocked ? " (locked)" : ""), AFI \(Hex.encode([afi]))"
                + "\(afiLocked ? " (locked)" : ""), \(profile.blockCount) blocks of \(profile.blockSize) bytes"
                + (profile.icReference.map { ", IC reference \(Hex.encode([$0]))" } ?? ""),
            "State: \(state.rawValue)",
        ]
        let cc = Array(memory.prefix(memory.first == 0xE2 || (memory.count > 2 && memory[2] == 0) ? 8 : 4))
        let formatted = cc.first == 0xE1 || cc.first == 0xE2
        lines.append("CC: \(Hex.encode(cc, separator: " "))\(formatted ? "" : " (not NDEF formatted)")")
        switch profile.custom {
        case .icodeSLIX, .icodeSLIX2:
            var nx = ["EAS \(nxp.eas ? "set" : "reset")\(nxp.easLocked ? " (locked)" : "")"]
            if nxp.easProtected || nxp.afiProtected {
                nx.append(
                    "password protects \([nxp.easProtected ? "EAS" : nil, nxp.afiProtected ? "AFI" : nil].compactMap { $0 }.joined(separator: " and "))"
                )
            }
            if profile.custom == .icodeSLIX2 {
                nx.append("privacy \(nxp.privacy ? "on" : "off")")
                nx.append(
                    "page protection pointer \(Hex.encode([nxp.protectionPointer])) condition "
                        + "\(Hex.encode([nxp.protectionCondition]))\(nxp.protectionLocked ? " (locked)" : "")")
                if nxp.destroyed { nx.append("destroyed") }
            }
            lines.append("NXP: " + nx.joined(separator: ", "))
        case .st25dv:
            let areas = (1...4).map { "RFA\($0)SS \(Hex.encode([st25.security($0)]))" }
            lines.append(
                "ST25DV: ENDA1-3 \(Hex.encode([st25.configuration[5], st25.configuration[7], st25.configuration[9]], separator: " ")), "
                    + areas.joined(separator: ", "))
        case .none: break
        }
        if !lockedBlocks.isEmpty {
            lines.append(
                "Locked blocks: \(lockedBlocks.sorted().map { String($0, radix: 16, uppercase: true) + "h" }.joined(separator: ", "))"
            )
        }
        // The one memory map (blocks in hex, identical blocks collapsed into `*`).
        lines.append("Memory:")
        lines += MemoryMap(
            bytes: Array(memory.prefix(profile.blockCount * profile.blockSize)), width: profile.blockSize,
            note: { lockedBlocks.contains($0) ? "locked" : "" }
        ).lines(indent: "  ")
        let readOnly = formatted && cc.count > 1 && cc[1] & 0x03 == 0x03
        let access = !formatted ? "not NDEF formatted" : readOnly ? "read-only" : "read/write"
        return TagReport(
            lines: lines,
            json: [
                ("dsfid", .string(Hex.encode([dsfid]))), ("afi", .string(Hex.encode([afi]))),
                ("blocks", .int(profile.blockCount)), ("blockSize", .int(profile.blockSize)),
                ("cc", .string(Hex.encode(cc))), ("lockedBlocks", .array(lockedBlocks.sorted().map { .int($0) })),
            ], ndefAccess: access)
    }
}
