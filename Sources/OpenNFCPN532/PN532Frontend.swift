internal import OpenNFCBytes
package import OpenNFCRF

/// An ``RFFrontend`` over a PN532 (NXP UM0701-02), on any ``PN532Transport``: what `pn532:` devices give the
/// sessions and the CLI.
///
/// | Capability | How | Frames on the host link |
/// |---|---|---|
/// | Poll NFC-A | InListPassiveTarget 106 A (and Jewel `04` when no 14443-3 tag answers); a RF field reset first when a tag was halted since (so HALTed tags answer, as WUPA would) | 1–2, +2 for the reset |
/// | Poll NFC-B / NFC-F | InListPassiveTarget 106 B (the chip sends ATTRIB) / 212 or 424 FeliCa with the request's system code, request code and slots | 1 |
/// | Activate | the target the poll just selected is used as it is; otherwise InListPassiveTarget by UID (106 A), after a field reset when a tag was halted | 0–3 |
/// | Level-3 NFC-A (Type 2, Ultralight C) | InCommunicateThru with RxCRC off (`6303` = `00`): the chip adds CRC_A, this frontend checks and strips the answer's, 4-bit ACK/NAK come back as one byte | 1 (+1 register write per activation) |
/// | MIFARE Classic | ``authenticate(_:)`` is InDataExchange `60`/`61` with the key and the UID: the chip's own Crypto1; frames then go by InDataExchange (status `14` = NAK) | 1 |
/// | ISO-DEP (A with ATS, B) | InDataExchange; the chip does blocks, chaining and WTX; commands above 262 bytes chained with MI, answers with MI collected | 1+ |
/// | Type 1 | InDataExchange `cmd ADD DATA`: the chip appends the UID; the address echo is put back | 1 |
/// | NFC-F | InDataExchange with the LEN byte | 1 |
/// | NFC-V (ISO 15693) | none: the PN532 has no ISO 15693 front end; polling only NFC-V throws `unsupported` naming readers that have one | 0 |
/// | Deactivate | InRelease (HLTA / S(DESELECT) by the chip) | 1 |
///
/// Link faults surface as `RFError(.frontendFailure)` with the driver's words (timeout, unplugged, garbled); the
/// chip's RF status `01` is `timeout`, `02`/`03` `transmission`, others `protocolViolation`.
package final class PN532Frontend: RFFrontend {
    package let driver: PN532Driver
    /// IC, version, revision and support bits from GetFirmwareVersion.
    package private(set) var firmware: [UInt8] = []
    package var capabilities = RFCapabilities(
        maxCommandSize: 262, maxResponseSize: 262, rawFrames: true, technologies: [.nfcA, .nfcB, .nfcF],
        mifareClassicAuthentication: true)

    /// What the poll and activation know of a target: its InListPassiveTarget type and activation.
    struct Known {
        var target: RFTarget
        var brTy: UInt8
    }

    var known: [Int: Known] = [:]
    var nextHandle = 1
    /// The handle of the target the chip has selected as Tg 1, if any.
    var selected: Int?
    /// A tag was halted (or failed authentication) since the last field reset: REQA would not find it. True at
    /// first: a program before this one may have left a tag halted, so the first poll starts with a field reset.
    var haltedSinceReset = true
    var authenticated = false
    /// The selected target was listed by the last command and nothing was sent to it since: activating it needs
    /// no frame. After any exchange, activation selects it again (a NAK or an error leaves an NXP tag mute).
    var fresh = false
    /// RxMode as last written (`nil` unknown).
    var rxMode: UInt8?

    /// Opens the chip: wake-up, SAMConfiguration normal mode (leaves the C106's low-battery mode), GetFirmwareVersion
    /// (must be a PN532), RFConfiguration MxRtyPassiveActivation 2 (a poll without a tag returns instead of
    /// waiting for one), SetParameters AutomaticATR_RES | AutomaticRATS.
    package init(transport: any PN532Transport) throws(PN532Error) {
        driver = PN532Driver(transport: transport)
        _ = try driver.call(0x14, [0x01])
        firmware = try driver.call(0x02)
        guard firmware.count == 4 else {
            throw PN532Error(.garbled, "GetFirmwareVersion answered \(firmware.count) bytes, not 4")
        }
        guard firmware[0] == 0x32 else {
            throw PN532Error(
                .unsupported,
                "the chip on \(transport.name) is IC \(PN532Frame.hex([firmware[0]])), not a PN532 (32)")
        }
        _ = try driver.call(0x32, [0x05, 0xFF, 0x01, 0x02])
        _ = try driver.call(0x12, [0x14])
    }

    /// `PN532 v1.6` from the firmware version.
    package var firmwareDescription: String {
        firmware.count == 4 ? "PN532 v\(firmware[1]).\(firmware[2])" : "PN532"
    }

    static func rf(_ e: PN532Error) -> RFError {
        switch e.code {
        case .status(let s):
            switch s & 0x3F {
            case 0x01: return RFError(.timeout, "no answer from the tag (PN532 status 01)")
            case 0x02, 0x03, 0x04, 0x05, 0x06:
                return RFError(.transmission, PN532Error.meaning(ofStatus: s))
            case 0x29, 0x2B: return RFError(.linkLost, PN532Error.meaning(ofStatus: s))
            default: return RFError(.protocolViolation, "PN532: \(PN532Error.meaning(ofStatus: s))")
            }
        default:
            return RFError(.frontendFailure, e.detail)
        }
    }

    func call(_ code: UInt8, _ p: [UInt8], timeout: Int? = nil) throws(RFError) -> [UInt8] {
        do { return try driver.call(code, p, timeoutMilliseconds: timeout) } catch { throw Self.rf(error) }
    }

    /// A command answering `status data…`: the data, or the status as an error.
    func statusCall(_ code: UInt8, _ p: [UInt8]) throws(RFError) -> [UInt8] {
        let a = try call(code, p)
        guard let status = a.first else {
            throw RFError(.protocolViolation, "\(PN532Driver.name(of: code)) answered without a status byte")
        }
        guard status & 0x3F == 0 else { throw Self.rf(PN532Error(.status(status), "")) }
        return Array(a.dropFirst())
    }

    // MARK: Poll and activation

    package func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        let r = request.restricted(to: capabilities.technologies)
        if r.technologies.isEmpty && request.nfcV != nil {
            throw RFError(
                .unsupported,
                "the PN532 has no ISO 15693 (NFC-V) front end; read Type 5 tags with a PC/SC reader that has one"
                    + " (ACR1252U, HID OMNIKEY 5022/5422, Identiv uTrust 3700 F) or the simulation (sim:)")
        }
        if haltedSinceReset && r.nfcA?.wakeUp != false { try resetField() }
        var found: [RFTarget] = []
        if r.nfcA != nil {
            var a = try list(brTy: 0x00, data: [])
            if a.isEmpty { a = try list(brTy: 0x04, data: []) }
            found += a
        }
        if let b = r.nfcB { found += try list(brTy: 0x03, data: [b.afi]) }
        if let f = r.nfcF {
            found += try list(
                brTy: f.bitRate == 424 ? 0x02 : 0x01,
                data: [0x00, UInt8(f.systemCode >> 8), UInt8(f.systemCode & 0xFF), f.requestCode, f.timeSlots])
        }
        return found
    }

    /// RFConfiguration field off, then on: every tag loses power and HALT (ISO/IEC 14443-3 §6.2).
    func resetField() throws(RFError) {
        _ = try call(0x32, [0x01, 0x00])
        _ = try call(0x32, [0x01, 0x01])
        haltedSinceReset = false
        selected = nil
        authenticated = false
    }

    /// InListPassiveTarget of one target; it is selected (Tg 1) afterwards.
    func list(brTy: UInt8, data: [UInt8]) throws(RFError) -> [RFTarget] {
        let a = try call(0x4A, [0x01, brTy] + data)
        selected = nil
        authenticated = false
        guard a.count >= 1, a[0] >= 1 else { return [] }
        guard let activation = Self.decodeTargetData(Array(a.dropFirst(2)), brTy: brTy), a.count >= 2, a[1] == 1
        else {
            throw RFError(.protocolViolation, "InListPassiveTarget answered \(a.hexString), which is not target data")
        }
        let handle =
            known.first { $0.value.target.identifier == activation.identifier && $0.value.brTy == brTy }?.key
            ?? nextHandle
        if handle == nextHandle { nextHandle += 1 }
        var t = RFTarget(activation, handle: handle)
        if brTy == 0x04, case .nfcA(var jewel) = activation {
            // RID (NFC Forum T1T §5.2.1) for HR0 HR1: the Jewel target data has no header bytes.
            let rid = try statusCall(0x40, [0x01, 0x78])
            if rid.count >= 2 { jewel.type1 = NFCAActivation.Type1Header(hr0: rid[0], hr1: rid[1]) }
            t.activation = .nfcA(jewel)
        }
        known[handle] = Known(target: t, brTy: brTy)
        selected = handle
        fresh = true
        rxMode = nil
        return [t]
    }

    /// TargetData after Tg (UM0701-02 §7.3.5) → activation. SENS_RES comes most significant byte first.
    static func decodeTargetData(_ d: [UInt8], brTy: UInt8) -> RFActivation? {
        switch brTy {
        case 0x00:
            guard d.count >= 4 else { return nil }
            let n = Int(d[3])
            guard [4, 7, 10].contains(n), d.count >= 4 + n else { return nil }
            let ats: [UInt8]? = d.count > 4 + n ? Array(d[(4 + n)...]) : nil
            if let ats, ats.first.map({ Int($0) != ats.count }) ?? true { return nil }
            return .nfcA(
                NFCAActivation(
                    uid: Array(d[4..<(4 + n)]), sensRes: UInt16(d[0]) << 8 | UInt16(d[1]), selRes: d[2], ats: ats))
        case 0x04:
            guard d.count == 6 else { return nil }
            return .nfcA(
                NFCAActivation(
                    uid: Array(d[2..<6]), sensRes: UInt16(d[0]) << 8 | UInt16(d[1]), selRes: nil,
                    type1: NFCAActivation.Type1Header(hr0: 0, hr1: 0)))
        case 0x01, 0x02:
            guard d.count >= 18, Int(d[0]) == d.count, d[1] == 0x01 else { return nil }
            let rd: [UInt8]? = d.count >= 20 ? Array(d[18..<20]) : nil
            return .nfcF(
                NFCFActivation(
                    idm: Array(d[2..<10]), pmm: Array(d[10..<18]),
                    systemCode: rd.map { UInt16($0[0]) << 8 | UInt16($0[1]) }, requestData: rd,
                    bitRate: brTy == 0x02 ? 424 : 212))
        default:
            guard d.count >= 13, let b = NFCBActivation(atqb: Array(d[0..<12])) else { return nil }
            let n = Int(d[12])
            guard d.count == 13 + n else { return nil }
            var act = b
            act.attribResponse = Array(d[13...])
            return .nfcB(act)
        }
    }

    package func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        guard capabilities.technologies.contains(target.technology) else {
            throw RFError(.unsupported, "the PN532 does not speak \(target.technology.rawValue)")
        }
        guard let k = known[target.handle] else {
            throw RFError(.linkLost, "the PN532 has not seen a target with handle \(target.handle)")
        }
        let wantsISODEP = isoDEP && target.technology == .nfcA && (k.target.selRes ?? 0) & 0x20 != 0
        if selected == target.handle, fresh,
            wantsISODEP == (k.target.ats != nil) || target.technology != .nfcA
        {
            return k.target
        }
        if haltedSinceReset { try resetField() }
        let data: [UInt8]
        switch k.brTy {
        case 0x00: data = Self.cascade(k.target.identifier)
        case 0x01, 0x02: data = [0x00, 0xFF, 0xFF, 0x00, 0x00]
        case 0x03: data = [0x00]
        default: data = []
        }
        if k.brTy == 0x00 && !wantsISODEP && (k.target.selRes ?? 0) & 0x20 != 0 {
            _ = try call(0x12, [0x04])  // without AutomaticRATS, for a level-3 activation of an ISO-DEP tag
        }
        defer {
            if k.brTy == 0x00 && !wantsISODEP && (k.target.selRes ?? 0) & 0x20 != 0 { _ = try? call(0x12, [0x14]) }
        }
        let found = try list(brTy: k.brTy, data: data)
        guard let t = found.first, t.identifier == k.target.identifier else {
            throw RFError(.linkLost, "the tag \(k.target.identifier.hexString) no longer answers")
        }
        return t
    }

    /// InitiatorData for 106 A: the UID with cascade tags (UM0701-02 §7.3.5).
    static func cascade(_ uid: [UInt8]) -> [UInt8] {
        switch uid.count {
        case 7: return [0x88] + uid
        case 10: return [0x88] + uid[0..<3] + [0x88] + uid[3...]
        default: return uid
        }
    }

    package func deactivate() {
        guard selected != nil else { return }
        _ = try? call(0x52, [0x00])
        selected = nil
        authenticated = false
        haltedSinceReset = true
    }
}
