internal import OpenNFCBytes

/// The decoded view of a Type 2 tag for `opennfc tag show`: memory map, CC, TLVs, lock and configuration pages.
extension Type2Tag {
    static func pageName(_ p: Int) -> String { Hex.encode([UInt8(p)]) + "h" }

    static func tlvName(_ t: UInt8) -> String {
        switch t {
        case 0x00: return "NULL"
        case 0x01: return "Lock Control"
        case 0x02: return "Memory Control"
        case 0x03: return "NDEF Message"
        case 0xFD: return "Proprietary"
        case 0xFE: return "Terminator"
        default: return "Unknown \(Hex.encode([t]))h"
        }
    }

    /// What each special page holds.
    func pageRole(_ p: Int) -> String? {
        if profile.family == .ultralightC {
            switch p {
            case UltralightCLayout.lockPage: return "LOCK2, LOCK3, RFU"
            case UltralightCLayout.counterPage: return "16-bit counter (LSB first), RFU"
            case UltralightCLayout.auth0Page: return "AUTH0, RFU"
            case UltralightCLayout.auth1Page: return "AUTH1, RFU"
            case UltralightCLayout.keyPage...UltralightCLayout.keyPage + 3: return "3DES key (write-only, reads as 00)"
            default: break
            }
        }
        switch p {
        case 0: return "UID0-2, BCC0"
        case 1: return "UID3-6"
        case 2: return "BCC1, internal, static lock bytes"
        case 3: return "capability container (OTP)"
        case profile.dynamicLock?.page: return "dynamic lock bytes, RFUI"
        case profile.configPage where profile.family == .ntagI2CPlus: return "RFUI, RFUI, RFUI, AUTH0"
        case profile.configPage.map({ $0 + 1 }) where profile.family == .ntagI2CPlus: return "ACCESS, RFUI"
        case profile.configPage.map({ $0 + 4 }) where profile.family == .ntagI2CPlus: return "PT_I2C, RFUI"
        case profile.registerPage, profile.registerPage.map({ $0 + 1 }): return "configuration registers"
        case let p where profile.invalidPages?.contains(p) ?? false: return "(no such page)"
        case profile.configPage:
            return profile.family == .ntag21x ? "CFG0: MIRROR, RFUI, MIRROR_PAGE, AUTH0" : "CFG0: MOD, RFU, RFU, AUTH0"
        case profile.configPage.map({ $0 + 1 }):
            return profile.family == .ntag21x ? "CFG1: ACCESS, RFUI" : "CFG1: ACCESS, VCTID, RFU"
        case profile.pwdPage: return "PWD (reads as 00)"
        case profile.packPage: return "PACK, RFUI (reads as 00)"
        default: return nil
        }
    }

    /// Pages a lock bit makes read-only, as ranges.
    var lockedPageRanges: [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        for p in 3..<profile.pageCount where isLocked(p) {
            if let last = out.last, last.upperBound == p - 1 {
                out[out.count - 1] = last.lowerBound...p
            } else {
                out.append(p...p)
            }
        }
        return out
    }

    var report: TagReport {
        var lines: [String] = []
        var json: [(String, JSONValue)] = []
        let hex = { (b: ArraySlice<UInt8>) in Hex.encode(b, separator: " ") }
        lines.append(
            "Product: \(profile.displayName), \(profile.pageCount) pages (\(profile.pageCount * 4) bytes), "
                + "\(profile.userBytes) bytes user memory (pages 04h-\(Self.pageName(profile.lastUserPage)))")
        json.append(("product", .string(profile.displayName)))
        json.append(("pages", .int(profile.pageCount)))
        json.append(("userBytes", .int(profile.userBytes)))
        if let v = profile.version {
            lines.append("GET_VERSION: \(Hex.encode(v, separator: " "))")
            json.append(("version", .string(Hex.encode(v))))
        }

        // Capability container.
        let cc = memory[12..<16]
        var ccJSON: [(String, JSONValue)] = [("bytes", .string(Hex.encode(cc)))]
        if isNDEFFormatted {
            let read = cc[15] >> 4
            let write = cc[15] & 0x0F
            let access = { (n: UInt8) in n == 0 ? "granted" : n == 0x0F ? "none" : "proprietary" }
            lines.append(
                "Capability container: \(hex(cc)): NDEF mapping \(cc[13] >> 4).\(cc[13] & 0x0F), "
                    + "\(Int(cc[14]) * 8)-byte data area, read access \(Hex.encode([read]).suffix(1))h (\(access(read))), "
                    + "write access \(Hex.encode([write]).suffix(1))h (\(access(write)))")
            ccJSON += [
                ("version", .string("\(cc[13] >> 4).\(cc[13] & 0x0F)")), ("dataAreaSize", .int(Int(cc[14]) * 8)),
                ("readAccess", .int(Int(read))), ("writeAccess", .int(Int(write))),
            ]
        } else {
            lines.append("Capability container: \(hex(cc)): not NDEF formatted (CC0 is not E1h)")
        }
        json.append(("capabilityContainer", .object(ccJSON)))

        // TLVs.
        let tlvs = self.tlvs
        if !tlvs.isEmpty {
            lines.append("TLVs:")
            for t in tlvs {
                var line = "  byte \(t.offset): \(Self.tlvName(t.type))"
                if t.type != 0x00 && t.type != 0xFE {
                    line += ", \(t.value.count) bytes"
                    if t.type != 0x03 && !t.value.isEmpty { line += ": \(Hex.encode(t.value, separator: " "))" }
                }
                lines.append(line)
            }
        }
        json.append(
            (
                "tlvs",
                .array(
                    tlvs.map { t in
                        .object([
                            ("type", .string(Self.tlvName(t.type))), ("offset", .int(t.offset)),
                            ("length", .int(t.value.count)), ("value", .string(Hex.encode(t.value))),
                        ])
                    })
            ))

        // Locks.
        lines.append("Static lock bytes (page 02h): \(hex(memory[10..<12]))")
        json.append(("staticLock", .string(Hex.encode(memory[10..<12]))))
        if let d = profile.dynamicLock {
            lines.append(
                "Dynamic lock bytes (page \(Self.pageName(d.page))): \(hex(memory[d.page * 4..<d.page * 4 + 3]))")
            json.append(("dynamicLock", .string(Hex.encode(memory[d.page * 4..<d.page * 4 + 3]))))
        }
        let locked = lockedPageRanges
        let lockedText =
            locked.isEmpty
            ? "none"
            : locked.map {
                $0.count == 1
                    ? Self.pageName($0.lowerBound) : "\(Self.pageName($0.lowerBound))-\(Self.pageName($0.upperBound))"
            }.joined(separator: ", ")
        lines.append("Locked (read-only) pages: \(lockedText)")
        json.append(("lockedPages", .array(locked.flatMap { $0 }.map { .int($0) })))

        // Configuration.
        if let c = profile.configPage {
            let access = config(1)[0]
            let a0 = Int(config(0)[3])
            let protection =
                a0 >= profile.pageCount
                ? "no password protection"
                : "password protects pages \(Self.pageName(a0))-\(Self.pageName(profile.pageCount - 1))"
            var cfg =
                "Configuration (pages \(Self.pageName(c))-\(Self.pageName(c + 3))): AUTH0 \(Self.pageName(a0)) "
                + "(\(protection)), PROT \(access >> 7) (\(access & 0x80 != 0 ? "reads and writes" : "writes only")), "
                + "CFGLCK \(access >> 6 & 1), AUTHLIM \(access & 7)\(access & 7 == 0 ? " (unlimited)" : "")"
            var cfgJSON: [(String, JSONValue)] = [
                ("auth0", .int(a0)), ("prot", .bool(access & 0x80 != 0)), ("cfglck", .bool(access & 0x40 != 0)),
                ("authlim", .int(Int(access & 7))),
            ]
            if profile.family == .ntag21x {
                cfg += ", NFC counter \(access & 0x10 != 0 ? "enabled" : "disabled")"
                if access & 0x08 != 0 { cfg += " (password protected)" }
                cfgJSON += [
                    ("nfcCounterEnabled", .bool(access & 0x10 != 0)),
                    ("nfcCounterPasswordProtected", .bool(access & 0x08 != 0)),
                    ("mirror", .string(Hex.encode(config(0)[0..<3]))),
                ]
            } else {
                cfg += ", VCTID \(Hex.encode([config(1)[1]]))h"
                cfgJSON.append(("vctid", .int(Int(config(1)[1]))))
            }
            lines.append(cfg)
            let pwd = profile.pwdPage! * 4
            let pack = profile.packPage! * 4
            lines.append(
                "Password: \(hex(memory[pwd..<pwd + 4])), PACK: \(hex(memory[pack..<pack + 2])), "
                    + "failed attempts: \(failedAuthentications)")
            cfgJSON += [
                ("password", .string(Hex.encode(memory[pwd..<pwd + 4]))),
                ("pack", .string(Hex.encode(memory[pack..<pack + 2]))),
                ("failedAuthentications", .int(failedAuthentications)),
            ]
            json.append(("configuration", .object(cfgJSON)))
        }
        switch profile.family {
        case .ultralightEV1:
            lines.append(
                "Counters: \(counters.map(String.init).joined(separator: ", ")); tearing flags "
                    + Hex.encode(tearingFlags, separator: " "))
            json.append(("counters", .array(counters.map { .int(Int($0)) })))
            json.append(("tearingFlags", .string(Hex.encode(tearingFlags))))
        case .ntag21x:
            lines.append("NFC counter: \(counters[2])")
            json.append(("nfcCounter", .int(Int(counters[2]))))
        case .ntagI2CPlus:
            lines.append(
                "Selected sector: \(sector); session registers: \(Hex.encode(sessionRegisters, separator: " "))")
            json.append(("sessionRegisters", .string(Hex.encode(sessionRegisters))))
        case .ultralightC:
            let a0 = auth0
            let protection =
                a0 >= profile.pageCount
                ? "no protection"
                : "3DES authentication protects pages \(Self.pageName(a0))-\(Self.pageName(profile.pageCount - 1))"
                    + (readProtection ? " (reads and writes)" : " (writes only)")
            lines.append(
                "Authentication: AUTH0 \(Self.pageName(a0)) (\(protection)), key \(Hex.encode(ultralightCKeyPages ?? []))"
            )
            lines.append("Counter: \(ultralightCCounter)")
            json.append(
                (
                    "authentication",
                    .object([
                        ("auth0", .int(a0)), ("readProtected", .bool(readProtection)),
                        ("key", .string(Hex.encode(ultralightCKeyPages ?? []))),
                    ])
                ))
            json.append(("counter", .int(ultralightCCounter)))
        case .ultralight:
            break
        }
        if profile.family != .ultralight && profile.family != .ultralightC {
            lines.append("Signature: \(Hex.encode(signature))")
            json.append(("signature", .string(Hex.encode(signature))))
        }

        // The one memory map (pages in hex, runs of identical data pages collapsed into `*`).
        lines.append("Memory:")
        lines += MemoryMap(
            bytes: Array(memory.prefix(profile.pageCount * 4)), width: 4, note: { pageRole($0) ?? "" }
        ).lines(indent: "  ")
        json.append(
            (
                "memory",
                .array((0..<profile.pageCount).map { .string(Hex.encode(memory[$0 * 4..<$0 * 4 + 4], separator: " ")) })
            ))

        let ndefAccess =
            !isNDEFFormatted || !tlvs.contains { $0.type == 0x03 }
            ? "not NDEF formatted" : isNDEFReadOnly ? "read-only" : "read/write"
        return TagReport(lines: lines, json: json, ndefAccess: ndefAccess)
    }
}
