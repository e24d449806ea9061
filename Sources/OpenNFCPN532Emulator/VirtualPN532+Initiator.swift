internal import OpenNFCBytes
internal import OpenNFCRF
internal import OpenNFCSimulation

/// Finding and selecting targets: InListPassiveTarget, InAutoPoll, InSelect, InDeselect, InRelease
/// (UM0701-02 §7.3.5, §7.3.10–13).
extension VirtualPN532 {
    /// `MaxTg BrTy [InitiatorData]` → `NbTg [TargetData…]`.
    func inListPassiveTarget(_ p: [UInt8]) -> [UInt8]? {
        guard p.count >= 2, p[0] == 1 || p[0] == 2, p[1] <= 0x04 else { return nil }
        guard let found = list(maxTg: Int(p[0]), brTy: p[1], initiatorData: Array(p.dropFirst(2))) else { return nil }
        return [0x4B, UInt8(found.count)] + found.flatMap { $0 }
    }

    /// Polls and lists up to `maxTg` targets of one type, selects the first; the TargetData of each (Tg first), or
    /// nil for bad InitiatorData.
    func list(maxTg: Int, brTy: UInt8, initiatorData data: [UInt8]) -> [[UInt8]]? {
        var request = RFPollRequest()
        var uidFilter: [UInt8]?
        switch brTy {
        case 0x00, 0x04:
            if brTy == 0x04 && (maxTg != 1 || !data.isEmpty) { return nil }
            if !data.isEmpty {
                guard let uid = Self.uid(fromCascade: data) else { return nil }
                uidFilter = uid
            }
            // REQA finds idle tags only; naming a UID wakes a halted one (WUPA), as re-selection needs.
            request.nfcA = .init(wakeUp: uidFilter != nil)
        case 0x01, 0x02:
            guard data.count == 5, data[0] == 0x00 else { return nil }
            request.nfcF = .init(
                systemCode: UInt16(data[1]) << 8 | UInt16(data[2]), requestCode: data[3], timeSlots: data[4],
                bitRate: brTy == 0x01 ? 212 : 424)
        default:
            guard data.count <= 2 else { return nil }
            request.nfcB = .init(afi: data.first ?? 0x00, wakeUp: false)
        }
        listed = []
        selected = nil
        blocks = CardBlockState()
        anticollision = nil
        switchFieldOn()
        var targets = field.poll(request)
        if brTy == 0x00 { targets = targets.filter { $0.nfcA?.type1 == nil } }
        if brTy == 0x04 { targets = targets.filter { $0.nfcA?.type1 != nil } }
        if let uidFilter { targets = targets.filter { $0.identifier == uidFilter } }
        guard !targets.isEmpty else {
            // The REQA stays in the FIFO when no tag answers (nfcpy reads 6339 to tell "no tag" from "Type 1").
            if brTy == 0x00 { registers[0x6339] = 0x26 }
            return []
        }
        var out: [[UInt8]] = []
        for (i, found) in targets.prefix(maxTg).enumerated() {
            var t = found
            if i == 0 {
                guard let activated = try? activate(found, brTy: brTy) else { continue }
                t = activated
            }
            listed.append(ListedTarget(target: t, brTy: brTy))
            if i == 0 { selected = listed.count - 1 }
            out.append([UInt8(listed.count)] + Self.targetData(t, brTy: brTy))
        }
        if brTy == 0x00 || brTy == 0x04 {
            registers[0x6302] = 0x80
            registers[0x6303] = 0x80
        }
        return out
    }

    /// Selects a target as the chip does for its type: anticollision and SELECT (+ RATS with AutomaticRATS),
    /// ATTRIB for type B; FeliCa and Jewel need nothing more.
    func activate(_ target: RFTarget, brTy: UInt8) throws(RFError) -> RFTarget {
        let rats = brTy == 0x00 && parameters & 0x10 != 0 && (target.selRes ?? 0) & 0x20 != 0
        let t = try reader.activate(target, isoDEP: rats || brTy == 0x03)
        blocks = CardBlockState()
        return t
    }

    /// TargetData (UM0701-02 §7.3.5, after Tg): 106 A `SENS_RES SEL_RES NFCIDLength NFCID1 [ATS]`; FeliCa
    /// `POL_RES length, 01, NFCID2, PAD [SYST_CODE]`; 106 B `ATQB ATTRIB_RES length ATTRIB_RES`; Jewel `SENS_RES
    /// JEWELID`. SENS_RES is given most significant byte first.
    static func targetData(_ t: RFTarget, brTy: UInt8) -> [UInt8] {
        switch t.activation {
        case .nfcA(let a):
            let q = a.sensRes ?? 0
            if brTy == 0x04 { return [UInt8(q >> 8), UInt8(q & 0xFF)] + Array(a.uid.prefix(4)) }
            return [UInt8(q >> 8), UInt8(q & 0xFF), a.selRes ?? 0, UInt8(a.uid.count)] + a.uid + (a.ats ?? [])
        case .nfcF(let f):
            let body = [0x01] + f.idm + f.pmm + (f.requestData ?? [])
            return [UInt8(body.count + 1)] + body
        case .nfcB(let b):
            let attrib = b.attribResponse ?? [0x00]
            return Array(b.atqb.prefix(12)) + [UInt8(attrib.count)] + attrib
        case .nfcV:
            return []
        }
    }

    /// The UID in InitiatorData for 106 A: 4 bytes, or 7 and 10 with their cascade tags `88`.
    static func uid(fromCascade d: [UInt8]) -> [UInt8]? {
        switch d.count {
        case 4: return d
        case 7, 10: return d
        case 8 where d[0] == 0x88: return Array(d[1...])
        case 12 where d[0] == 0x88 && d[4] == 0x88: return Array(d[1..<4]) + Array(d[5...])
        default: return nil
        }
    }

    /// `PollNr Period Type…` → `NbTg [Type Len TargetData]` with the first type that finds a target. An endless
    /// poll (`FF`) is answered at once too: the virtual field does not change while the chip waits.
    func inAutoPoll(_ p: [UInt8]) -> [UInt8]? {
        guard p.count >= 3, p.count <= 17, p[0] != 0, p[1] != 0 else { return nil }
        for type in p.dropFirst(2) {
            let brTy: UInt8
            switch type {
            case 0x00, 0x10, 0x20: brTy = 0x00
            case 0x01, 0x11: brTy = 0x01
            case 0x02, 0x12: brTy = 0x02
            case 0x03, 0x23: brTy = 0x03
            case 0x04: brTy = 0x04
            default: continue  // DEP: the virtual field holds no NFC-DEP targets
            }
            let data: [UInt8] = brTy == 0x01 || brTy == 0x02 ? [0x00, 0xFF, 0xFF, 0x00, 0x00] : []
            guard let found = list(maxTg: 1, brTy: brTy, initiatorData: data), let first = found.first else {
                continue
            }
            if type == 0x20, !(listed.first?.target.isISODEP ?? false) { continue }
            return [0x61, 0x01, type, UInt8(first.count)] + first
        }
        return [0x61, 0x00]
    }

    /// InSelect `Tg`: WUPA and SELECT (and RATS / ATTRIB) of a listed target.
    func inSelect(_ p: [UInt8]) -> [UInt8]? {
        guard p.count == 1 else { return nil }
        let i = Int(p[0]) - 1
        guard listed.indices.contains(i) else { return [0x55, 0x27] }
        do {
            listed[i].target = try activate(listed[i].target, brTy: listed[i].brTy)
            selected = i
            return [0x55, 0x00]
        } catch {
            return [0x55, Self.status(for: error)]
        }
    }

    /// InDeselect / InRelease `Tg` (`00` all): HLTA or S(DESELECT); InRelease also forgets the target.
    func deselect(_ p: [UInt8], release: Bool) -> [UInt8]? {
        guard p.count == 1 else { return nil }
        let code: UInt8 = release ? 0x53 : 0x45
        let tg = Int(p[0])
        guard tg == 0 || listed.indices.contains(tg - 1) else { return [code, 0x27] }
        if let s = selected, tg == 0 || tg - 1 == s {
            // HLTA, or S(DESELECT) for an ISO-DEP target (ISO/IEC 14443-4 §8): the field's release does either.
            reader.deactivate()
            selected = nil
            blocks = CardBlockState()
        }
        if release {
            if tg == 0 { listed = [] } else { listed.remove(at: tg - 1) }
        }
        return [code, 0x00]
    }

    /// The firmware switches the RF field on by itself before it transmits (UM0701-02 §7.3.1: RFConfiguration
    /// item 01 only says whether it stays on between commands).
    func switchFieldOn() {
        guard !fieldOn else { return }
        fieldOn = true
        registers[0x6304] = 0x83
    }

    /// The selected target, when it is still the field's active one.
    var activeTarget: ListedTarget? {
        guard let s = selected, listed.indices.contains(s), field.activeHandle == listed[s].target.handle else {
            return nil
        }
        return listed[s]
    }
}
